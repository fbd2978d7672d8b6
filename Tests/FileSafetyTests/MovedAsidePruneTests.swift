import FileSafety
import Foundation
import Testing

@Suite("Files moved aside: names and the keep rule")
struct MovedAsidePruneTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15T08:00:00Z
    static let day: TimeInterval = 86_400

    final class Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("wl-prune-\(UUID().uuidString)")
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: url) }
        var names: Set<String> { Set((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []) }

        /// A copy of `original` as moveAside names it `daysAgo` days before `now`.
        @discardableResult
        func aside(_ original: String, daysAgo: Double, label: String = "corrupt") throws -> String {
            let source = url.appendingPathComponent(original)
            try Data("damaged".utf8).write(to: source)
            return try AtomicFile.moveAside(source, label: label, now: MovedAsidePruneTests.now.addingTimeInterval(-daysAgo * MovedAsidePruneTests.day)).lastPathComponent
        }
    }

    @Test("only names moveAside makes, with the app's labels, are read as moved aside", arguments: [
        ("defaults.plist.corrupt-20270115T080000Z", true),
        ("restoration.archive.newer-20270115T080000Z-2", true),
        ("device-id.damaged-20270115T080000Z-1000", true),
        ("803-1a.bookindex.corrupt-100000101T000000Z", true),
        ("defaults.plist", false),
        ("defaults.plist.corrupt-2027", false),
        ("defaults.plist.backup-20270115T080000Z", false),
        ("defaults.plist.corrupt-20271315T080000Z", false),
        ("defaults.plist.corrupt-20270115T250000Z", false),
        ("defaults.plist.corrupt-20270115T080000Z-1", false),
        ("defaults.plist.corrupt-20270115T080000Z-02", false),
        ("defaults.plist.corrupt-20270115T080000Z-1001", false),
        ("defaults.plist.corrupt-20270115T080000Z.txt", false),
        ("defaults.plist.corrupt-20270115T080000Zx", false),
        ("defaults.plist.corrupt-20270115 080000Z", false),
        ("defaults.plist.CORRUPT-20270115T080000Z", false),
        (".corrupt-20270115T080000Z", false),
        ("corrupt-20270115T080000Z", false),
    ])
    func names(_ name: String, _ isMovedAside: Bool) {
        #expect((MovedAside.Name(name) != nil) == isMovedAside, "\(name)")
    }

    @Test("a name gives back the original, the label and the moment")
    func nameParts() throws {
        let name = try #require(MovedAside.Name("restoration.archive.newer-20270115T080000Z-3"))
        #expect(name.original == "restoration.archive")
        #expect(name.label == "newer")
        #expect(name.moved == Self.now)
        #expect(name.sequence == 3)
    }

    @Test("the newest three of each file are kept whatever their age; older ones past 30 days go")
    func newestKept() throws {
        let folder = try Folder()
        var old: [String] = []
        for daysAgo in [400.0, 300, 200, 100, 90, 60] { old.append(try folder.aside("defaults.plist", daysAgo: daysAgo)) }
        let other = try folder.aside("restoration.archive", daysAgo: 500)
        // moveAside pruned as it went: each new copy let the oldest past three go.
        #expect(folder.names == Set(old.suffix(3) + [other]))
        let removed = MovedAside.prune(inFolder: folder.url.path, now: Self.now)
        #expect(removed.isEmpty)
    }

    @Test("anything moved aside in the last 30 days is kept, however many")
    func youngKept() throws {
        let folder = try Folder()
        var names: [String] = []
        for daysAgo in [29.0, 20, 10, 5, 1, 0] { names.append(try folder.aside("defaults.plist", daysAgo: daysAgo)) }
        #expect(folder.names == Set(names))
        let removed = MovedAside.prune(inFolder: folder.url.path, now: Self.now.addingTimeInterval(25 * Self.day))
        // 25 days on, the three moved 29, 20 and 10 days before are past the month and not among the newest.
        #expect(Set(removed.map { $0.path.split(separator: "/").last.map(String.init) ?? "" }) == Set(names.prefix(3)))
        #expect(folder.names == Set(names.suffix(3)))
    }

    @Test("files of other names beside them are never removed")
    func strictNames() throws {
        let folder = try Folder()
        let strangers = ["defaults.plist", "defaults.plist.corrupt-2019", "notes.backup-20200101T000000Z",
                         "defaults.plist.corrupt-20200101T000000Z.keep", ".defaults.plist.tmp-1-2", "defaults.plist.corrupt-20200101T000000Z-1"]
        for name in strangers { try Data("mine".utf8).write(to: folder.url.appendingPathComponent(name)) }
        for daysAgo in [900.0, 800, 700, 600, 500] { try folder.aside("restoration.archive", daysAgo: daysAgo) }
        MovedAside.prune(inFolder: folder.url.path, now: Self.now)
        #expect(folder.names.isSuperset(of: strangers))
        #expect(folder.names.subtracting(strangers).count == 3)
    }

    @Test("links are removed as themselves, never followed; folders under such names stay")
    func linksAndFolders() throws {
        let folder = try Folder()
        let outside = try Folder()
        let target = outside.url.appendingPathComponent("precious")
        try Data("keep me".utf8).write(to: target)
        let targetFolder = outside.url.appendingPathComponent("folder")
        try FileManager.default.createDirectory(at: targetFolder, withIntermediateDirectories: true)
        try Data("keep me too".utf8).write(to: targetFolder.appendingPathComponent("inside"))
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: folder.url.appendingPathComponent("a.corrupt-20200101T000000Z").path, withDestinationPath: target.path)
        try fm.createSymbolicLink(atPath: folder.url.appendingPathComponent("a.corrupt-20200102T000000Z").path, withDestinationPath: targetFolder.path)
        let folderAside = folder.url.appendingPathComponent("a.corrupt-20200103T000000Z")
        try fm.createDirectory(at: folderAside, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: folderAside.appendingPathComponent("inside"))
        for day in 4 ... 6 { try Data("x".utf8).write(to: folder.url.appendingPathComponent("a.corrupt-2020010\(day)T000000Z")) }

        let removed = MovedAside.prune(inFolder: folder.url.path, now: Self.now)
        #expect(removed.count == 2, "\(removed)")
        #expect(!folder.names.contains("a.corrupt-20200101T000000Z") && !folder.names.contains("a.corrupt-20200102T000000Z"))
        #expect(try Data(contentsOf: target) == Data("keep me".utf8))
        #expect(fm.fileExists(atPath: targetFolder.appendingPathComponent("inside").path))
        #expect(fm.fileExists(atPath: folderAside.appendingPathComponent("inside").path), "a folder is no file moved aside")
        #expect(MovedAside.files(inFolder: folder.url.path).count == 3)
    }
}
