import Foundation
import Testing

/// The same keys in every place, as a terminal sends them: tmux's Home and End in a prompt and
/// the notes editor, ^A/^E and the wheel in a list, a paste into a prompt and a filter.
@Suite("Keys everywhere in tmux", .whenEndToEndIsAskedFor)
struct KeysEverywhereJourneyTests {
    static let home: [UInt8] = [0x1B, 0x5B, 0x31, 0x7E]  // ESC [ 1 ~, tmux and screen
    static let end: [UInt8] = [0x1B, 0x5B, 0x34, 0x7E]   // ESC [ 4 ~

    private func openPrompt() throws -> TmuxSession {
        let tmux = try TmuxSession(columns: 80, rows: 24)
        try tmux.launchApp()
        try tmux.openBookPrompt()
        return tmux
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
        try tmux.quitApp()
    }

    @Test("End as tmux sends it in the notes editor goes to the line's end, the editor stays open; a click places the cursor")
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
        // A click on a word places the cursor before it.
        let row = try #require(screen.firstIndex(of: " Curiouser and curiouser"))
        try tmux.click(x: 11, y: row)
        try tmux.waitFor("the cursor where the click was") { $0[23].hasSuffix("Ln 1, Col 11") }
        try tmux.type("so ")
        try tmux.waitForText(" Curiouser so and curiouser")
        try tmux.press("Escape")
        try tmux.waitForText("Notes (e to edit)")
        try tmux.quitApp()
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
        try tmux.quitApp()
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
        try tmux.quitApp()
    }

    @Test("a 40 KB paste into a prompt is one line of text: its q and line breaks do nothing")
    func bigPasteIntoAPrompt() throws {
        let tmux = try openPrompt()
        try tmux.pasteBuffer(String(repeating: "golden afternoon\n", count: 2_400) + "q the end")
        let screen = try tmux.waitFor("the end of the paste in the field", timeout: 20) { $0.joined().contains("golden afternoon q the end") }
        tmux.check(screen.contains { $0.contains("Open a book") }, "the prompt is still open")
        try tmux.press("Escape")
        try tmux.waitFor("the prompt gone") { !$0.joined().contains("Open a book") }
        try tmux.quitApp()
    }

    @Test("the help overlay at 40×10 scrolls: End and the wheel show its last keys, Home its first")
    func helpScrollsAtFortyByTen() throws {
        let tmux = try TmuxSession(columns: 40, rows: 10)
        try tmux.launchApp()
        try tmux.type("?")
        // The whole frame: a capture can fall between the rows of one.
        let first = try tmux.waitFor("the help's first rows") { $0.last { !$0.isEmpty } == "Esc Close help" && $0.contains { $0.contains("Pan (vi keys)") } }
        tmux.check(!first.joined().contains("Quit (from"), "the last key is out of sight at first")
        try tmux.sendRaw(Self.end)
        try tmux.waitForText("Quit (from")
        try tmux.sendRaw(Self.home)
        try tmux.waitFor("the first rows again") { $0 == first }
        for _ in 0..<12 { try tmux.sendRaw("\u{1B}[<65;20;5M") }
        try tmux.waitForText("Quit (from")
        try tmux.press("Escape")
        try tmux.waitFor("help closed") { !$0.joined().contains("Keys: Map") }
        try tmux.quitApp()
    }
}
