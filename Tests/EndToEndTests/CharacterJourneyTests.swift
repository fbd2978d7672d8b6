import Foundation
import Testing

/// The Characters tab with the real binary in tmux: a half-written note survives the terminal
/// closing, and a finished one is kept in the defaults.
@Suite("Character journeys in tmux", .whenEndToEndIsAskedFor)
struct CharacterJourneyTests {
    @Test("filter, open a character, half a note, SIGHUP: the relaunch's first frame is that detail with the draft and its cursor")
    func halfWrittenNoteSurvivesTheTerminalClosing() throws {
        let tmux = try TmuxSession(columns: 80, rows: 24)
        try tmux.launchApp()
        try tmux.type("2")
        try tmux.waitForText("▸ Alice")
        try tmux.type("/mock")
        try tmux.waitForText("▸ Mock Turtle")
        try tmux.press("Enter")
        try tmux.waitForText("Characters › Mock Turtle")
        try tmux.waitForText("Chapters: the book is not here (wonderland --book PATH).")
        try tmux.type("e")
        try tmux.waitForText("Notes (editing")
        let draft = "Sobs about his school days, and sings of"
        try tmux.type(draft)
        try tmux.waitForText(draft)

        kill(try tmux.appPID(), SIGHUP)  // what the terminal closing sends
        try tmux.waitForText("exit=129")

        let frame = try tmux.launchForFirstFrame()
        tmux.check(frame[1] == " Characters › Mock Turtle", "the detail is back")
        tmux.check(frame[2] == " Mock Turtle")
        let noteRow = frame.firstIndex(of: " " + draft)
        tmux.check(noteRow != nil, "the half-written note is back")
        tmux.check(noteRow.map { frame[$0 - 1].hasPrefix("─ Notes (editing") } == true, "still editing")
        tmux.check(frame[23].hasSuffix("Ln 1, Col \(draft.count + 1)"))
        let cursor = try tmux.cursor()
        tmux.check(cursor.x == 1 + draft.count && cursor.y == noteRow, "the cursor sits after the draft")

        // Finish the sentence, leave the editor (which saves), go back: the list is still filtered.
        try tmux.type(" soup")
        try tmux.waitForText(draft + " soup")
        try tmux.press("Escape")
        try tmux.waitForText("Notes (e to edit)")
        try tmux.press("Escape")
        try tmux.waitForText(" / mock")
        try tmux.type("q")
        try tmux.waitForText("exit=0")
        let notes = try tmux.wonderland("collections", "export", "WLCharacterNotes")
        #expect(notes.status == 0)
        #expect(notes.output.contains("mock-turtle"), "\(notes.output)")
        #expect(notes.output.contains(draft + " soup"), "\(notes.output)")

        // And the saved note shows on the next visit, in reading mode.
        let again = try tmux.launchForFirstFrame()
        tmux.check(again.contains("▸ Mock Turtle  ch. 9"))
        try tmux.press("Enter")
        try tmux.waitForText(" " + draft + " soup")
        try tmux.type("q")
        try tmux.waitForText("exit=0")
    }
}
