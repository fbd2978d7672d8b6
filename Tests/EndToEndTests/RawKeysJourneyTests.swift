import Foundation
import Testing

/// The real binary in tmux, fed the very bytes terminals send (`send-keys -H`): tmux's Home,
/// a sequence nobody knows and a bracketed paste reach the notes editor as what they are.
@Suite("Raw key bytes in tmux", .whenEndToEndIsAskedFor)
struct RawKeysJourneyTests {
    /// Opens the Mock Turtle's notes for editing, with `text` typed.
    private func openNotes(typing text: String) throws -> TmuxSession {
        let tmux = try TmuxSession(columns: 80, rows: 24)
        try tmux.launchApp()
        try tmux.type("2")
        try tmux.waitForText("▸ Alice")
        try tmux.type("/mock")
        try tmux.waitForText("▸ Mock Turtle")
        try tmux.press("Enter")
        try tmux.waitForText("Characters › Mock Turtle")
        try tmux.type("e")
        try tmux.waitForText("Notes (editing")
        try tmux.type(text)
        try tmux.waitForText(text)
        return tmux
    }

    /// Esc leaves the editor (which saves the notes), then `q` quits.
    private func saveNotesAndQuit(_ tmux: TmuxSession) throws {
        try tmux.press("Escape")
        try tmux.waitForText("Notes (e to edit)")
        try tmux.type("q")
        try tmux.waitForText("exit=0")
    }

    private func sendBytes(_ tmux: TmuxSession, _ bytes: [UInt8]) throws {
        _ = try tmux.tmux(["send-keys", "-t", "0", "-H"] + bytes.map { String(format: "%02x", $0) })
    }

    @Test("Home as tmux sends it (ESC [ 1 ~) moves to the line start; the editor stays open with its text")
    func tmuxHomeInTheNotesEditor() throws {
        let tmux = try openNotes(typing: "Sings of soup")
        try sendBytes(tmux, [0x1B, 0x5B, 0x31, 0x7E])
        try tmux.waitFor("cursor at the line start") { $0[23].hasSuffix("Ln 1, Col 1") }
        try tmux.type(">")
        let screen = try tmux.waitForText(">Sings of soup")
        tmux.check(screen.contains { $0.hasPrefix("─ Notes (editing") }, "still editing")
        tmux.check(screen[1] == " Characters › Mock Turtle", "still on the Characters tab, not the Map")
        try saveNotesAndQuit(tmux)
    }

    @Test("an unknown sequence (ESC [ 9 9 z) does nothing at all")
    func unknownSequenceDoesNothing() throws {
        let tmux = try openNotes(typing: "Beautiful Soup")
        try sendBytes(tmux, [0x1B, 0x5B, 0x39, 0x39, 0x7A])
        try tmux.type("!")
        // Waits for the status too: a capture can fall between the rows of one frame.
        let screen = try tmux.waitFor("the ! and its column") { $0.contains(" Beautiful Soup!") && $0[23].hasSuffix("Ln 1, Col 16") }
        tmux.check(screen.contains { $0.hasPrefix("─ Notes (editing") }, "still editing")
        tmux.check(!screen.joined().contains("99z"), "no stray characters")
        try saveNotesAndQuit(tmux)
    }

    @Test("a bracketed paste of several lines arrives whole, its q and line breaks as text")
    func pasteOfSeveralLines() throws {
        let tmux = try openNotes(typing: "Lobster Quadrille:")
        let pasted = "\r\nWill you, won't you,\r\nq will you join the dance?\r\nthe end"
        try sendBytes(tmux, Array(("\u{1B}[200~" + pasted + "\u{1B}[201~").utf8))
        let screen = try tmux.waitFor("the paste and the cursor after it") { $0.contains(" the end") && $0[23].hasSuffix("Ln 4, Col 8") }
        tmux.check(screen.contains(" Lobster Quadrille:"))
        tmux.check(screen.contains(" Will you, won't you,"))
        tmux.check(screen.contains(" q will you join the dance?"))
        try saveNotesAndQuit(tmux)
        let notes = try tmux.wonderland("collections", "export", "WLCharacterNotes")
        #expect(notes.output.contains("q will you join the dance?"), "\(notes.output)")
    }

    @Test("the app turns bracketed paste on: tmux's own paste of 100 KB arrives as one paste, none of it typed as keys")
    func tmuxPasteBufferOfAHundredKilobytes() throws {
        let tmux = try openNotes(typing: "Poem:")
        let line = "All in the golden afternoon, full leisurely we glide;\n"
        let file = tmux.home.appendingPathComponent("poem.txt")
        try (String(repeating: line, count: 1_900) + "q the end").write(to: file, atomically: true, encoding: .utf8)
        _ = try tmux.tmux(["load-buffer", file.path])
        // -p brackets the paste only when the app asked for it; without the markers the `q`
        // and the rest would be typed keys.
        _ = try tmux.tmux(["paste-buffer", "-p", "-t", "0"])
        try tmux.waitFor("the whole paste, the cursor after it", timeout: 20) {
            $0.contains(" q the end") && $0[23].hasSuffix("Ln 1901, Col 10")
        }
        try saveNotesAndQuit(tmux)
    }
}
