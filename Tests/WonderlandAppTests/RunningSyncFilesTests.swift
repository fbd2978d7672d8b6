import Foundation
import Testing
@testable import WonderlandApp

/// The files a running app tells `cloud status` its sync state through: written and read back,
/// a dead app's file skipped and removed, and anything else in the folder — too big, not JSON,
/// another format, a pid that is not the file's — skipped without a crash.
@Suite("Running sync files")
struct RunningSyncFilesTests {
    final class Folder {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wl-running-\(UUID().uuidString)").path
        deinit { try? FileManager.default.removeItem(atPath: path) }
        func write(_ name: String, _ data: Data) throws {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: path).appendingPathComponent(name))
        }
        var names: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }
    }

    static let synced = RunningSyncState(pid: 4242, address: "postgres://alice@db:5432/wl", isServer: true,
                                         reached: true, lastSync: 1_000_000, problem: nil)

    @Test("a state written is read back, owner-only, and goes when removed")
    func writeAndRead() throws {
        let folder = Folder()
        let files = RunningSyncFiles(folderPath: folder.path) { _ in true }
        try files.write(Self.synced)
        var offline = Self.synced
        offline.pid = 4343
        offline.reached = false
        offline.problem = "the server is full: every connection to db:5432 is in use; trying again"
        try files.write(offline)
        #expect(files.read() == [Self.synced, offline])
        #expect(folder.names == ["sync-4242.json", "sync-4343.json"])
        let mode = try FileManager.default.attributesOfItem(atPath: files.path(pid: 4242))[.posixPermissions] as? Int
        #expect(mode == 0o600)
        files.remove(pid: 4242)
        #expect(files.read() == [offline])
    }

    @Test("a file whose app is not running is skipped and removed; a missing folder reads as none")
    func stalePid() throws {
        let folder = Folder()
        #expect(RunningSyncFiles(folderPath: folder.path).read() == [])
        try RunningSyncFiles(folderPath: folder.path) { _ in true }.write(Self.synced)
        let files = RunningSyncFiles(folderPath: folder.path) { $0 != 4242 }
        #expect(files.read() == [])
        #expect(folder.names == [])
        // This test's own process is running, but it is not a wonderland.
        #expect(!RunningSyncFiles.isRunningWonderland(getpid()))
        #expect(!RunningSyncFiles.isRunningWonderland(-1))
    }

    @Test("too big, not JSON, another format, another pid, a FIFO or an odd name: skipped, and the good one still read")
    func hostileFiles() throws {
        let folder = Folder()
        let files = RunningSyncFiles(folderPath: folder.path) { _ in true }
        try files.write(Self.synced)
        var big = try JSONEncoder().encode(Self.synced)
        big.append(Data(repeating: 0x20, count: RunningSyncFiles.limit.bytes))
        try folder.write("sync-1.json", big)
        try folder.write("sync-2.json", Data("{\"pid\": 2, \"address\": ".utf8))
        try folder.write("sync-3.json", Data([0xFF, 0xFE, 0x00, 0x7B]))
        try folder.write("sync-4.json", Data(String(repeating: "[", count: 60_000).utf8))
        var other = Self.synced
        other.pid = 5
        other.format = 2
        try folder.write("sync-5.json", try JSONEncoder().encode(other))
        other.format = 1
        try folder.write("sync-6.json", try JSONEncoder().encode(other))
        try folder.write("sync-.json", Data())
        try folder.write("sync-99999999999.json", Data())
        try folder.write("notes.txt", Data("hello".utf8))
        #expect(mkfifo(folder.path + "/sync-7.json", 0o600) == 0)
        #expect(files.read() == [Self.synced])
    }

    @Test("a later sync alone is written once a minute; any other change at once")
    func laterSyncsAreWrittenOnceAMinute() {
        var later = Self.synced
        later.lastSync = Self.synced.lastSync.map { $0 + 0.5 }
        #expect(later.isOnlyALaterSync(than: Self.synced))
        later.lastSync = Self.synced.lastSync.map { $0 + RunningSyncState.refreshInterval }
        #expect(!later.isOnlyALaterSync(than: Self.synced), "a minute on, the file is refreshed")
        var offline = Self.synced
        offline.lastSync = Self.synced.lastSync.map { $0 + 0.5 }
        offline.reached = false
        offline.problem = "cannot connect"
        #expect(!offline.isOnlyALaterSync(than: Self.synced), "going offline is written at once")
        #expect(!Self.synced.isOnlyALaterSync(than: nil))
        var earlier = Self.synced
        earlier.lastSync = Self.synced.lastSync.map { $0 - 1 }
        #expect(!earlier.isOnlyALaterSync(than: Self.synced), "a clock that went back is written")
    }

    @Test("the line cloud status prints for each state")
    func lines() {
        #expect(Self.synced.line(now: 1_000_003) == "Running app (pid 4242): reached the server, last recorded 3 s ago · postgres://alice@db:5432/wl")
        var offline = Self.synced
        offline.reached = false
        offline.problem = "the server is full\u{1B}[2J"
        #expect(offline.line(now: 1_000_600, sanitize: { $0.replacingOccurrences(of: "\u{1B}", with: "?") })
                == "Running app (pid 4242): offline: the server is full?[2J (last reached the server 10 min ago) · postgres://alice@db:5432/wl")
        let folder = RunningSyncState(pid: 7, address: "/mnt/sync", isServer: false, reached: nil, lastSync: nil, problem: nil)
        #expect(folder.line(now: 0) == "Running app (pid 7): connecting to the folder · /mnt/sync")
        #expect(RunningSyncState.ago(-5) == "just now")
        #expect(RunningSyncState.ago(.infinity) == "just now")
        #expect(RunningSyncState.ago(10_000) == "2 h ago")
    }
}
