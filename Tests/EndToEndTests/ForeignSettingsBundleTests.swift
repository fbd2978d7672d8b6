import Foundation
import Testing

/// `wonderland settings --bundle DIR` on real apps' Settings.bundles (../shared/interop/settings):
/// each renders with its own panes and language, and writes its own defaults file, never
/// wonderland's.
@Suite("Other apps' Settings.bundles end to end", .serialized, .whenEndToEndIsAskedFor)
struct ForeignSettingsBundleTests {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../shared/interop/settings").standardizedFileURL

    private func launch(_ tmux: TmuxSession, bundle: String, language: String) throws {
        let path = Self.corpus.appendingPathComponent("\(bundle)/Settings.bundle").path
        try tmux.run("clear; env -i PATH=/usr/bin:/bin HOME='\(tmux.home.path)' TERM=tmux-256color LANG=C.UTF-8 \(tmux.binary) settings --bundle '\(path)' --language \(language); echo \"exit=$?\"")
    }

    @Test("UTM's bundle in German: localized titles, a toggle saved to bundle-UTM.plist only")
    func utmInGerman() throws {
        let tmux = try TmuxSession(columns: 110, rows: 40)
        try launch(tmux, bundle: "UTM", language: "de")
        let first = try tmux.waitForText("Im Hintergrund automatisch Pausieren")
        let row = try #require(first.firstIndex { $0.contains("Im Hintergrund automatisch Pausieren") })
        let before = first[row]
        // Move the selection down to that row and flip it.
        let selected = try #require(first.firstIndex { $0.contains("▸") })
        for _ in 0..<(row - selected) { try tmux.press("Down") }
        try tmux.press("Space")
        _ = try tmux.waitFor("the toggle to change") { $0.count > row && $0[row] != before }
        try tmux.press("q")
        _ = try tmux.waitForText("exit=0")
        let folder = tmux.home.appendingPathComponent(".config/wonderland")
        let saved = try String(contentsOf: folder.appendingPathComponent("bundle-UTM.plist"), encoding: .utf8)
        #expect(saved.contains("<key>"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("defaults.plist").path))
    }

    @Test("InAppSettingsKit's sample: its own types are skipped, its errors shown in the pane, no modal")
    func inAppSettingsKitSample() throws {
        let tmux = try TmuxSession(columns: 110, rows: 40)
        try launch(tmux, bundle: "InAppSettingsKit-SampleApp", language: "en")
        let screen = try tmux.waitForText("Complete List")
        #expect(!screen.joined().contains("IASKButtonSpecifier"))
        #expect(!screen.contains { $0.contains("[ OK ]") })
        try tmux.press("q")
        _ = try tmux.waitForText("exit=0")
        let folder = tmux.home.appendingPathComponent(".config/wonderland")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("defaults.plist").path))
    }

    @Test("CastVideos' bundle renders its titles from a UTF-16 strings table")
    func castVideos() throws {
        let tmux = try TmuxSession(columns: 110, rows: 40)
        try launch(tmux, bundle: "CastVideos-ios", language: "en")
        _ = try tmux.waitForText("Enable media notifications")
        try tmux.press("q")
        _ = try tmux.waitForText("exit=0")
    }
}
