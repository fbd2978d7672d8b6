import ArgumentParser
import FileSafety
import FoundationEssentials
import TextSafety
import WonderlandApp

/// `wonderland state clean`: frees what can go — the caches, files moved aside past their
/// keeping, the sync copies of backends no longer used — and nothing the user made.
struct StateCleanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clean",
        abstract: "Remove the caches, old files moved aside and unused sync copies; never settings, collections, the saved place or the current sync copy.",
        discussion: """
            What goes is what `wonderland state usage` counts as freeable: the book indexes \
            and the map cache, files moved aside more than 30 days ago beyond the newest three \
            of each, and the synced store's copies of folders or servers unused for 90 days. \
            A copy another instance is using is left. Exits 1 when a file could not be removed.
            """
    )

    @Flag(help: "Show what would be removed, and remove nothing.")
    var dryRun = false

    func run() throws {
        let usage = StateUsage.current()
        if dryRun {
            let removable = usage.entries().flatMap(\.removable)
            guard !removable.isEmpty else { return print("Nothing to remove.") }
            print("Would remove \(Self.count(removable.count)), freeing \(ByteCountText.describe(removable.reduce(0) { $0 + $1.size })):")
            for file in removable { print(Self.line(file)) }
            return
        }
        let cleaning = usage.clean()
        if cleaning.removed.isEmpty, cleaning.kept.isEmpty { return print("Nothing to remove.") }
        if !cleaning.removed.isEmpty {
            print("Removed \(Self.count(cleaning.removed.count)), freeing \(ByteCountText.describe(cleaning.freedBytes)):")
            for file in cleaning.removed { print(Self.line(file)) }
        }
        guard cleaning.kept.isEmpty else {
            for (file, why) in cleaning.kept {
                StandardStream.error.write(Data("wonderland: could not remove \(SafeText.visible(file.path)): \(why)\n".utf8))
            }
            throw ExitCode.failure
        }
    }

    private static func count(_ files: Int) -> String { files == 1 ? "1 file" : "\(files) files" }

    private static func line(_ file: SavedDataUsage.Removable) -> String {
        SafeText.visible("  \(file.kind.rawValue): \(file.path) (\(ByteCountText.describe(file.size)), \(file.why))")
    }
}
