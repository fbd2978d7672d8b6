import ArgumentParser
import FileSafety
import FoundationEssentials
import Platform
import TextSafety
import WonderlandApp

/// `wonderland state usage`: what each kind of saved data takes on disk, and what
/// `state clean` would free.
struct StateUsageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "usage",
        abstract: "Show what each kind of saved data takes on disk, and what `wonderland state clean` would free.",
        discussion: """
            Sizes are the files' lengths (links are not followed). Settings, collections and \
            the saved place are yours and are never cleaned; the book indexes and the map \
            cache are made again when needed; files moved aside because they could not be \
            read are kept for 30 days and the newest three of each; the synced store's copy \
            of a folder or server not used for 90 days, other than the current one, may go.
            """
    )

    func run() throws {
        let usage = StateUsage.current()
        let entries = usage.entries()
        for line in StateUsage.table(entries) { print(SafeText.visible(line)) }
        let removable = entries.flatMap(\.removable)
        if removable.isEmpty {
            print("Nothing to clean.")
        } else {
            let freed = ByteCountText.describe(removable.reduce(0) { $0 + $1.size })
            print("`wonderland state clean` would free \(freed): \(StateUsage.summary(of: entries)).")
        }
    }
}

/// What the `state` commands on saved data share: the places from this environment, and
/// their words.
enum StateUsage {
    static func current() -> SavedDataUsage {
        let environment = ProcessEnvironment.current()
        return SavedDataUsage(places: SavedDataPlaces(environment: environment),
                              currentBackend: CloudCommand.Where.current().place.replicaBackendName)
    }

    /// One line per kind, then the total: kind, size, how many files, where.
    static func table(_ entries: [SavedDataUsage.Entry]) -> [String] {
        let width = entries.map(\.kind.rawValue.count).max() ?? 0
        func padded(_ text: String, _ count: Int) -> String { text + String(repeating: " ", count: max(0, count - text.count)) }
        var lines = entries.map { entry in
            let files = entry.files == 1 ? "1 file" : "\(entry.files) files"
            let location = entry.kind == .movedAside ? "beside the files above" : entry.location
            return "\(padded(entry.kind.rawValue, width))  \(padded(ByteCountText.describe(entry.bytes), 10))  \(padded(files, 9))  \(location)"
        }
        lines.append("\(padded("total", width))  \(ByteCountText.describe(entries.reduce(0) { $0 + $1.bytes }))")
        return lines
    }

    /// "the map cache (2 files), 9 files moved aside, 1 unused sync copy".
    static func summary(of entries: [SavedDataUsage.Entry]) -> String {
        entries.filter { !$0.removable.isEmpty }.map { entry in
            let count = entry.removable.count
            switch entry.kind {
            case .movedAside: return count == 1 ? "1 file moved aside" : "\(count) files moved aside"
            case .syncCopies: return count == 1 ? "1 unused sync copy" : "\(count) unused sync copies"
            default: return "the \(entry.kind.rawValue) (\(count == 1 ? "1 file" : "\(count) files"))"
            }
        }.joined(separator: ", ")
    }
}
