import Foundation
import Testing

/// Resume where you left off, with the real binary in tmux: every journey ends in a relaunch
/// whose first frame must already show the place it left.
@Suite("Restoration journeys in tmux", .whenEndToEndIsAskedFor)
struct RestorationJourneyTests {
    /// Characters tab filtered to the Cheshire Cat, notes editor open with `draft` typed.
    @Test("deep in the notes editor, Ctrl-C, relaunch at another size: the first frame is the editor with the draft and cursor")
    func deepPlaceAcrossResize() throws {
        let tmux = try TmuxSession(columns: 80, rows: 24)
        try tmux.launchApp()
        let draft = "Grins, then fad"
        try tmux.typeCheshireCatNote(draft)
        try tmux.press("C-c")
        try tmux.waitForText("exit=130")

        try tmux.resize(columns: 120, rows: 40)
        try tmux.waitFor("a 120×40 pane") { _ in (try? tmux.paneRows()) == 40 }
        let frame = try tmux.launchForFirstFrame()
        tmux.check(frame[1].contains("Characters › Cheshire Cat"))
        let noteRow = frame.firstIndex(of: " " + draft)
        tmux.check(noteRow != nil, "the draft is shown")
        tmux.check(frame[39].contains("Ln 1, Col \(draft.count + 1)"))
        tmux.check(frame[39].count > 80, "the hint bar spans the new width")
        let cursor = try tmux.cursor()
        tmux.check(cursor.x == 1 + draft.count && cursor.y == noteRow, "the cursor sits after the draft")

        // The draft keeps being edited where it was left.
        try tmux.type("es")
        try tmux.waitForText(draft + "es")
        try tmux.press("C-c")
        try tmux.waitForText("exit=130")
    }

    @Test("a scrolled list selection comes back on the same row, scrolled the same way")
    func scrolledListSelection() throws {
        let tmux = try TmuxSession(columns: 40, rows: 10)
        try tmux.launchApp()
        try tmux.type("2")
        try tmux.waitForText("▸ Alice")
        for _ in 0..<7 { try tmux.press("Down") }
        let before = try tmux.waitForText("▸ Bill the Lizard")
        #expect(!before.contains { $0.hasPrefix("  Alice  ") }, "the list scrolled")
        try tmux.type("q")
        try tmux.waitForText("exit=0")

        let frame = try tmux.launchForFirstFrame()
        tmux.check(Array(frame[0..<10]) == Array(before[0..<10]), "the same rows, the same selection")
        try tmux.press("Up")
        try tmux.waitForText("▸ Lory")
        try tmux.type("q")
        try tmux.waitForText("exit=0")
    }

    @Test("SIGHUP to the app (terminal closed): the place is saved and comes back")
    func hangupSaves() throws {
        let tmux = try TmuxSession(columns: 80, rows: 24)
        try tmux.launchApp()
        try tmux.typeCheshireCatNote("hung up on")
        let app = try tmux.appPID()
        kill(app, SIGHUP)
        try tmux.waitForText("exit=129")
        let frame = try tmux.launchForFirstFrame()
        tmux.check(frame[1].contains("Characters › Cheshire Cat"))
        tmux.check(frame.contains(" hung up on"))
        try tmux.press("C-c")
        try tmux.waitForText("exit=130")
    }

    @Test("tmux kill-pane with the app in it: the place is saved and comes back in a new terminal")
    func killPaneSaves() throws {
        let home = try HomeFolder()
        do {
            let tmux = try TmuxSession(columns: 80, rows: 24, home: home)
            try tmux.launchApp()
            try tmux.type("2")
            try tmux.waitForText("▸ Alice")
            for _ in 0..<4 { try tmux.press("Down") }
            try tmux.waitForText("▸ Mouse")
            let app = try tmux.appPID()
            _ = try? tmux.tmux(["kill-pane", "-t", "0"])  // the last pane: the server goes with it
            try waitForExit(of: app)
        }
        let tmux = try TmuxSession(columns: 80, rows: 24, home: home)
        let frame = try tmux.launchForFirstFrame()
        tmux.check(frame.contains("▸ Mouse  ch. 2"))
        try tmux.type("q")
        try tmux.waitForText("exit=0")
    }

    @Test("kill -9 after the idle autosave: the autosaved place comes back")
    func killAfterIdleAutosave() throws {
        let tmux = try TmuxSession(columns: 80, rows: 24)
        try tmux.launchApp()
        #expect(!FileManager.default.fileExists(atPath: tmux.archive.path))
        try tmux.typeCheshireCatNote("autosaved draft")
        try tmux.waitForArchive(containing: "autosaved draft")
        kill(try tmux.appPID(), SIGKILL)
        try tmux.waitForText("exit=137")
        let frame = try tmux.launchForFirstFrame()
        tmux.check(frame[1].contains("Characters › Cheshire Cat"))
        tmux.check(frame.contains(" autosaved draft"))
        try tmux.press("C-c")
        try tmux.waitForText("exit=130")
    }

    @Test("--fresh starts on the Map tab even with an archive; the log says why")
    func freshFlag() throws {
        let tmux = try TmuxSession(columns: 80, rows: 24)
        try tmux.launchApp()
        try tmux.type("3")
        try tmux.waitForText("wonderland --book PATH")
        try tmux.type("q")
        try tmux.waitForText("exit=0")
        #expect(FileManager.default.fileExists(atPath: tmux.archive.path))

        let frame = try tmux.launchForFirstFrame("--fresh", forbidding: "wonderland --book PATH")
        tmux.check(frame.joined().contains("Zoom 0/14"))
        try tmux.type("q")
        try tmux.waitForText("exit=0")
        let show = try tmux.wonderland("state", "show")
        #expect(show.output.contains("launch: not restored: --fresh was given"))
    }

    @Test("state reset, then the next launch starts fresh; the archive is kept as .previous")
    func stateReset() throws {
        let tmux = try TmuxSession(columns: 80, rows: 24)
        try tmux.launchApp()
        try tmux.type("3")
        try tmux.waitForText("wonderland --book PATH")
        try tmux.type("q")
        try tmux.waitForText("exit=0")

        let reset = try tmux.wonderland("state", "reset")
        #expect(reset.status == 0)
        #expect(reset.output.contains("the next launch starts fresh"))
        #expect(!FileManager.default.fileExists(atPath: tmux.archive.path))
        #expect(FileManager.default.fileExists(atPath: tmux.stateFolder.appendingPathComponent("restoration.archive.previous").path))

        let frame = try tmux.launchForFirstFrame(forbidding: "wonderland --book PATH")
        tmux.check(frame.joined().contains("Zoom 0/14"))
        try tmux.type("q")
        try tmux.waitForText("exit=0")
    }

    @Test("a corrupt archive: fresh start, the alert once, the garbage kept as restoration.archive.corrupt-*")
    func corruptArchive() throws {
        let tmux = try TmuxSession(columns: 80, rows: 24)
        let garbage = Data("bplist00 this is not an archive \u{1}\u{2}\u{3}".utf8) + Data((0..<64).map { UInt8($0 * 7 & 0xff) })
        try FileManager.default.createDirectory(at: tmux.stateFolder, withIntermediateDirectories: true)
        try garbage.write(to: tmux.archive)

        let frame = try tmux.launchForFirstFrame(forbidding: nil)
        tmux.check(frame.joined().contains("Zoom 0/14"))
        try tmux.waitForText("Starting fresh")
        let aside = tmux.stateFiles().filter { $0.hasPrefix("restoration.archive.corrupt-") }
        #expect(aside.count == 1)
        if let name = aside.first {
            #expect(try Data(contentsOf: tmux.stateFolder.appendingPathComponent(name)) == garbage, "moved aside byte for byte")
        }
        try tmux.press("Enter")  // closes the alert
        try tmux.type("2")
        try tmux.waitForText("▸ Alice")
        try tmux.type("q")
        try tmux.waitForText("exit=0")

        // Told once: the next launch restores the new save and shows no alert (a modal alert
        // would swallow the "3" below).
        let second = try tmux.launchForFirstFrame()
        tmux.check(second.contains("▸ Alice  ch. 1"))
        try tmux.type("3")
        try tmux.waitForText("wonderland --book PATH")
        tmux.check(!(try tmux.screen()).joined().contains("Starting fresh"))
        try tmux.type("q")
        try tmux.waitForText("exit=0")
        #expect(tmux.stateFiles().filter { $0.hasPrefix("restoration.archive.corrupt-") }.count == 1)
    }

    @Test("a leftover crash marker skips restoring once, keeps the archive, and the launch after restores")
    func leftoverCrashMarker() throws {
        let tmux = try TmuxSession(columns: 80, rows: 24)
        try tmux.launchApp()
        try tmux.type("2")
        try tmux.waitForText("▸ Alice")
        try tmux.press("Down")
        try tmux.waitForText("▸ White Rabbit")
        try tmux.type("q")
        try tmux.waitForText("exit=0")
        let saved = try Data(contentsOf: tmux.archive)

        let marker = tmux.stateFolder.appendingPathComponent("restoration.restoring")
        try Data("restoring since then, pid 1\n".utf8).write(to: marker)
        let frame = try tmux.launchForFirstFrame(forbidding: "White Rabbit")
        tmux.check(frame.joined().contains("Zoom 0/14"))
        try tmux.waitForText("stopped while restoring")
        #expect(!FileManager.default.fileExists(atPath: marker.path), "the marker is gone after the first frame")
        // Leave without touching anything. The alert on screen must not be saved over the kept
        // place: an idle save would come 0.5 s after the alert's frame, so give it three ticks
        // (proving an absence needs a wait; nothing here is timed).
        usleep(1_500_000)
        kill(try tmux.appPID(), SIGKILL)
        try tmux.waitForText("exit=137")
        #expect(try Data(contentsOf: tmux.archive) == saved, "the saved place is kept")

        let again = try tmux.launchForFirstFrame()
        tmux.check(again.contains("▸ White Rabbit  ch. 1 · Rabbit"))
        tmux.check(!(try tmux.screen()).joined().contains("Starting fresh"))
        try tmux.type("q")
        try tmux.waitForText("exit=0")
    }

    @Test("state show prints identifier paths, restoration classes and the draft; state path prints the path")
    func stateShowAndPath() throws {
        let tmux = try TmuxSession(columns: 80, rows: 24)
        try tmux.launchApp()
        try tmux.typeCheshireCatNote("a note to show")
        try tmux.press("C-c")
        try tmux.waitForText("exit=130")

        let show = try tmux.wonderland("state", "show")
        #expect(show.status == 0)
        let lines = show.output.components(separatedBy: "\n")
        #expect(lines.contains("Archive: \(tmux.archive.path)"))
        for path in ["RootTabBar", "RootTabBar/Map", "RootTabBar/Characters", "RootTabBar/Characters/CharacterList", "RootTabBar/Book"] {
            #expect(lines.contains("  \(path)"), "shows \(path)")
        }
        #expect(lines.contains("  RootTabBar/Characters/CharacterDetail  [restoration class CharacterDetail]"))
        #expect(lines.contains("      text = \"a note to show\""))
        #expect(lines.contains("      selectedID = \"cheshire-cat\""))
        #expect(lines.contains("      characterID = \"cheshire-cat\""))
        #expect(show.output.contains("save") || show.output.contains("launch: not restored: no saved archive"))

        let path = try tmux.wonderland("state", "path")
        #expect(path.status == 0)
        #expect(path.output == tmux.archive.path + "\n")
    }
}
