import ArgumentParser
import Cloud
import Defaults
import Foundation
import WonderlandApp

/// `wonderland cloud`: the synced store as this machine sees it — where it syncs, what it
/// holds, what waits to be sent — and a sync on demand. For users wondering why a pin did not
/// arrive, and for end-to-end tests.
struct CloudCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cloud",
        abstract: "Show the synced store (folder, device, keys, what waits to be sent) or sync it now.",
        discussion: """
            The sync folder is WONDERLAND_SYNC_FOLDER, else the Sync Folder setting, else
            $XDG_DATA_HOME/wonderland/cloud. Each command first syncs once (sending what is
            queued), unless --offline is given.
            """,
        subcommands: [Status.self, List.self, Sync.self],
        defaultSubcommand: Status.self
    )

    struct Where {
        let folder: URL
        let source: String
        let defaults: DefaultsStore
        let dataFolder: URL

        static func current() -> Where {
            let environment = ProcessEnvironment.current()
            let defaults = DefaultsCommand.openStore()
            let dataFolder = LaunchOptions.standardDataFolder(environment: environment)
            let folder = CloudSettings.folder(store: defaults, environment: environment, dataFolder: dataFolder)
            let source: String
            if !(environment[CloudSettings.folderEnvironmentKey] ?? "").trimmingCharacters(in: .whitespaces).isEmpty {
                source = CloudSettings.folderEnvironmentKey
            } else if folder != dataFolder.appendingPathComponent("cloud") {
                source = "the Sync Folder setting"
            } else {
                source = "the default"
            }
            return Where(folder: folder, source: source, defaults: defaults, dataFolder: dataFolder)
        }

        func openStore() -> UbiquitousKeyValueStore {
            let (store, warning) = CloudStoreFactory(replicas: .standard(dataFolder: dataFolder)).open(folder: folder, onNews: {})
            if let warning { FileHandle.standardError.write(Data("wonderland cloud: \(warning)\n".utf8)) }
            return store
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Folder, device, keys, changes waiting, and whether the folder can be reached.")
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
            print("Folder:   \(place.folder.path) (from \(place.source))")
            print("Backend:  \(store.backendName)")
            print("Device:   \(store.device)")
            print("Toggles:  \(toggles.joined(separator: ", "))")
            print("Keys:     \(values.count)")
            print("Waiting:  \(status.pendingChanges) change\(status.pendingChanges == 1 ? "" : "s") not yet sent")
            switch reached {
            case nil: print("Reached:  not tried (--offline)")
            case true?: print("Reached:  yes")
            case false?: print("Reached:  no: \(status.problem ?? "unknown reason")")
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Every key and value in the synced store.")
        @Flag(help: "Do not sync first; show this machine's copy only.") var offline = false

        func run() throws {
            let store = Where.current().openStore()
            if !offline { store.synchronize() }
            let values = store.dictionaryRepresentation
            for key in values.keys.sorted() { print("\(key) = \(StateSummaryPrinter.describe(values[key]!, limit: 200))") }
        }
    }

    struct Sync: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Send what is queued and fetch other devices' changes now; fails when the folder cannot be reached.")

        func run() throws {
            let store = Where.current().openStore()
            let before = store.status.pendingChanges
            if store.synchronize() {
                print("Synced with \(store.backendName): sent \(before - store.status.pendingChanges), \(store.dictionaryRepresentation.count) keys.")
            } else {
                FileHandle.standardError.write(Data("wonderland cloud: could not sync: \(store.status.problem ?? "unknown reason"); \(store.status.pendingChanges) changes wait.\n".utf8))
                throw ExitCode.failure
            }
        }
    }
}
