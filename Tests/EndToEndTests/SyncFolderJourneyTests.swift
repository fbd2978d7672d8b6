import Foundation
import Testing

/// A sync folder that is not there: the app says offline with the changes waiting and never
/// creates it; `wonderland cloud init` (or `c` on the Sync Folder row) creates it, the running
/// app notices by itself, and what waited reaches the other device.
@Suite("A missing sync folder, in tmux", .whenEndToEndIsAskedFor)
struct SyncFolderJourneyTests {
    static let paris = "--location 48.8566,2.3522 -HPSyncLocations YES"

    /// A folder path under a fresh temporary folder; the folder itself is not made.
    final class MissingFolder {
        let parent: URL
        let url: URL
        init() throws {
            parent = FileManager.default.temporaryDirectory.appendingPathComponent("wl-e2e-missing-\(getpid())-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
            url = parent.appendingPathComponent("shared/wonderland")
        }
        var exists: Bool { FileManager.default.fileExists(atPath: url.path) }
        deinit { try? FileManager.default.removeItem(at: parent) }
    }

    /// `wonderland cloud …` as the device with that HOME runs it.
    private func cloud(_ arguments: [String], home: URL, folder: URL) throws -> (status: Int32, output: String) {
        try Subprocess.run(["/usr/bin/env", "-i", "PATH=/usr/bin:/bin", "HOME=\(home.path)", "WONDERLAND_SYNC_FOLDER=\(folder.path)",
                            try TmuxSession.locateBinary(), "cloud"] + arguments)
    }

    private func send(_ tmux: TmuxSession, _ bytes: [UInt8]) throws {
        _ = try tmux.tmux(["send-keys", "-t", "0", "-H"] + bytes.map { String(format: "%02x", $0) })
    }

    @Test("missing: offline, the change waits, nothing created; `cloud status` says so; `cloud init` creates it and the pin reaches the laptop")
    func cloudInitCreatesTheFolderAndTheWaitingChangeArrives() throws {
        let folder = try MissingFolder()
        let environment = ["WONDERLAND_SYNC_FOLDER": folder.url.path]
        let phone = try TmuxSession(columns: 100, rows: 24, environment: environment)
        try phone.launchApp(Self.paris)
        _ = try phone.waitForText("offline")
        try phone.rememberPlace("Waiting pin")
        _ = try phone.waitForText("offline, 1 change waiting: folder missing")
        phone.check(!folder.exists, "the app did not create the folder")
        phone.check(!FileManager.default.fileExists(atPath: folder.url.deletingLastPathComponent().path), "nor its parent")

        let status = try cloud(["status"], home: phone.home, folder: folder.url)
        #expect(status.output.contains("Reached:  no: folder missing: \(folder.url.path) — run `wonderland cloud init` to create it"), "\(status.output)")
        #expect(status.output.contains("Waiting:  1 change not yet sent"), "\(status.output)")
        #expect(!folder.exists, "nor did `cloud status`")

        let created = try cloud(["init"], home: phone.home, folder: folder.url)
        #expect(created.status == 0)
        #expect(created.output.contains("Created the sync folder \(folder.url.path) (only you may read it)."), "\(created.output)")
        // The running app watches for the folder and may send the pin before `init` counts what
        // waits (the local copy records what was sent): then there is nothing left to mention.
        let stillWaiting = created.output.contains("1 change waiting on this machine")
        #expect(stillWaiting || !created.output.contains("waiting"), "\(created.output)")
        var info = stat()
        #expect(stat(folder.url.path, &info) == 0 && info.st_mode & 0o777 == 0o700)

        // The running app sees the folder appear and sends the pin, with no key pressed.
        _ = try phone.waitFor("synced") { $0[0].hasSuffix("synced") }
        let laptop = try TmuxSession(columns: 100, rows: 24, environment: environment)
        try laptop.launchApp(Self.paris)
        _ = try laptop.waitForText("⚑ Waiting pin")

        let again = try cloud(["init"], home: phone.home, folder: folder.url)
        #expect(again.status == 0)
        #expect(again.output.contains("is there already; nothing was changed"), "\(again.output)")
        for device in [phone, laptop] {
            try device.type("q")
            _ = try device.waitForText("exit=0")
        }
    }

    @Test("`cloud init`: 2 for a usage mistake, 1 when something is in the way, a PATH elsewhere says how to use it")
    func cloudInitExitStatuses() throws {
        let folder = try MissingFolder()
        let home = try HomeFolder()
        let usage = try cloud(["init", "one", "two"], home: home.url, folder: folder.url)
        #expect(usage.status == 2, "\(usage.output)")
        let empty = try cloud(["init", " "], home: home.url, folder: folder.url)
        #expect(empty.status == 2 && empty.output.contains("the path is empty"), "\(empty.output)")
        let address = try cloud(["init", "postgres://alice@db/wl"], home: home.url, folder: folder.url)
        #expect(address.status == 2 && address.output.contains("a server address goes in Sync Server"), "\(address.output)")

        let file = folder.parent.appendingPathComponent("a-file")
        #expect(FileManager.default.createFile(atPath: file.path, contents: Data("mine".utf8)))
        let inTheWay = try cloud(["init", file.path], home: home.url, folder: folder.url)
        #expect(inTheWay.status == 1, "\(inTheWay.output)")
        #expect(inTheWay.output.contains("cannot create \(file.path): Not a directory"), "\(inTheWay.output)")
        #expect(try Data(contentsOf: file) == Data("mine".utf8))

        let elsewhere = folder.parent.appendingPathComponent("elsewhere")
        let made = try cloud(["init", elsewhere.path], home: home.url, folder: folder.url)
        #expect(made.status == 0)
        #expect(made.output.contains("wonderland defaults write WLSyncFolder \(elsewhere.path)"), "\(made.output)")
        #expect(!folder.exists, "only the folder asked for is made")
    }

    @Test("`c` on the Sync Folder row asks, then creates the folder; the app syncs")
    func theSyncSettingsCreateTheFolderAfterAQuestion() throws {
        let folder = try MissingFolder()
        let phone = try TmuxSession(columns: 100, rows: 24, environment: ["WONDERLAND_SYNC_FOLDER": folder.url.path])
        try phone.launchApp(Self.paris)
        try phone.rememberPlace("Asked first")
        _ = try phone.waitForText("offline, 1 change waiting")
        try phone.type(",")
        _ = try phone.waitForText("Sync Locations")
        for _ in 0..<2 { try send(phone, [0x1B, 0x5B, 0x42]) }  // down to Sync Folder
        _ = try phone.waitForText("c Create the sync folder")
        try send(phone, Array("c".utf8))
        _ = try phone.waitForText("Create the sync folder?")
        // No: nothing is made.
        try send(phone, Array("n".utf8))
        _ = try phone.waitFor("the question gone") { !$0.joined().contains("Create the sync folder?") }
        phone.check(!folder.exists, "No creates nothing")
        try send(phone, Array("c".utf8))
        _ = try phone.waitForText("Create the sync folder?")
        try send(phone, Array("y".utf8))
        _ = try phone.waitForText("Created the sync folder")
        phone.check(folder.exists, "Yes creates it")
        try send(phone, [0x0D])  // the message closes
        try send(phone, [0x1B])  // the settings close
        _ = try phone.waitFor("synced") { $0[0].hasSuffix("synced") }
        let status = try cloud(["list", "--offline"], home: phone.home, folder: folder.url)
        #expect(status.output.contains("Asked first"), "\(status.output)")
        try phone.type("q")
        _ = try phone.waitForText("exit=0")
    }
}
