@testable import Cloud
import Foundation
import Testing

/// One copy is kept per backend ever used; a copy not used for a season, and not the current
/// backend's, goes with its companions, and nothing else in the folder does.
@Suite("Synced-store copies no longer used")
struct UnusedReplicaTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let day: TimeInterval = 86_400

    final class Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("wl-unused-\(UUID().uuidString)")
        var replicas: LocalReplicaFolder { LocalReplicaFolder(url: url) }
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: url) }
        var names: Set<String> { Set((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []) }

        /// `name`, last written `daysAgo` days before `now`.
        func write(_ name: String, daysAgo: Double, bytes: Int = 100) throws {
            let file = url.appendingPathComponent(name)
            try Data(repeating: 7, count: bytes).write(to: file)
            try setAge(name, daysAgo: daysAgo)
        }

        func setAge(_ name: String, daysAgo: Double) throws {
            try FileManager.default.setAttributes([.modificationDate: UnusedReplicaTests.now.addingTimeInterval(-daysAgo * UnusedReplicaTests.day)],
                                                  ofItemAtPath: url.appendingPathComponent(name).path)
        }

        func copyName(_ backend: String) -> String { LocalReplicaFolder.fileName(forBackend: backend) }
    }

    @Test("a copy unused for 90 days goes with its lock, quarantine and dead markers; the current one never does")
    func unusedGo() throws {
        let folder = try Folder()
        let current = folder.copyName("folder ~/Sync/home")
        let old = folder.copyName("folder /mnt/work")
        let recent = folder.copyName("server postgres://me@db/wonderland")
        try folder.write(current, daysAgo: 400)
        try folder.write(old, daysAgo: 91)
        for companion in [".lock", ".quarantine", ".applying-999999999-1"] { try folder.write(old + companion, daysAgo: 91) }
        try folder.write(recent, daysAgo: 89)
        try folder.write("device-id", daysAgo: 1000)
        try folder.write(old + ".damaged-20200101T000000Z", daysAgo: 1000)

        let unused = folder.replicas.unusedCopies(currentBackend: "folder ~/Sync/home", now: Self.now)
        #expect(unused.map { URL(fileURLWithPath: $0.path).lastPathComponent } == [old])
        #expect(unused.first?.size == 400)
        let removed = folder.replicas.removeUnusedCopies(currentBackend: "folder ~/Sync/home", now: Self.now)
        #expect(removed.count == 1)
        #expect(folder.names == [current, recent, "device-id", old + ".damaged-20200101T000000Z"])
    }

    @Test("opening a copy marks it used")
    func openingTouches() throws {
        let folder = try Folder()
        let name = folder.copyName("folder /mnt/work")
        try folder.write(name, daysAgo: 200)
        _ = folder.replicas.replicaFile(forBackend: "folder /mnt/work")
        #expect(folder.replicas.unusedCopies(currentBackend: "folder ~/Sync/home", now: Date()).isEmpty)
    }

    @Test("a copy whose lock another holds, or beside a live process's marker, is left")
    func inUseLeft() throws {
        let folder = try Folder()
        let locked = folder.copyName("folder /mnt/a")
        let marked = folder.copyName("folder /mnt/b")
        try folder.write(locked, daysAgo: 200)
        try folder.write(marked, daysAgo: 200)
        try folder.write(marked + ".applying-\(getpid())-1", daysAgo: 200)
        let descriptor = open(folder.url.appendingPathComponent(locked + ".lock").path, O_RDWR | O_CREAT, 0o600)
        defer { close(descriptor) }
        #expect(flock(descriptor, LOCK_EX) == 0)
        #expect(folder.replicas.unusedCopies(currentBackend: "folder ~/Sync/home", now: Self.now).count == 2)
        #expect(folder.replicas.removeUnusedCopies(currentBackend: "folder ~/Sync/home", now: Self.now).isEmpty)
        #expect(folder.names.isSuperset(of: [locked, marked]))
    }

    @Test("only names a copy is given count; links and folders under them are left, and what a link names")
    func strictNames() throws {
        let folder = try Folder()
        let outside = try Folder()
        try outside.write("precious.plist", daysAgo: 500)
        let strangers = ["notes.plist", "folder-x-1234abcz.plist", "Folder-x-1234abcd.plist", "folder-x-1234abcd.plist.bak", "x-1234abcd.plist~"]
        for name in strangers { try folder.write(name, daysAgo: 500) }
        let link = folder.copyName("folder /mnt/link")
        try FileManager.default.createSymbolicLink(atPath: folder.url.appendingPathComponent(link).path,
                                                   withDestinationPath: outside.url.appendingPathComponent("precious.plist").path)
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent(folder.copyName("folder /mnt/dir")), withIntermediateDirectories: true)
        #expect(folder.replicas.removeUnusedCopies(currentBackend: "folder ~/Sync/home", now: Self.now).isEmpty)
        #expect(folder.names.isSuperset(of: strangers + [link, folder.copyName("folder /mnt/dir")]))
        #expect(outside.names == ["precious.plist"])
    }

    @Test("copy names", arguments: [
        ("folder-sync-wonderland-1f2e3d4c.plist", true), ("-1f2e3d4c.plist", true),
        ("folder-sync-1f2e3d4.plist", false), ("folder-sync-1F2E3D4C.plist", false), ("folder_sync-1f2e3d4c.plist", false),
        ("device-id", false), ("folder-sync-1f2e3d4c.plist.lock", false),
    ])
    func copyNames(_ name: String, _ isCopy: Bool) {
        #expect(LocalReplicaFolder.isCopyName(name) == isCopy)
    }

    @Test("every name fileName(forBackend:) makes is a copy's name")
    func madeNamesAreCopies() {
        for backend in ["folder ~/Sync/home", "server postgres://me@db:5432/w?sslmode=require", "", "folder /" + String(repeating: "long/", count: 30), "folder ~/Ünïcode"] {
            #expect(LocalReplicaFolder.isCopyName(LocalReplicaFolder.fileName(forBackend: backend)), "\(backend)")
        }
    }
}
