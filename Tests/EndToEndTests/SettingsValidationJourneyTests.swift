import Foundation
import Testing

/// The settings as a person types into them, the bytes a terminal sends (`send-keys -H`): a
/// Manual Location, a gpsd Address and a Sync Server of the wrong form show what is wrong under
/// the field, Enter refuses them, and after a relaunch the saved values are the old ones.
@Suite("Settings refuse text of the wrong form, in tmux", .whenEndToEndIsAskedFor)
struct SettingsValidationJourneyTests {
    private enum Bytes {
        static let enter: [UInt8] = [0x0D]
        static let escape: [UInt8] = [0x1B]
        static let down: [UInt8] = [0x1B, 0x5B, 0x42]
        static let up: [UInt8] = [0x1B, 0x5B, 0x41]
        static let controlC: [UInt8] = [0x03]
        /// Ctrl-E then Ctrl-U: to the end of the field, then everything before the cursor gone.
        static let clearField: [UInt8] = [0x05, 0x15]
    }

    private func send(_ tmux: TmuxSession, _ bytes: [UInt8]) throws {
        _ = try tmux.tmux(["send-keys", "-t", "0", "-H"] + bytes.map { String(format: "%02x", $0) })
    }

    private func send(_ tmux: TmuxSession, text: String) throws { try send(tmux, Array(text.utf8)) }

    /// The screen once the row holding `field` has `problem` on the line under it.
    @discardableResult
    private func waitForProblem(_ tmux: TmuxSession, under field: String, _ problem: String) throws -> [String] {
        try tmux.waitFor("“\(problem)” under \(field)") { screen in
            guard let row = screen.firstIndex(where: { $0.contains(field) }), row + 1 < screen.count else { return false }
            return screen[row + 1].contains(problem)
        }
    }

    /// Opens the field `rowsDown` rows below the selected one, empties it and types `text`.
    private func retype(_ tmux: TmuxSession, moving move: [UInt8], times: Int, _ text: String) throws {
        for _ in 0..<times { try send(tmux, move) }
        try send(tmux, Bytes.enter)
        _ = try tmux.waitForText("Enter Save")
        try send(tmux, Bytes.clearField)
        try send(tmux, text: text)
        _ = try tmux.waitForText(text)
    }

    private var savedDefaults: (TmuxSession) -> String {
        { tmux in (try? String(contentsOf: tmux.home.appendingPathComponent(".config/wonderland/defaults.plist"), encoding: .utf8)) ?? "" }
    }

    @Test("Manual Location, gpsd Address and Sync Server: the problem under the field, Enter refuses, Esc keeps the old value, a relaunch too")
    func wrongTextIsShownAndNeverSaved() throws {
        let tmux = try TmuxSession(columns: 80, rows: 30)
        try tmux.run("\(tmux.binary) defaults write HPManualLocation 48.8566,2.3522 && \(tmux.binary) defaults write HPGPSDAddress gps.local:2947")
        try tmux.launchApp()
        try tmux.type(",")
        _ = try tmux.waitForText("Sync Locations")

        // Manual Location, ten rows down (past the Sync and Handoff rows): a latitude past the pole.
        try retype(tmux, moving: Bytes.down, times: 10, "200,0")
        try waitForProblem(tmux, under: "Manual Location", "! latitude 200 is outside -90…90")
        try send(tmux, Bytes.enter)
        // Still open: the draft and its problem stay; Esc then drops the draft.
        try waitForProblem(tmux, under: "Manual Location", "! latitude 200 is outside -90…90")
        _ = try tmux.waitForText("Enter Save")
        try send(tmux, Bytes.escape)
        _ = try tmux.waitFor("the old Manual Location back") { screen in
            screen.contains { $0.contains("Manual Location") && $0.contains("48.8566,2.3522") } && !screen.joined().contains("! latitude")
        }

        // gpsd Address, the next row: a port past 65535.
        try retype(tmux, moving: Bytes.down, times: 1, "gps.local:99999")
        try waitForProblem(tmux, under: "gpsd Address", "! port “99999” is not a number from 1 to 65535")
        try send(tmux, Bytes.enter)
        try waitForProblem(tmux, under: "gpsd Address", "! port “99999”")
        try send(tmux, Bytes.escape)
        _ = try tmux.waitFor("the old gpsd Address back") { screen in screen.contains { $0.contains("gpsd Address") && $0.contains("gps.local:2947") } }

        // Sync Server, eight rows up (past the Handoff rows): not a postgres:// address. The
        // problem is longer than the line: cut with "…", on one line.
        try retype(tmux, moving: Bytes.up, times: 8, "https://alice@db/wl")
        let screen = try waitForProblem(tmux, under: "Sync Server", "! a server address starts with postgres://")
        let row = try #require(screen.firstIndex { $0.contains("Sync Server") })
        tmux.check(screen[row + 1].trimmingCharacters(in: .whitespaces).hasSuffix("…"), "cut with an ellipsis: \(screen[row + 1])")
        tmux.check(screen[row + 2].contains("Shares your pin"), "one line: the group's footer follows")
        try send(tmux, Bytes.enter)
        try waitForProblem(tmux, under: "Sync Server", "! a server address starts with postgres://")

        // Quit with the wrong draft still open (Ctrl-C quits from anywhere, as an interrupt:
        // status 130), then relaunch.
        try send(tmux, Bytes.controlC)
        _ = try tmux.waitForText("exit=130")
        let saved = savedDefaults(tmux)
        tmux.check(saved.contains("48.8566,2.3522") && saved.contains("gps.local:2947"), "the old values are saved: \(saved)")
        tmux.check(!saved.contains("200,0") && !saved.contains("99999") && !saved.contains("https://"), "no wrong text is: \(saved)")

        try tmux.run("clear; \(tmux.binary); echo \"exit=$?\"")
        // The settings come back as they were left, the draft with them: still checked, still refused.
        try waitForProblem(tmux, under: "Sync Server", "! a server address starts with postgres://")
        try send(tmux, Bytes.enter)
        try waitForProblem(tmux, under: "Sync Server", "! a server address starts with postgres://")
        try send(tmux, Bytes.escape)
        _ = try tmux.waitFor("the draft dropped") { !$0.joined().contains("! a server address") }
        let relaunched = try tmux.screen()
        tmux.check(relaunched.contains { $0.contains("Manual Location") && $0.contains("48.8566,2.3522") }, "Manual Location kept")
        tmux.check(relaunched.contains { $0.contains("gpsd Address") && $0.contains("gps.local:2947") }, "gpsd Address kept")
        tmux.check(!savedDefaults(tmux).contains("https://"), "the refused draft never reached the defaults")
        try send(tmux, Bytes.escape)
        _ = try tmux.waitFor("the settings closed") { !$0.joined().contains("Sync Locations") }
        try tmux.type("q")
        _ = try tmux.waitForText("exit=0")
    }

    @Test("`wonderland settings` at 40 columns: the problem is one line cut with “…”, Enter refuses, Esc and q leave the saved value as it was")
    func theSettingsProgramAtFortyColumns() throws {
        let tmux = try TmuxSession(columns: 40, rows: 14)
        try tmux.run("clear; \(tmux.binary) defaults write HPManualLocation 48.8566,2.3522; \(tmux.binary) settings; echo \"exit=$?\"")
        _ = try tmux.waitForText("Sync Locations")
        try retype(tmux, moving: Bytes.down, times: 10, "48.8566;2.3522")
        let screen = try waitForProblem(tmux, under: "Manual Location", "! expected LAT,LON")
        let row = try #require(screen.firstIndex { $0.contains("Manual Location") })
        let problem = screen[row + 1]
        tmux.check(problem.trimmingCharacters(in: .whitespaces).hasSuffix("…"), "cut with an ellipsis: \(problem)")
        tmux.check(problem.count <= 40, "within the width: \(problem)")
        try send(tmux, Bytes.enter)
        try waitForProblem(tmux, under: "Manual Location", "! expected LAT,LON")
        try send(tmux, Bytes.escape)
        _ = try tmux.waitFor("the field closed") { !$0.joined().contains("! expected") }
        try send(tmux, Array("q".utf8))
        _ = try tmux.waitForText("exit=0")
        let saved = savedDefaults(tmux)
        tmux.check(saved.contains("48.8566,2.3522") && !saved.contains(";2.3522"), "\(saved)")
    }

    @Test("`defaults write` refuses what the settings refuse, with the same words, exit 1")
    func theCommandLineRefusesTheSame() throws {
        let tmux = try TmuxSession(columns: 120, rows: 10)
        try tmux.run("clear; \(tmux.binary) defaults write HPGPSDAddress gps.local:99999; echo \"exit=$?\"")
        let screen = try tmux.waitForText("exit=1")
        tmux.check(screen.contains { $0.contains("Not saved: HPGPSDAddress: port “99999” is not a number from 1 to 65535.") }, "\(screen)")
        tmux.check(!savedDefaults(tmux).contains("99999"))
    }
}
