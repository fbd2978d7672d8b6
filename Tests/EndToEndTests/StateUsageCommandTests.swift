import Foundation
import Testing

/// `wonderland state usage` and `state clean` on a HOME seeded as ten years of use leave it:
/// old files moved aside, caches, a copy for a sync folder long gone. What the user made
/// stays; what may go is shown, then removed.
@Suite("State usage and clean", .whenEndToEndIsAskedFor)
struct StateUsageCommandTests {
    final class SeededHome {
        let home: HomeFolder
        var root: URL { home.url }
        /// The current sync folder: outside HOME, so its copy's name is "folder /…".
        let syncFolder = "/nonexistent-wl-sync-\(getpid())"

        init() throws {
            home = try HomeFolder()
            try write(".config/wonderland/defaults.plist", Data(Self.emptyPlist.utf8))
            for day in 1 ... 5 { try write(".config/wonderland/defaults.plist.corrupt-2020010\(day)T000000Z", bytes: 10) }
            try write(".config/wonderland/defaults.plist.corrupt-\(Self.stamp(Date().addingTimeInterval(-86_400)))", bytes: 10)
            try write(".local/state/wonderland/restoration.archive", bytes: 3000)
            try write(".local/state/wonderland/restoration.log", bytes: 200)
            try write(".local/state/wonderland/book-index/803-1a.bookindex", bytes: 1000)
            try write(".local/state/wonderland/book-index/notes.txt", bytes: 7)
            try write(".cache/wonderland/map/ne_50m.mapindex", bytes: 5000)
            try write(".local/share/wonderland/collections/collections.sqlite", bytes: 8192)
            try write(".local/share/wonderland/collections/collections.sqlite-wal", bytes: 4096)
            try write(store(current), bytes: 185_000, modified: Date(timeIntervalSince1970: 1_577_836_800))
            try write(store(Self.copyName("folder /mnt/old")), bytes: 185_000, modified: Date(timeIntervalSince1970: 1_577_836_800))
            try write(store(Self.copyName("folder /mnt/old") + ".lock"), bytes: 0)
            try write(store(Self.copyName("folder /mnt/recent")), bytes: 1000)
        }

        var current: String { Self.copyName("folder \(syncFolder)") }
        func store(_ name: String) -> String { ".local/share/wonderland/synced-store/\(name)" }
        func exists(_ path: String) -> Bool {
            var status = stat()
            return lstat(root.appendingPathComponent(path).path, &status) == 0
        }

        func write(_ path: String, _ data: Data? = nil, bytes: Int = 0, modified: Date? = nil) throws {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try (data ?? Data(repeating: 0x2A, count: bytes)).write(to: url)
            if let modified { try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: url.path) }
        }

        func wonderland(_ arguments: [String]) throws -> (status: Int32, output: String) {
            try Subprocess.run(["/usr/bin/env", "-i", "PATH=/usr/bin:/bin", "HOME=\(root.path)", "LANG=C.UTF-8",
                                "WONDERLAND_SYNC_FOLDER=\(syncFolder)", try TmuxSession.locateBinary()] + arguments)
        }

        static let emptyPlist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict/></plist>
            """

        /// As AtomicFile.moveAside stamps a name.
        static func stamp(_ date: Date) -> String {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
            return formatter.string(from: date)
        }

        /// The name the app gives a backend's copy (LocalReplicaFolder.fileName): a slug and
        /// the FNV-1a hash of the whole name.
        static func copyName(_ backend: String) -> String {
            var slug = ""
            for scalar in backend.lowercased().unicodeScalars {
                if (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9") {
                    slug.unicodeScalars.append(scalar)
                } else if !slug.isEmpty, !slug.hasSuffix("-") {
                    slug += "-"
                }
            }
            while slug.hasSuffix("-") { slug.removeLast() }
            var hash: UInt32 = 2_166_136_261
            for byte in backend.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
            return String(slug.prefix(48)) + "-" + String(format: "%08x", hash) + ".plist"
        }
    }

    /// The book index (1000), the map cache (5000), the old copy (185,000) and the three
    /// oldest of the six settings files moved aside (10 each): 191,030 bytes.
    static let freeable = "186.5 KB"

    @Test("usage: every kind with its size; what clean would free")
    func usage() throws {
        let home = try SeededHome()
        let result = try home.wonderland(["state", "usage"])
        #expect(result.status == 0, "\(result.output)")
        let lines = result.output.split(separator: "\n").map(String.init)
        for kind in ["settings", "collections", "saved place", "book indexes", "map cache", "sync copies", "moved aside", "total"] {
            #expect(lines.contains { $0.hasPrefix(kind + " ") }, "no line for \(kind): \(result.output)")
        }
        #expect(lines.contains { $0.hasPrefix("collections") && $0.contains("12 KB") && $0.contains("2 files") }, "\(result.output)")
        #expect(lines.contains { $0.hasPrefix("saved place") && $0.contains("3.1 KB") && $0.contains("2 files") }, "\(result.output)")
        #expect(lines.contains { $0.hasPrefix("moved aside") && $0.contains("60 bytes") && $0.contains("6 files") }, "\(result.output)")
        #expect(lines.contains { $0.hasPrefix("sync copies") && $0.contains("362.3 KB") && $0.contains("3 files") }, "\(result.output)")
        #expect(result.output.contains("`wonderland state clean` would free \(Self.freeable)"), "\(result.output)")
    }

    @Test("clean --dry-run lists what would go and removes nothing; clean removes it and nothing the user made")
    func clean() throws {
        let home = try SeededHome()
        let dryRun = try home.wonderland(["state", "clean", "--dry-run"])
        #expect(dryRun.status == 0, "\(dryRun.output)")
        #expect(dryRun.output.hasPrefix("Would remove 6 files, freeing \(Self.freeable):"), "\(dryRun.output)")
        let going = [".local/state/wonderland/book-index/803-1a.bookindex", ".cache/wonderland/map/ne_50m.mapindex",
                     home.store(SeededHome.copyName("folder /mnt/old"))] + (1 ... 3).map { ".config/wonderland/defaults.plist.corrupt-2020010\($0)T000000Z" }
        for path in going {
            #expect(dryRun.output.contains(home.root.appendingPathComponent(path).path), "\(path) not listed: \(dryRun.output)")
            #expect(home.exists(path), "a dry run removed \(path)")
        }

        let cleaned = try home.wonderland(["state", "clean"])
        #expect(cleaned.status == 0, "\(cleaned.output)")
        #expect(cleaned.output.hasPrefix("Removed 6 files, freeing \(Self.freeable):"), "\(cleaned.output)")
        for path in going { #expect(!home.exists(path), "\(path) was kept") }
        #expect(!home.exists(home.store(SeededHome.copyName("folder /mnt/old") + ".lock")))
        let kept = [".config/wonderland/defaults.plist", ".local/state/wonderland/restoration.archive", ".local/state/wonderland/restoration.log",
                    ".local/share/wonderland/collections/collections.sqlite", ".local/share/wonderland/collections/collections.sqlite-wal",
                    ".local/state/wonderland/book-index/notes.txt", home.store(home.current), home.store(SeededHome.copyName("folder /mnt/recent"))]
            + (4 ... 5).map { ".config/wonderland/defaults.plist.corrupt-2020010\($0)T000000Z" }
        for path in kept { #expect(home.exists(path), "\(path) was removed") }

        let again = try home.wonderland(["state", "clean"])
        #expect(again.status == 0 && again.output == "Nothing to remove.\n", "\(again.output)")
        let usage = try home.wonderland(["state", "usage"])
        #expect(usage.output.contains("Nothing to clean."), "\(usage.output)")
    }
}
