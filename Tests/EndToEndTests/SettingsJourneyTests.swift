import Foundation
import Testing

/// `wonderland settings` in one pane and `wonderland` in another, on one HOME: what a person
/// changes in the first shows in the second while it runs.
@Suite("Settings end to end", .serialized, .whenEndToEndIsAskedFor)
struct SettingsJourneyTests {
    @Test("a toggle flipped in `wonderland settings` shows in a running app, and survives both")
    func settingsProgramChangesARunningApp() throws {
        let tmux = try TmuxSession(columns: 120, rows: 30)
        try tmux.launchApp()
        // The app's own settings sheet shows the toggle, and redraws when the store changes.
        try tmux.type(",")
        try waitForRow(tmux, "0.0", ["Sync Locations", "[ ] Off"])
        // A second pane, side by side, running the settings program on the same HOME.
        try tmux.tmux(["split-window", "-h", "-t", "0", "env -i PATH=/usr/bin:/bin HOME='\(tmux.home.path)' TERM=tmux-256color LANG=C.UTF-8 \(tmux.binary) settings"])
        let settingsPane = "0.1"
        try waitForPane(tmux, settingsPane, text: "Sync Locations")
        try tmux.tmux(["send-keys", "-t", settingsPane, "Space"])  // the first row: Sync Locations
        try waitForPane(tmux, settingsPane, text: "[x] On")
        // The app pane (0.0) follows without a key pressed there.
        try waitForRow(tmux, "0.0", ["Sync Locations", "[x] On"])
        try tmux.tmux(["send-keys", "-t", settingsPane, "q"])
        let defaults = tmux.home.appendingPathComponent(".config/wonderland/defaults.plist")
        let saved = try String(contentsOf: defaults, encoding: .utf8)
        #expect(saved.contains("<key>HPSyncLocations</key>") && saved.contains("<true/>"))
    }

    @Test("`-Key value` overrides a default for one run and is never written")
    func argumentDomainOverridesForOneRun() throws {
        let tmux = try TmuxSession(columns: 100, rows: 30)
        try tmux.launchApp("-HPMapType 2")
        _ = try tmux.waitForText(" Hybrid · Follow")
        try tmux.press("q")
        _ = try tmux.waitForText("exit=0")
        let defaults = tmux.home.appendingPathComponent(".config/wonderland/defaults.plist")
        let saved = (try? String(contentsOf: defaults, encoding: .utf8)) ?? ""
        #expect(!saved.contains("HPMapType"))
    }

    /// Waits for one row of a pane that holds every one of `parts` (a setting and its value).
    private func waitForRow(_ tmux: TmuxSession, _ pane: String, _ parts: [String], timeout: TimeInterval = 10) throws {
        let deadline = Date().addingTimeInterval(timeout)
        var screen = ""
        while Date() < deadline {
            screen = try tmux.tmux(["capture-pane", "-t", pane, "-p"])
            if screen.split(separator: "\n").contains(where: { row in parts.allSatisfy { row.contains($0) } }) { return }
            usleep(50_000)
        }
        throw E2EError("pane \(pane): timed out waiting for a row with \(parts):\n\(screen)")
    }

    private func waitForPane(_ tmux: TmuxSession, _ pane: String, text: String, timeout: TimeInterval = 10) throws {
        let deadline = Date().addingTimeInterval(timeout)
        var screen = ""
        while Date() < deadline {
            screen = try tmux.tmux(["capture-pane", "-t", pane, "-p"])
            if screen.contains(text) { return }
            usleep(50_000)
        }
        throw E2EError("pane \(pane): timed out waiting for “\(text)”:\n\(screen)")
    }
}
