import Testing
@testable import Screens
import ScreensTesting
import Terminal

/// Bytes as terminals send them, through the headless terminal's decoder into real screens.
@Suite("Raw terminal input")
struct RawInputTests {
    static let tmuxHome: [UInt8] = [0x1B, 0x5B, 0x31, 0x7E]
    static let unknown: [UInt8] = [0x1B, 0x5B, 0x39, 0x39, 0x7A]

    /// An editor pushed on a navigation stack, over a list: Esc there would go back.
    func editorPilot(text: String) throws -> (Pilot, NavigationStack, TextEditorScreen) {
        let editor = TextEditorScreen(title: "Notes", text: text)
        let stack = NavigationStack(root: RecordingScreen("Home", log: CallLog()))
        let pilot = Pilot(stack, columns: 40, rows: 12)
        stack.push(editor)
        try pilot.sendBytes(Array("\u{1B}[F".utf8))  // xterm's End
        return (pilot, stack, editor)
    }

    @Test func tmuxHomeInTheEditorMovesToTheLineStartAndKeepsTheEditorOpen() throws {
        let (pilot, stack, editor) = try editorPilot(text: "Alice")
        #expect(editor.state.column == 5)
        try pilot.sendBytes(Self.tmuxHome)
        #expect(stack.topScreen === editor)
        #expect(editor.state.text == "Alice")
        #expect(editor.state.column == 0)
        try pilot.sendBytes(Array("X".utf8))
        #expect(editor.state.text == "XAlice")
    }

    @Test func aLoneEscStillGoesBack() throws {
        let (pilot, stack, editor) = try editorPilot(text: "Alice")
        try pilot.sendBytes([0x1B])
        #expect(stack.topScreen !== editor)
    }

    @Test func anUnknownSequenceInTheEditorDoesNothing() throws {
        let (pilot, stack, editor) = try editorPilot(text: "Alice")
        try pilot.sendBytes(Self.unknown)
        #expect(stack.topScreen === editor)
        #expect(editor.state.text == "Alice")
        #expect(editor.state.column == 5)
    }

    final class Answers { var values: [String?] = [] }

    /// A prompt presented over a plain screen; its answers are kept.
    func promptPilot() -> (Pilot, Answers) {
        let root = RecordingScreen("Root", log: CallLog())
        let pilot = Pilot(root, columns: 40, rows: 12)
        let answers = Answers()
        root.present(Prompt(title: "Title", message: "Name it") { answers.values.append($0) })
        return (pilot, answers)
    }

    @Test func tmuxHomeInAPromptKeepsTheTypedText() throws {
        let (pilot, results) = promptPilot()
        try pilot.type("Chapter")
        try pilot.sendBytes(Self.tmuxHome + Self.unknown + Array("My ".utf8))
        #expect(pilot.app.modals.count == 1)
        try pilot.press(.enter)
        #expect(results.values == ["My Chapter"])
    }

    @Test func aPasteIntoTheEditorKeepsItsLinesAndActsOnNothing() throws {
        let (pilot, stack, editor) = try editorPilot(text: "")
        try pilot.paste("first line\r\nq second\r\u{1B}[1~third")
        #expect(stack.topScreen === editor)
        #expect(pilot.app.terminationReason == nil)
        #expect(editor.state.text == "first line\nq second\n\u{1B}[1~third")
        #expect((editor.state.line, editor.state.column) == (2, 9))
        // Drawn through the sanitiser: the Esc shows as a stand-in, never reaches the screen.
        #expect(!pilot.terminal.text.contains("\u{1B}"))
    }

    @Test func aPasteIntoAPromptIsOneLine() throws {
        let (pilot, results) = promptPilot()
        try pilot.paste("two\nlines\tand a tab")
        try pilot.press(.enter)
        #expect(results.values == ["two lines and a tab"])
    }

    @Test func aPasteIntoAListFilterIsFilterText() throws {
        let list = ListScreen(title: "Items", items: numberedItems(30))
        let pilot = Pilot(list, columns: 40, rows: 12)
        try pilot.type("/")
        try pilot.paste("Item 2\n")
        #expect(list.state.filter.text == "Item 2 ")
    }

    @Test func aBigPasteIsOneChangeAndOneFrame() throws {
        let (pilot, _, editor) = try editorPilot(text: "")
        var changes = 0
        editor.onChange = { _ in changes += 1 }
        let line = String(repeating: "All in the golden afternoon ", count: 3) + "\n"  // 85 bytes
        let text = String(repeating: line, count: 1_200)                               // 102 KB
        let framesBefore = pilot.app.framesRendered
        try pilot.paste(text)
        #expect(editor.state.text == text)
        #expect(changes == 1)
        #expect(pilot.app.framesRendered == framesBefore + 1)
    }

    @Test func wordMotionInTheEditorFromXtermTmuxAndRxvtBytes() throws {
        let (pilot, _, editor) = try editorPilot(text: "down the rabbit-hole")
        try pilot.sendBytes(Array("\u{1B}[1;5D".utf8))  // xterm Ctrl-←
        #expect(editor.state.column == 16)                // before "hole"
        try pilot.sendBytes(Array("\u{1B}\u{1B}[D".utf8)) // tmux Alt-← without xterm keys
        #expect(editor.state.column == 9)                 // before "rabbit"
        try pilot.sendBytes(Array("\u{1B}b".utf8))        // Alt-b
        #expect(editor.state.column == 5)
        try pilot.sendBytes(Array("\u{1B}Oc".utf8))       // rxvt Ctrl-→
        #expect(editor.state.column == 8)
        try pilot.sendBytes(Array("\u{1B}f".utf8))        // Alt-f
        #expect(editor.state.column == 15)
    }

    @Test func wordMotionAndWordDeleteInAPrompt() throws {
        let (pilot, results) = promptPilot()
        try pilot.type("the Cheshire Cat")
        try pilot.sendBytes(Array("\u{1B}[1;3D".utf8))   // xterm Alt-←
        try pilot.sendBytes(Array("\u{1B}\u{7F}".utf8))  // Alt-Backspace: "Cheshire " goes
        try pilot.press(.control("a"))
        try pilot.sendBytes(Array("\u{1B}[1;5C".utf8))   // Ctrl-→ to the end of "the"
        try pilot.type("!")
        try pilot.press(.control("e"), .control("w"))      // Ctrl-W: the last word goes
        try pilot.type("Queen")
        try pilot.press(.enter)
        #expect(results.values == ["the! Queen"])
    }

    @Test func helpScrollsByKeysAndWheel() throws {
        let list = ListScreen(title: "Items", items: numberedItems(3))
        let pilot = Pilot(list, columns: 40, rows: 10)
        try pilot.type("?")
        let firstShown = pilot.content
        try pilot.sendBytes(Array("\u{1B}[4~".utf8))  // tmux End
        let lastShown = pilot.content
        #expect(lastShown != firstShown)
        #expect(pilot.app.modals.count == 1)
        try pilot.sendBytes(Array("\u{1B}[7~".utf8))  // rxvt Home
        #expect(pilot.content == firstShown)
        try pilot.wheel(down: true, x: 20, y: 5)
        #expect(pilot.content != firstShown)
        try pilot.wheel(down: false, x: 20, y: 5)
        #expect(pilot.content == firstShown)
    }
}
