import Foundation
import Testing

/// F1 as a terminal sends it reaches help over a prompt, with the real binary in tmux, and the
/// prompt keeps its text underneath.
@Suite("Help over prompts in tmux", .whenEndToEndIsAskedFor)
struct HelpJourneyTests {
    @Test("F1 in Find a place shows its keys; Esc goes back to the name as typed")
    func f1OverThePlaceFinder() throws {
        let tmux = try TmuxSession(columns: 80, rows: 30)
        try tmux.launchApp()
        try tmux.waitForText("Zoom")
        try tmux.type("/")
        try tmux.waitForText("Find a place")
        try tmux.type("par")
        try tmux.waitForText("Name: par")
        try tmux.press("F1")
        let help = try tmux.waitForText("Keys: Find a place")
        tmux.check(help.joined().contains("Delete the word before the cursor"), "the field's keys are listed")
        try tmux.press("Escape")
        let back = try tmux.waitFor("the help closed") { !$0.joined().contains("Keys: Find a place") }
        tmux.check(back.joined().contains("Name: par"), "the finder and its name are still there")
        try tmux.press("Escape")
        _ = try tmux.waitFor("the finder closed") { !$0.joined().contains("Name: par") }
        try tmux.quitApp()
    }
}
