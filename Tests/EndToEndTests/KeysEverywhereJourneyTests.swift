import Foundation
import Testing

extension TmuxSession {
    /// Bytes exactly as a terminal would send them (`send-keys -H`).
    func sendRaw(_ bytes: [UInt8]) throws {
        try tmux(["send-keys", "-t", "0", "-H"] + bytes.map { String(format: "%02x", $0) })
    }

    func sendRaw(_ text: String) throws { try sendRaw(Array(text.utf8)) }

    /// Pastes `text` the way tmux pastes its buffer into an app that asked for bracketed paste.
    func pasteBuffer(_ text: String) throws {
        let file = home.appendingPathComponent("paste-\(UUID().uuidString.prefix(6)).txt")
        try Data(text.utf8).write(to: file)
        try tmux(["load-buffer", file.path])
        try tmux(["paste-buffer", "-p", "-t", "0"])
    }
}

/// The same keys in every place, as a terminal sends them: tmux's Home and End in a prompt and
/// the notes editor, ^A/^E and the wheel in a list, a paste into a prompt and a filter.
@Suite("Keys everywhere in tmux")
struct KeysEverywhereJourneyTests {
    static let home: [UInt8] = [0x1B, 0x5B, 0x31, 0x7E]  // ESC [ 1 ~, tmux and screen
    static let end: [UInt8] = [0x1B, 0x5B, 0x34, 0x7E]   // ESC [ 4 ~

    /// The Book tab with the Open prompt up (no book open: the field starts empty).
    private func openPrompt(columns: Int = 80, rows: Int = 24) throws -> TmuxSession {
        let tmux = try TmuxSession(columns: columns, rows: rows)
        try tmux.launchApp()
        try tmux.type("3")
        try tmux.waitForText("o Open")
        try tmux.type("o")
        try tmux.waitForText("Open a book")
        return tmux
    }

    private func quit(_ tmux: TmuxSession) throws {
        try tmux.type("q")
        try tmux.waitForText("exit=0")
    }

    /// The text between the borders of the prompt's box on its field row.
    private func fieldText(_ screen: [String], below message: String) -> String? {
        guard let row = screen.firstIndex(where: { $0.contains(message) }), row + 2 < screen.count else { return nil }
        let line = screen[row + 2]
        guard let first = line.firstIndex(of: "│"), let last = line.lastIndex(of: "│"), first < last else { return nil }
        return line[line.index(after: first)..<last].trimmingCharacters(in: .whitespaces)
    }

    @Test("Home and End as tmux sends them (ESC [ 1 ~, ESC [ 4 ~) in a prompt: the typed text is kept, nothing stray")
    func homeAndEndInAPrompt() throws {
        let tmux = try openPrompt()
        try tmux.type("rabbit-hole")
        try tmux.waitForText("rabbit-hole")
        try tmux.sendRaw(Self.home)
        try tmux.type("/down/the/")
        try tmux.sendRaw(Self.end)
        try tmux.type(".txt")
        let screen = try tmux.waitForText("/down/the/rabbit-hole.txt")
        tmux.check(screen.contains { $0.contains("Open a book") }, "the prompt is still open")
        tmux.check(!screen.joined().contains("1~") && !screen.joined().contains("4~"), "no stray characters")
        tmux.check(!screen.contains { $0.contains("Zoom") }, "the 1 did not switch to the Map")
        try tmux.press("Escape")
        try tmux.waitFor("the prompt gone") { !$0.joined().contains("Open a book") }
        try quit(tmux)
    }

    @Test("End as tmux sends it in the notes editor goes to the line's end; the editor stays open")
    func endInTheNotesEditor() throws {
        let tmux = try TmuxSession(columns: 80, rows: 24)
        try tmux.launchApp()
        try tmux.type("2")
        try tmux.waitForText("▸ Alice")
        try tmux.press("Enter")
        try tmux.waitForText("Characters › Alice")
        try tmux.type("e")
        try tmux.waitForText("Notes (editing")
        try tmux.type("Curiouser")
        try tmux.sendRaw(Self.home)
        try tmux.waitFor("the cursor at the line start") { $0[23].hasSuffix("Ln 1, Col 1") }
        try tmux.sendRaw(Self.end)
        try tmux.type(" and curiouser")
        let screen = try tmux.waitFor("the words and the cursor after them") {
            $0.contains(" Curiouser and curiouser") && $0[23].hasSuffix("Ln 1, Col 24")
        }
        tmux.check(screen.contains { $0.hasPrefix("─ Notes (editing") }, "still editing")
        try tmux.press("Escape")
        try tmux.waitForText("Notes (e to edit)")
        try quit(tmux)
    }

    @Test("a list: ^E and End go to the last row, ^A and Home to the first, the wheel moves three")
    func listMotion() throws {
        let tmux = try TmuxSession(columns: 80, rows: 24)
        try tmux.launchApp()
        try tmux.type("2")
        try tmux.waitForText("▸ Alice")
        try tmux.sendRaw([0x05])  // Ctrl-E
        try tmux.waitForText("▸ Mock Turtle")
        try tmux.sendRaw([0x01])  // Ctrl-A
        try tmux.waitForText("▸ Alice")
        try tmux.sendRaw(Self.end)
        try tmux.waitForText("▸ Mock Turtle")
        try tmux.sendRaw(Self.home)
        try tmux.waitForText("▸ Alice")
        try tmux.sendRaw("\u{1B}[<65;10;6M")  // SGR wheel down over the list
        try tmux.waitForText("▸ Alice's Sister")
        try tmux.sendRaw("\u{1B}[<64;10;6M")  // and up
        let screen = try tmux.waitForText("▸ Alice ")
        tmux.check(screen[0].contains("1 Map"), "the tab bar is intact")
        try quit(tmux)
    }

    @Test("a paste into a list's filter is filter text, its line break a space")
    func pasteIntoAFilter() throws {
        let tmux = try TmuxSession(columns: 80, rows: 24)
        try tmux.launchApp()
        try tmux.type("2")
        try tmux.waitForText("▸ Alice")
        try tmux.type("/")
        try tmux.sendRaw("\u{1B}[200~Mock\r\nTurtle\u{1B}[201~")
        let screen = try tmux.waitForText("▸ Mock Turtle")
        tmux.check(screen.contains { $0.contains("Mock Turtle") && $0.hasPrefix(" /") }, "the filter reads “Mock Turtle”")
        try tmux.press("Escape")  // clears the filter; the selection stays on the Mock Turtle
        try tmux.waitFor("the whole list again") { lines in lines.contains { $0.hasPrefix("  Dinah  ") } && lines.joined().contains("▸ Mock Turtle") && !lines.joined().contains("/22") }
        try quit(tmux)
    }

    @Test("a 40 KB paste into a prompt is one line of text: its q and line breaks do nothing")
    func bigPasteIntoAPrompt() throws {
        let tmux = try openPrompt()
        try tmux.pasteBuffer(String(repeating: "golden afternoon\n", count: 2_400) + "q the end")
        let screen = try tmux.waitFor("the end of the paste in the field", timeout: 20) { $0.joined().contains("golden afternoon q the end") }
        tmux.check(screen.contains { $0.contains("Open a book") }, "the prompt is still open")
        try tmux.press("Escape")
        try tmux.waitFor("the prompt gone") { !$0.joined().contains("Open a book") }
        try quit(tmux)
    }

    @Test("the help overlay at 40×10 scrolls: End and the wheel show its last keys, Home its first")
    func helpScrollsAtFortyByTen() throws {
        let tmux = try TmuxSession(columns: 40, rows: 10)
        try tmux.launchApp()
        try tmux.type("?")
        let first = try tmux.waitForText("Keys: Map")
        tmux.check(!first.joined().contains("Quit (from"), "the last key is out of sight at first")
        try tmux.sendRaw(Self.end)
        try tmux.waitForText("Quit (from")
        try tmux.sendRaw(Self.home)
        try tmux.waitFor("the first rows again") { $0 == first }
        for _ in 0..<12 { try tmux.sendRaw("\u{1B}[<65;20;5M") }
        try tmux.waitForText("Quit (from")
        try tmux.press("Escape")
        try tmux.waitFor("help closed") { !$0.joined().contains("Keys: Map") }
        try quit(tmux)
    }
}
