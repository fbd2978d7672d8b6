import ArgumentParser
import Defaults
import FileSafety
import FoundationEssentials
import Platform
import PropertyList
import SavedCollections
import WonderlandApp
#if canImport(Glibc)
import Glibc
#endif

/// `wonderland collections`: what the app keeps that grows with use — notes, bookmarks,
/// reading places, favourites — listed and exported, as `defaults` does for settings. It reads
/// the database as running instances write it, and never changes it.
struct CollectionsCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        commandName: "collections",
        abstract: "List and export the notes, bookmarks, reading places and favourites wonderland keeps.",
        discussion: """
            They are kept in $XDG_DATA_HOME/wonderland/collections/collections.sqlite (default \
            ~/.local/share/wonderland/collections/), one row per entry, apart from the settings. \
            A book's bookmark list is an NSKeyedArchiver archive: export it with --entry and \
            `wonderland plist print` shows its object tree.
            """,
        subcommands: [List.self, Export.self]
    )

    /// What each collection the app keeps holds, for `list`.
    static let descriptions: [String: String] = [
        "WLCharacterNotes": "notes on characters",
        "WLBookmarks": "bookmark lists, one per book",
        "WLReadingPositions": "reading places, one per book",
        "WLFavouriteCharacters": "starred characters",
    ]

    static func openDatabase() throws -> CollectionDatabase? {
        let path = DefaultsStore.standardCollectionsPath(environment: ProcessEnvironment.current())
        guard access(path, F_OK) == 0 else { return nil }
        do { return try CollectionDatabase(path: path, readOnly: true) } catch {
            throw DefaultsCommand.fail("wonderland collections: \(error)")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print each collection: its name, its entries and the bytes they take.")

        func run() throws {
            guard let database = try CollectionsCommand.openDatabase() else {
                print("No collections yet (\(DefaultsStore.standardCollectionsPath(environment: ProcessEnvironment.current())) does not exist).")
                return
            }
            let summaries = try database.summaries()
            guard !summaries.isEmpty else { return print("No collections yet.") }
            for summary in summaries {
                let what = CollectionsCommand.descriptions[summary.collection].map { "  (\($0))" } ?? ""
                print("\(summary.collection): \(summary.entries) \(summary.entries == 1 ? "entry" : "entries"), \(ByteCountText.describe(summary.bytes))\(what)")
            }
            // Versions are text another program may have written: shown only as a version looks.
            let writers = ((try? database.writers()) ?? []).filter { $0.version.utf8.count <= 32 && $0.version.allSatisfy { $0.isLetter || $0.isNumber || ".-+".contains($0) } }
            if !writers.isEmpty {
                print("Saved by: " + writers.map { "wonderland \($0.version) (last \(CommandDateText.utc($0.last)))" }.joined(separator: ", "))
            }
        }
    }

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case xml, binary, json
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Write one collection, a dictionary of its entries, to FILE (- for stdout).")

        @Argument(help: "The collection, as `list` names it (e.g. WLCharacterNotes).")
        var collection: String

        @Argument(help: "Where to write; - for stdout.")
        var file: String = "-"

        @Option(help: "xml or binary (property lists), or json (data as base64, dates as ISO 8601 text).")
        var format: Format = .xml

        @Option(help: "One entry alone (a book's content hash, a character's id); an entry that is data (a bookmark list's keyed archive) is written as it is kept.")
        var entry: String?

        func run() throws {
            let database = try CollectionsCommand.openDatabase()
            let value: PropertyListValue
            if let entry {
                guard let found = try database?.entry(entry, in: collection) else {
                    throw DefaultsCommand.fail("\(collection) has no entry \(entry)")
                }
                if case .data(let bytes) = found { return try write(bytes) }
                value = found
            } else {
                value = .dictionary(try database.map { try $0.entries(in: collection) } ?? [:])
            }
            let data: Data
            switch format {
            case .xml: data = try PropertyListSerializer.data(from: value, format: .xml)
            case .binary: data = try PropertyListSerializer.data(from: value, format: .binary)
            case .json: data = JSONText.data(value)
            }
            try write(data)
        }

        private func write(_ data: Data) throws {
            if file == "-" {
                StandardStream.output.write(data)
                return
            }
            do {
                try AtomicFile.write(data, to: URL(fileURLWithPath: file), permissions: 0o666, makingFolder: false)
            } catch let failure as AtomicFile.Failure {
                throw DefaultsCommand.fail("cannot write \(file): \(CommandErrorText.sentence(writingFailedWith: failure.code))")
            }
        }
    }
}
