import Foundation
import Testing

/// Handoff between two machines, as a person sees it: two `wonderland`s with their own HOMEs in
/// tmux, on one sync folder and on one PostgreSQL server. The desk opens a character and types
/// a note; the laptop, which was typing a note of its own, is offered the desk's place, takes it
/// with `h`, and shows the same screens, draft and cursor; both texts are kept. A third machine
/// with Handoff off sends nothing.
@Suite("Handoff between two machines, in tmux", .whenEndToEndIsAskedFor)
struct HandoffJourneyTests {
    static func arguments(_ name: String, handoff: Bool = true) -> String {
        "--location 48.8566,2.3522 -WLHandoff \(handoff ? "YES" : "NO") -WLHandoffDrafts YES -WLDeviceName \(name) -HPSyncLocations YES"
    }

    @Test("through a sync folder: offered within moments, continued with h at the same screen, draft and cursor; both drafts kept")
    func throughAFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-e2e-handoff-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ["WONDERLAND_SYNC_FOLDER": folder.path]
        try journey(environment: environment) { studio in
            let listed = try studio.homeFolder.wonderland(["handoff", "list"], environment: environment)
            #expect(listed.output.contains("No machine offers a place"), "\(listed.output)")
            let written = try FileManager.default.contentsOfDirectory(atPath: folder.path).map {
                (try? Data(contentsOf: folder.appendingPathComponent($0))) ?? Data()
            }
            #expect(!written.contains { $0.range(of: Data("WLHandoff.".utf8)) != nil }, "the folder holds an activity")
        }
    }

    @Test("through a PostgreSQL server: the same, and with Handoff off the table holds no activity")
    func throughAServer() throws {
        let server = try ThrowAwayServer()
        let environment = ["WONDERLAND_SYNC_URL": server.url, "PGPASSWORD": server.password]
        try journey(environment: environment) { _ in
            let rows = try server.query("SELECT count(*) FROM wonderland_kv WHERE key LIKE 'WLHandoff.%'")
            #expect(rows.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "\(rows)")
        }
    }

    /// A machine with Handoff off moves around first (`checkNothingSent` looks at the store),
    /// then the laptop types a draft, the desk moves, and the laptop continues the desk's place.
    private func journey(environment: [String: String], checkNothingSent: (TmuxSession) throws -> Void) throws {
        let studio = try TmuxSession(columns: 120, rows: 30, environment: environment, session: "studio")
        try studio.launchApp(Self.arguments("studio", handoff: false))
        _ = try studio.waitForText("synced")
        try openCheshireCat(studio)
        try studio.type("e")
        try studio.type("Kept to myself")
        _ = try studio.waitForText("Kept to myself")
        try studio.press("Escape")
        // A key straight after Esc would be read with it as Alt+key.
        _ = try studio.waitFor("the note saved") { !$0.joined(separator: "\n").contains("Esc Save notes") }
        try studio.type("q")
        _ = try studio.waitForText("exit=0")
        try checkNothingSent(studio)

        let laptop = try TmuxSession(columns: 120, rows: 30, environment: environment, session: "laptop")
        let desk = try TmuxSession(columns: 120, rows: 30, environment: environment, session: "desk")
        do {
            try laptop.launchApp(Self.arguments("laptop"))
            _ = try laptop.waitForText("synced")
            try openCheshireCat(laptop)
            try laptop.type("e")
            try laptop.type("Typed on the laptop")
            _ = try laptop.waitForText("Typed on the laptop")

            try desk.launchApp(Self.arguments("desk"))
            _ = try desk.waitForText("synced")
            try openCheshireCat(desk)
            try desk.type("e")
            try desk.type("Grins without a cat")
            try desk.press("Left", "Left", "Left")
            _ = try desk.waitFor("the cursor moved") { $0.contains { $0.hasSuffix("Ln 1, Col 17") } }

            // The laptop is typing: the offer waits for it to leave the field.
            _ = try laptop.waitForText("Continue from desk")
            _ = try laptop.waitForText("Esc, then h")
            try laptop.press("Escape")
            _ = try laptop.waitFor("the offer takes h") { $0[0].hasSuffix("— h") }
            try laptop.type("h")
            let continued = try laptop.waitForText("Grins without a cat")
            #expect(continued.joined(separator: "\n").contains("Notes (editing"), "\(continued.joined(separator: "\n"))")
            #expect(continued.contains { $0.hasSuffix("Ln 1, Col 17") }, "the desk's cursor: \(continued.joined(separator: "\n"))")
            // Esc saves the continued draft; the laptop's own note is kept as another version.
            try laptop.press("Escape")
            _ = try laptop.waitForText("Typed on the laptop")
            let note = try laptop.homeFolder.wonderland(["collections", "export", "WLCharacterNotes", "-", "--format", "json"], environment: environment)
            #expect(note.output.contains("Grins without a cat") && note.output.contains("Typed on the laptop"), "\(note.output)")

            let listed = try desk.homeFolder.wonderland(["handoff", "list"], environment: environment)
            #expect(listed.output.contains("laptop"), "\(listed.output)")
            #expect(listed.output.contains("desk (this machine)"), "\(listed.output)")
            #expect(!listed.output.contains("studio"), "\(listed.output)")
            try desk.press("Escape")  // the desk's note is saved; `q` is text while typing
            _ = try desk.waitFor("the desk's note saved") { !$0.joined(separator: "\n").contains("Esc Save notes") }
            for device in [laptop, desk] {
                try device.type("q")
                _ = try device.waitForText("exit=0")
            }
        } catch {
            for device in [laptop, desk] { _ = device.keepScreens() }
            throw error
        }
    }

    private func openCheshireCat(_ device: TmuxSession) throws {
        try device.type("2")
        _ = try device.waitForText("▸ Alice")
        try device.type("/Cheshire")
        try device.press("Enter")  // the filter's one match, opened
        _ = try device.waitForText("Characters › Cheshire Cat")
    }
}
