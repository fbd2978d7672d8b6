import ArgumentParser
import Defaults
import FileSafety
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import PropertyList
import Settings
import TextSafety
import WonderlandApp

/// `wonderland defaults`: read and write the app's defaults from the shell, like macOS
/// `defaults` on the domain `wonderland`. It goes through `DefaultsStore`, so it merges under the
/// lock with running instances, and they see its writes live.
struct DefaultsCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        commandName: "defaults",
        abstract: "Read and write wonderland's defaults, like macOS defaults.",
        discussion: """
            The file is $XDG_CONFIG_HOME/wonderland/defaults.plist (default ~/.config/wonderland/).
            Running instances of wonderland notice changes made here at once.
            """,
        subcommands: [Read.self, ReadType.self, Write.self, Delete.self, Export.self, Import.self]
    )

    static let domainName = "wonderland"

    struct Read: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print every saved default, or the value of KEY."
        )

        @Argument(help: "The key to print; all of them when left out.")
        var key: String?

        @Flag(help: "Show data values that hold keyed archives (such as WLBookmarks' entries) as their object trees.")
        var decode = false

        func run() throws {
            let store = DefaultsCommand.openStore()
            if let key {
                let value = try DefaultsCommand.savedValue(store, key)
                print(OldStylePlist.topLevelText(DefaultsCommand.shown(key, value), decodingArchives: decode))
            } else {
                guard !store.persistentDomain.isEmpty else { throw DefaultsCommand.fail("Domain \(domainName) does not exist") }
                // The collections' copies for older versions are the collections', not settings.
                let copies = DefaultsStore.copiesForOlderReleases(in: store.persistentDomain)
                let shown = DefaultsCommand.shownDomain(store).filter { !copies.contains($0.key) }
                print(OldStylePlist.text(.dictionary(shown), decodingArchives: decode))
                if !copies.isEmpty {
                    StandardStream.error.write(Data("(\(copies.filter { !$0.hasPrefix(DefaultsStore.copyMarksPrefix) }.sorted().joined(separator: ", ")): copies kept for older versions, left out; `wonderland collections list` shows the collections, `defaults read KEY` a copy)\n".utf8))
                }
            }
        }
    }

    struct ReadType: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "read-type", abstract: "Print the type of KEY's value.")

        @Argument(help: "The key.")
        var key: String

        func run() throws {
            let store = DefaultsCommand.openStore()
            print("Type is \(OldStylePlist.typeName(try DefaultsCommand.savedValue(store, key)))")
        }
    }

    struct Write: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set KEY to a value.",
            discussion: """
                wonderland defaults write KEY VALUE                 a string
                wonderland defaults write KEY -string|-int|-float|-bool|-date|-data VALUE
                wonderland defaults write KEY -array VALUE…         (-array-add appends)
                wonderland defaults write KEY -dict K V [K V …]     (-dict-add merges)
                Array items and dictionary values may carry their own type flag.
                -bool takes YES, NO, true, false, 1 or 0; -data takes hex; -date takes
                2026-11-22T19:30:00Z or "2026-11-22 19:30:00 +0000". Put -- before a value
                that starts with a dash, or give it after a type flag: -int -5.
                """
        )

        @Argument(parsing: .captureForPassthrough, help: "KEY, then the value as above.")
        var arguments: [String] = []

        func run() throws {
            if arguments.first == "--help" || arguments.first == "-h" { throw CleanExit.helpRequest(self) }
            guard let key = arguments.first, arguments.count >= 2 else {
                throw UsageProblem(message: "defaults write needs a key and a value: wonderland defaults write KEY [-type] VALUE")
            }
            let store = DefaultsCommand.openStore()
            let value: PropertyListValue
            do {
                value = try DefaultsValueParser.parse(Array(arguments.dropFirst()), existing: store.persistentDomain[key])
            } catch let error as DefaultsValueParser.Failure {
                // A value of the wrong form is the command line's fault: a usage error.
                throw UsageProblem(message: "defaults write: " + error.message)
            }
            if let refusal = DefaultsCommand.refusal(forKey: key, value: value) { throw DefaultsCommand.fail(refusal) }
            store.set(value, forKey: key)
            try DefaultsCommand.save(store)
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove KEY, or every saved default.")

        @Argument(help: "The key to remove; all of them when left out.")
        var key: String?

        func run() throws {
            let store = DefaultsCommand.openStore()
            if let key {
                _ = try DefaultsCommand.savedValue(store, key)
                store.removeObject(forKey: key)
            } else {
                guard !store.persistentDomain.isEmpty else {
                    throw DefaultsCommand.fail("Domain (\(domainName)) not found.\nDefaults have not been changed.")
                }
                store.setPersistentDomain([:])
            }
            try DefaultsCommand.save(store)
        }
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Write every saved default to FILE (- for stdout) as an XML plist.")

        @Argument(help: "Where to write; - for stdout.")
        var file: String

        func run() throws {
            let store = DefaultsCommand.openStore()
            let data = try PropertyListSerializer.data(from: .dictionary(DefaultsCommand.shownDomain(store)), format: .xml)
            if file == "-" {
                StandardStream.output.write(data)
            } else {
                do {
                    try AtomicFile.write(data, to: URL(fileURLWithPath: file), permissions: 0o666, makingFolder: false)
                } catch let failure as AtomicFile.Failure {
                    throw DefaultsCommand.fail("cannot write \(file): \(CommandErrorText.sentence(writingFailedWith: failure.code))")
                }
            }
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replace every saved default with FILE's (- for stdin), an XML or binary plist dictionary."
        )

        @Argument(help: "The property list to read; - for stdin.")
        var file: String

        func run() throws {
            let data: Data
            do {
                data = file == "-"
                    ? try BoundedFile.readAll(descriptor: STDIN_FILENO, path: "stdin", limit: .defaults)
                    : try BoundedFile.read(path: file, limit: .defaults)
            } catch {
                throw DefaultsCommand.fail("cannot read \(file == "-" ? "stdin" : file): \(error.predicate)")
            }
            let value: PropertyListValue
            do { value = try PropertyListReader.value(from: data, limits: .defaults) } catch {
                throw DefaultsCommand.fail("\(file) is not a property list: \(error)")
            }
            guard case .dictionary(let values) = value else {
                throw DefaultsCommand.fail("\(file) does not hold a dictionary")
            }
            let refusals = values.keys.sorted().compactMap { DefaultsCommand.refusal(forKey: $0, value: values[$0]!) }
            guard refusals.isEmpty else {
                throw DefaultsCommand.fail("Nothing was imported from \(file): " + refusals.joined(separator: " "))
            }
            let store = DefaultsCommand.openStore()
            store.setPersistentDomain(values)
            try DefaultsCommand.save(store)
        }
    }

    // MARK: Shared

    /// The standard store, without watching; any start-up warning goes to stderr.
    static func openStore() -> DefaultsStore {
        let store = DefaultsStore.standard(
            environment: ProcessInfo.processInfo.environment, options: .init(watchesForChanges: false)
        )
        for warning in store.takeStartupWarnings() {
            StandardStream.error.write(Data("wonderland defaults: \(warning)\n".utf8))
        }
        return store
    }

    static func savedValue(_ store: DefaultsStore, _ key: String) throws -> PropertyListValue {
        guard let value = store.persistentDomain[key] else {
            throw fail("The domain/default pair of (\(domainName), \(key)) does not exist")
        }
        return value
    }

    /// Why `value` may not be saved under `key`: a Sync Server address holding a password, text
    /// of the wrong form for a setting that has one (the settings screens' rules, both), or a
    /// value the settings file cannot hold.
    static func refusal(forKey key: String, value: PropertyListValue) -> String? {
        CloudServerSettingGuard.refusal(forKey: key, value: value)
            ?? SettingFormats.wonderland.refusal(forKey: key, value: value).map(SafeText.visible)
            ?? DefaultsStorability.refusal(forKey: key, value: value)
    }

    /// `value` as it may be printed: a password another tool saved in the Sync Server address
    /// is left out, and stderr says so.
    static func shown(_ key: String, _ value: PropertyListValue) -> PropertyListValue {
        let redacted = CloudServerSettingGuard.redacted(forKey: key, value: value) ?? value
        if redacted != value {
            StandardStream.error.write(Data(("wonderland defaults: \(key) holds a password, which is not shown; "
                + "the app removes it from the settings file at its next start. \(CloudServerCredentials.advice)\n").utf8))
        }
        return redacted
    }

    /// The saved domain as it may be printed or exported (see `shown`).
    static func shownDomain(_ store: DefaultsStore) -> [String: PropertyListValue] {
        store.persistentDomain.reduce(into: [:]) { shown, entry in shown[entry.key] = self.shown(entry.key, entry.value) }
    }

    static func save(_ store: DefaultsStore) throws {
        do { try store.flush() } catch {
            throw fail("cannot save: \(error)")
        }
    }

    /// Prints `message` to stderr; the returned error exits with status 1.
    static func fail(_ message: String) -> ExitCode {
        StandardStream.error.write(Data("\(message)\n".utf8))
        return ExitCode.failure
    }
}
