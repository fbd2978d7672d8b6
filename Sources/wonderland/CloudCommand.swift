import ArgumentParser
import Cloud
import Defaults
import FoundationEssentials
import Platform
import PropertyList
import TextSafety
import WonderlandApp

/// `wonderland cloud`: the synced store as this machine sees it — where it syncs, what it
/// holds, what waits to be sent — and a sync on demand. For users wondering why a pin did not
/// arrive, and for end-to-end tests.
struct CloudCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cloud",
        abstract: "Show the synced store (folder or server, device, keys, what waits to be sent) or sync it now.",
        discussion: """
            The store syncs through the server WONDERLAND_SYNC_URL names, else the folder
            WONDERLAND_SYNC_FOLDER names, else the Sync Server setting, else the Sync Folder
            setting, else $XDG_DATA_HOME/wonderland/cloud. A server's password comes from
            PGPASSWORD or ~/.pgpass (PGPASSFILE), as for psql; it is never printed. Each
            command first syncs once (sending what is queued), unless --offline is given.
            `status` and `list` exit with status 1 when they could not reach the
            server (what they print is this machine's copy, and why the server was
            not reached); a folder store, or a server reached, is status 0.

            A running app that syncs tells `status` what it knows (reached, when it
            last synced, why it is offline) in
            $XDG_STATE_HOME/wonderland/running/sync-<pid>.json, so a machine whose
            app is connected is told so even when the server has no connection to
            spare for `status`.

            A missing folder is never created behind your back: the store is offline, its
            changes wait, and `wonderland cloud init` creates the folder.
            """,
        subcommands: [Status.self, List.self, Sync.self, Init.self, Check.self],
        defaultSubcommand: Status.self
    )

    struct Where {
        let place: CloudSyncPlace
        let defaults: DefaultsStore
        let dataFolder: URL

        static func current() -> Where {
            let environment = ProcessEnvironment.current()
            let defaults = DefaultsCommand.openStore()
            let dataFolder = LaunchOptions.standardDataFolder(environment: environment)
            let place = CloudSettings.place(store: defaults, environment: environment, dataFolder: dataFolder)
            return Where(place: place, defaults: defaults, dataFolder: dataFolder)
        }

        func openStore() -> UbiquitousKeyValueStore {
            let (store, warning) = CloudStoreFactory(replicas: .standard(dataFolder: dataFolder)).open(place, onNews: {})
            if let warning { printError(warning) }
            return store
        }

        /// What this store syncs through and where its password comes from, one line each.
        var lines: [String] {
            let savedPassword = (defaults.persistentDomain[CloudSettings.syncServerKey]).flatMap(DefaultsConversion.string)
                .map { URLPassword.isPresent(in: $0) } ?? false
            switch place.kind {
            case .folder(let folder):
                return ["Folder:   \(folder.path) (from \(place.source))"]
            case .server(let address, let lookup):
                var lines = ["Server:   \(address) (from \(place.source))",
                             "Password: " + (lookup.source.map { "from \($0)" } ?? "none found (PGPASSWORD, ~/.pgpass); the server may not need one")]
                if let warning = lookup.warning { lines.append("Warning:  \(warning)") }
                if savedPassword {
                    lines.append("Warning:  the Sync Server setting holds a password; the app removes it at its next start. \(CloudServerCredentials.advice)")
                }
                return lines
            case .unusableServer(let reason):
                return ["Server:   unusable: \(reason)"]
            }
        }

        /// To standard error, the password (should any text quote it) replaced by dots.
        func printError(_ message: String) {
            StandardStream.error.write(Data("wonderland cloud: \(place.redacting(message))\n".utf8))
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Folder or server, password source, device, keys, changes waiting, and whether it can be reached.")
        @Flag(help: "Do not sync first; show this machine's copy only.") var offline = false

        func run() throws {
            let place = Where.current()
            let store = place.openStore()
            let reached = offline ? nil : store.synchronize()
            let status = store.status
            let values = store.dictionaryRepresentation
            let toggles = CloudSettings.rules.map { rule -> String in
                let on = place.defaults.object(forKey: rule.enabledBy).flatMap(DefaultsConversion.bool) ?? false
                return "\(rule.enabledBy) \(on ? "on" : "off")"
            }
            for line in place.lines { print(place.place.redacting(line)) }
            print("Backend:  \(place.place.redacting(store.backendName))")
            print("Device:   \(store.device)")
            print("Toggles:  \(toggles.joined(separator: ", "))")
            let limits = KeyValueStoreLimits.apple
            print("Keys:     \(values.count) of \(limits.maximumKeyCount)")
            let enabled = CloudSettings.rules.filter { place.defaults.object(forKey: $0.enabledBy).flatMap(DefaultsConversion.bool) ?? false }
            for line in CloudStatusBoard.shareLines(EntryShareSummary.summaries(rules: enabled, defaults: Self.entriesKeptHere(place.defaults), store: store)) {
                print("          \(line)")
            }
            print("Waiting:  \(status.pendingChanges) change\(status.pendingChanges == 1 ? "" : "s") not yet sent")
            switch reached {
            case nil: print("Reached:  not tried (--offline)")
            case true?: print("Reached:  yes")
            case false?: print("Reached:  no: \(place.place.redacting(status.problem ?? "unknown reason"))")
            }
            let running = RunningSyncFiles.standard(environment: ProcessEnvironment.current())?.read() ?? []
            for line in Self.runningLines(running, reached: reached, problem: status.problem) { print(place.place.redacting(line)) }
            for line in Self.skippedLines(status) { print(place.place.redacting(line)) }
            for line in Self.refusedLines(status) { print(place.place.redacting(line)) }
            for warning in store.takeWarnings() { place.printError(warning) }
            if place.place.isServer, reached == false { throw ExitCode.failure }
        }

        /// What each running app on this machine knows of its sync, one line each; then, when
        /// this command found the server full while an app here is connected to it, that said
        /// plainly: the server is up, and this look only found no connection to spare.
        static func runningLines(_ running: [RunningSyncState], reached: Bool?, problem: String?,
                                 now: Double = Date().timeIntervalSince1970) -> [String] {
            var lines = running.map { $0.line(now: now, sanitize: SafeText.visible) }
            if reached == false, problem?.hasPrefix("the server is full") == true,
               let connected = running.first(where: { $0.isServer && $0.reached == true }) {
                lines.append("Note:     the server has no connection to spare for this look, but the running app (pid \(connected.pid)) is connected and syncing")
            }
            return lines
        }

        /// The per-entry rules' dictionaries as this machine keeps them: from the collections
        /// database the app moves them into, else (before the app first ran) from the defaults
        /// file. Read only: the app, not a look at the status, moves them.
        static func entriesKeptHere(_ defaults: DefaultsStore) -> PreferenceStore {
            let database = try? CollectionsCommand.openDatabase()
            var values: [String: PropertyListValue] = [:]
            for rule in CloudSettings.rules where rule.share != nil {
                let key = rule.localKey
                if let entries = try? database?.entries(in: key), !entries.isEmpty {
                    values[key] = .dictionary(entries)
                } else if let saved = defaults.persistentDomain[key] {
                    values[key] = saved
                }
            }
            return InMemoryPreferenceStore(values: values)
        }

        /// The changes from elsewhere that were not applied, and the files not read: a count,
        /// then each named (the newest few), one line each.
        static func skippedLines(_ status: KeyValueStoreStatus) -> [String] {
            var lines: [String] = []
            if status.skippedChanges > 0 {
                lines.append("Skipped:  \(status.skippedChanges) change\(status.skippedChanges == 1 ? "" : "s") from elsewhere not applied")
                lines += status.lastSkipped.map { "  skipped \($0)" }
            }
            lines += status.readProblems.map { "Unread:   \($0)" }
            return lines
        }

        /// This machine's keys the store or the server refused for a limit, kept here only.
        static func refusedLines(_ status: KeyValueStoreStatus) -> [String] {
            guard status.refusedKeys > 0 else { return [] }
            let count = status.refusedKeys
            return ["Refused:  \(count) key\(count == 1 ? "" : "s") of this machine not synced (over a limit); the values stay here"]
                + status.lastRefused.map { "  refused \($0)" }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Every key and value in the synced store.")
        @Flag(help: "Do not sync first; show this machine's copy only.") var offline = false

        func run() throws {
            let place = Where.current()
            let store = place.openStore()
            let reached = offline ? nil : store.synchronize()
            let values = store.dictionaryRepresentation
            for key in values.keys.sorted() { print("\(key) = \(StateSummaryPrinter.describe(values[key]!, limit: 200))") }
            let skipped = store.status.skippedChanges
            if skipped > 0 { place.printError("\(skipped) change\(skipped == 1 ? "" : "s") from elsewhere not applied; `wonderland cloud status` names them.") }
            if place.place.isServer, reached == false {
                place.printError("could not reach the server: \(store.status.problem ?? "unknown reason"); the keys above are this machine's copy.")
                throw ExitCode.failure
            }
        }
    }

    struct Sync: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Send what is queued and fetch other devices' changes now; fails when the folder cannot be reached.")

        func run() throws {
            let place = Where.current()
            let store = place.openStore()
            let before = store.status.pendingChanges
            if store.synchronize() {
                print(place.place.redacting("Synced with \(store.backendName): sent \(before - store.status.pendingChanges), \(store.dictionaryRepresentation.count) keys."))
            } else {
                place.printError("could not sync: \(store.status.problem ?? "unknown reason"); \(store.status.pendingChanges) changes wait.")
                throw ExitCode.failure
            }
        }
    }
}
