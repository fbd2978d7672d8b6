import Foundation
import Testing

/// A heavy reader at the synced store's limits, with real processes: one HOME holds 1,100
/// reading places; the store keeps the 200 most recent, the pin still goes, and a second HOME
/// on the same folder receives the pin and the most recent places.
@Suite("A heavy reader's sync journey in tmux", .whenEndToEndIsAskedFor)
struct HeavyReaderSyncJourneyTests {
    static let books = 1_100
    static func book(_ index: Int) -> String { String(format: "b%015x", index) }

    /// The reader's defaults: both toggles on and a place per book, book `i` read `books - i`
    /// minutes ago.
    static func seed(into home: URL) throws {
        let now = Date().timeIntervalSince1970
        var places: [String: Any] = [:]
        for index in 0 ..< books {
            places[book(index)] = ["offset": index * 100, "modified": now - Double(books - index) * 60, "device": "seed-reader"]
        }
        let defaults: [String: Any] = ["HPSyncLocations": true, "WLSyncReadingPosition": true, "WLReadingPositions": places]
        let file = home.appendingPathComponent("seed.plist")
        try PropertyListSerialization.data(fromPropertyList: defaults, format: .xml, options: 0).write(to: file)
        let imported = try run(home, ["defaults", "import", file.path])
        guard imported.status == 0 else { throw E2EError("defaults import failed: \(imported.output)") }
    }

    static func run(_ home: URL, _ arguments: [String], folder: URL? = nil) throws -> (status: Int32, output: String) {
        var environment = ["PATH=/usr/bin:/bin", "HOME=\(home.path)", "LANG=C.UTF-8"]
        if let folder { environment.append("WONDERLAND_SYNC_FOLDER=\(folder.path)") }
        return try Subprocess.run(["/usr/bin/timeout", "-s", "KILL", "60", "/usr/bin/env", "-i"] + environment
                                  + [try TmuxSession.locateBinary()] + arguments)
    }

    @Test("1,100 places: the 200 most recent sync, the tab bar says so, no alert; the pin and the newest place reach the other HOME")
    func heavyReader() throws {
        let folder = try SyncFolder()
        let environment = ["WONDERLAND_SYNC_FOLDER": folder.url.path]
        let reader = try TmuxSession(columns: 120, rows: 24, environment: environment)
        let laptop = try TmuxSession(columns: 120, rows: 24, environment: environment)
        try Self.seed(into: reader.home)

        try reader.launchApp(CloudJourneyTests.paris)
        _ = try reader.waitFor("the places counted", timeout: 20) { $0[0].hasSuffix("synced, 200 of 1,100 places") }
        reader.check(!(try reader.screen().joined().contains("could not be synced")), "no alert about syncing")
        try reader.rememberPlace("Heavy pin")
        _ = try reader.waitFor("the pin sent") { $0[0].hasSuffix("synced, 200 of 1,100 places") }

        try laptop.launchApp(CloudJourneyTests.paris + " -HPSyncLocations YES -WLSyncReadingPosition YES")
        _ = try laptop.waitForText("⚑ Heavy pin", timeout: 20)
        for device in [reader, laptop] {
            try device.type("q")
            _ = try device.waitForText("exit=0")
        }

        let status = try Self.run(reader.home, ["cloud", "status"], folder: folder.url)
        reader.check(status.output.contains("Reading places: 1,100 books, the 200 most recent synced"), "cloud status says what is synced:\n\(status.output)")
        reader.check(status.output.contains("Waiting:  0 changes"), "nothing waits:\n\(status.output)")
        let offline = try Self.run(reader.home, ["cloud", "status", "--offline"], folder: folder.url)
        reader.check(offline.output.contains("Waiting:  0 changes"), "the copy alone knows what was sent:\n\(offline.output)")

        let received = try Self.run(laptop.home, ["collections", "export", "WLReadingPositions", "-"])
        let count = received.output.components(separatedBy: "<key>b00000000000").count - 1
        laptop.check(count == 200, "the laptop has the 200 most recent places, not \(count)")
        laptop.check(received.output.contains(Self.book(Self.books - 1)), "the newest place arrived")
        laptop.check(!received.output.contains(Self.book(0)), "the oldest stayed with the reader")
    }
}
