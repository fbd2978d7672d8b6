import Testing
@testable import Screens
import ScreensTesting
import Terminal

@Suite("TextEditorState")
struct TextEditorStateTests {
    @Test func insertsAndSplitsLines() {
        var state = TextEditorState()
        state.insert("Hello World")
        #expect(state.text == "Hello World")
        #expect(state.column == 11)
        state.moveTo(line: 0, column: 5)
        state.insertNewline()
        #expect(state.paragraphs == ["Hello", " World"])
        #expect((state.line, state.column) == (1, 0))
        state.insert("\n")  // a newline character is a line break too
        #expect(state.text == "Hello\n\n World")
    }

    @Test func backspaceJoinsLinesAtTheStart() {
        var state = TextEditorState(text: "ab\ncd", line: 1, column: 0)
        state.deleteBackward()
        #expect(state.text == "abcd")
        #expect((state.line, state.column) == (0, 2))
        state.moveTo(line: 0, column: 0)
        state.deleteBackward()  // nothing before the start
        #expect(state.text == "abcd")
    }

    @Test func deleteForwardJoinsLinesAtTheEnd() {
        var state = TextEditorState(text: "ab\ncd", line: 0, column: 2)
        state.deleteForward()
        #expect(state.text == "abcd")
        state.moveToLineEnd()
        state.deleteForward()
        #expect(state.text == "abcd")
        state.moveTo(line: 0, column: 1)
        state.deleteForward()
        #expect(state.text == "acd")
    }

    @Test func leftAndRightCrossLineBreaks() {
        var state = TextEditorState(text: "ab\ncd", line: 1, column: 0)
        state.moveLeft()
        #expect((state.line, state.column) == (0, 2))
        state.moveRight()
        #expect((state.line, state.column) == (1, 0))
        state.moveToLineEnd()
        state.moveRight()
        #expect((state.line, state.column) == (1, 2))
        state.moveTo(line: 0, column: 0)
        state.moveLeft()
        #expect((state.line, state.column) == (0, 0))
    }

    @Test func killToLineEndRemovesTheRestOrTheBreak() {
        var state = TextEditorState(text: "Hello World\nnext", line: 0, column: 5)
        state.killToLineEnd()
        #expect(state.text == "Hello\nnext")
        state.killToLineEnd()
        #expect(state.text == "Hellonext")
    }

    @Test func countsGraphemeClustersNotScalars() {
        var state = TextEditorState(text: "cafe\u{301}🇫🇷")
        #expect(state.paragraphs[0].count == 5)  // c a f é 🇫🇷
        state.moveToLineEnd()
        state.deleteBackward()
        #expect(state.text == "cafe\u{301}")
        state.deleteBackward()
        #expect(state.text == "caf")
    }

    @Test func initClampsTheCursor() {
        let state = TextEditorState(text: "ab\ncd", line: 9, column: 9)
        #expect((state.line, state.column) == (1, 2))
        #expect(TextEditorState(text: "").paragraphs == [""])
    }

    @Test func crlfTextIsSplitIntoLines() {
        // "\r\n" is one Character in Swift: splitting on "\n" alone would keep it inside a line.
        let state = TextEditorState(text: "one\r\ntwo\rthree\nfour")
        #expect(state.paragraphs == ["one", "two", "three", "four"])
        #expect(state.text == "one\ntwo\nthree\nfour")
    }
}

@Suite("TextEditorScreen")
struct TextEditorScreenTests {
    /// The editor as the root of a 40×12 app: text rows 0...10 from x 1, 38 columns wide.
    private func pilot(_ text: String = "") -> (Pilot, TextEditorScreen) {
        let editor = TextEditorScreen(title: "Notes", text: text)
        return (Pilot(editor), editor)
    }

    @Test func showsThePlaceholderWhenEmpty() {
        let (pilot, _) = pilot()
        #expect(pilot.lines[0] == " Type here.")
        #expect(pilot.style(of: "Type here.", row: 0) == .plain, "not faint: faint text does not read on every terminal")
        #expect(pilot.cursor == Point(x: 1, y: 0))
    }

    @Test func typingInsertsTextAndMovesTheCursor() throws {
        let (pilot, editor) = pilot()
        var changes: [String] = []
        editor.onChange = { changes.append($0.text) }
        try pilot.type("Hello")
        #expect(pilot.lines[0] == " Hello")
        #expect(pilot.cursor == Point(x: 6, y: 0))
        #expect(pilot.hintBar.hasSuffix(" Ln 1, Col 6"))
        try pilot.press(.enter)
        try pilot.type("World")
        #expect(Array(pilot.lines[0...2]) == [" Hello", " World", ""])
        #expect(editor.state.text == "Hello\nWorld")
        #expect(pilot.cursor == Point(x: 6, y: 1))
        #expect(changes.last == "Hello\nWorld")
        #expect(changes.count == 11)
    }

    @Test func backspaceAndDeleteEditAcrossLines() throws {
        let (pilot, editor) = pilot("Hello\nWorld")
        try pilot.press(.down, .home, .backspace)
        #expect(editor.state.text == "HelloWorld")
        #expect(pilot.cursor == Point(x: 6, y: 0))
        try pilot.press(.delete, .control("d"))
        #expect(pilot.lines[0] == " Hellorld")
        try pilot.press(.end, .delete)  // nothing after the last line
        #expect(editor.state.text == "Hellorld")
    }

    @Test func arrowsMoveAcrossLines() throws {
        let (pilot, editor) = pilot("ab\ncd")
        try pilot.press(.right, .right, .right)
        #expect((editor.state.line, editor.state.column) == (1, 0))
        #expect(pilot.cursor == Point(x: 1, y: 1))
        try pilot.press(.left)
        #expect(pilot.cursor == Point(x: 3, y: 0))
        try pilot.press(.control("e"), .control("a"))
        #expect(pilot.cursor == Point(x: 1, y: 0))
    }

    @Test func longLinesSoftWrapAndUpDownMoveByVisualRows() throws {
        let (pilot, editor) = pilot()
        let text = String(repeating: "abcdefghij", count: 5)  // 50 columns: rows of 38 and 12
        try pilot.type(text)
        #expect(pilot.lines[0] == " " + text.prefix(38))
        #expect(pilot.lines[1] == " " + text.suffix(12))
        #expect(pilot.cursor == Point(x: 13, y: 1))
        try pilot.press(.up)
        #expect((editor.state.line, editor.state.column) == (0, 12))
        #expect(pilot.cursor == Point(x: 13, y: 0))
        try pilot.press(.down)
        #expect(editor.state.column == 50)
        try pilot.press(.home, .down)  // column 0 of the second row is character 38
        #expect(editor.state.column == 38)
        #expect(pilot.cursor == Point(x: 1, y: 1))
    }

    @Test func upDownKeepThePreferredColumnOverShortLines() throws {
        let (pilot, editor) = pilot("a long first line\nab\nanother long line")
        try pilot.press(.end)
        try pilot.press(.down)
        #expect((editor.state.line, editor.state.column) == (1, 2))
        try pilot.press(.down)
        #expect((editor.state.line, editor.state.column) == (2, 17))
        try pilot.press(.down)  // no row below: stays
        #expect((editor.state.line, editor.state.column) == (2, 17))
    }

    @Test func aLineExactlyAsWideAsTheEditorPutsTheCursorOnTheNextRow() throws {
        let (pilot, editor) = pilot()
        try pilot.type(String(repeating: "x", count: 38))
        #expect(pilot.cursor == Point(x: 1, y: 1))
        #expect(pilot.lines[1] == "")
        try pilot.press(.up)
        #expect(editor.state.column == 0)
    }

    @Test func wideCharactersMoveTheCursorTwoColumns() throws {
        let (pilot, editor) = pilot()
        try pilot.type("a世界")
        #expect(pilot.lines[0] == " a世界")
        #expect(pilot.cursor == Point(x: 6, y: 0))
        #expect(pilot.hintBar.hasSuffix(" Ln 1, Col 4"))
        try pilot.press(.left)
        #expect(pilot.cursor == Point(x: 4, y: 0))
    }

    @Test func verticalMoveIntoAWideCharacterLandsLeftOfIt() throws {
        let (pilot, editor) = pilot("a世界\nxy")
        try pilot.press(.down, .end, .up)  // x 2 is the right half of 世 (columns 1-2)
        #expect((editor.state.line, editor.state.column) == (0, 1))
        #expect(pilot.cursor == Point(x: 2, y: 0))
    }

    @Test func wideCharactersWrapWhole() throws {
        let (pilot, editor) = pilot()
        try pilot.type(String(repeating: "世", count: 20))  // 19 fit in 38 columns
        #expect(pilot.lines[0] == " " + String(repeating: "世", count: 19))
        #expect(pilot.lines[1] == " 世")
        #expect(pilot.cursor == Point(x: 3, y: 1))
        try pilot.press(.up)
        #expect(editor.state.column == 1)
        #expect(pilot.cursor == Point(x: 3, y: 0))
    }

    @Test func ctrlKKillsToTheEndOfTheLine() throws {
        let (pilot, editor) = pilot("Hello World\nBye")
        try pilot.press(.right, .right, .right, .right, .right, .control("k"))
        #expect(pilot.lines[0] == " Hello")
        try pilot.press(.control("k"))
        #expect(editor.state.text == "HelloBye")
    }

    @Test func ctrlWAndAltBackspaceDeleteTheWordBeforeTheCursor() throws {
        let (pilot, editor) = pilot("Off with\nher head!  ")
        try pilot.press(.down, .end, .control("w"))
        #expect(pilot.lines[1] == " her")
        try pilot.press(.modified(.backspace, .alt))
        #expect(pilot.lines[1] == "")
        try pilot.press(.control("w"))  // at a line's start it joins the line before, as Backspace does
        #expect(pilot.lines[0] == " Off with")
        #expect(editor.state.line == 0 && editor.state.column == 8)
        let wide = Pilot(TextEditorScreen(title: "Notes"), columns: 80, rows: 30)
        try wide.press(.function(1))
        wide.expectScreen(contains: "Delete the word before the cursor (also M-Bksp)")
        #expect(wide.shownHelpKeyLabels?.contains("^W") == true)
    }

    @Test func aWordDeletedFromALongLineIsOneEditInPlace() {
        let line = String(repeating: "curiouser and curiouser ", count: 4_000)
        var state = TextEditorState(text: line + "Alice", column: line.count + 5)
        let before = state.revision
        state.deleteWordBackward()
        #expect(state.paragraphs == [line])
        #expect(state.column == line.count)
        // Said as the bytes it changed, so the layout cuts again only the rows around them.
        #expect(state.lastEdit == TextEditorState.ParagraphEdit(before: before, after: state.revision,
                                                                span: .init(line: 0, start: line.utf8.count, oldEnd: line.utf8.count + 5, newEnd: line.utf8.count)))
    }

    @Test func scrollsToKeepTheCursorVisible() throws {
        let text = (1...30).map { "line \($0)" }.joined(separator: "\n")
        let (pilot, editor) = pilot(text)
        for _ in 0..<20 { try pilot.press(.down) }
        #expect(editor.state.line == 20)
        #expect(pilot.lines[10] == " line 21")
        #expect(pilot.lines[0] == " line 11")
        #expect(pilot.cursor == Point(x: 1, y: 10))
        try pilot.press(.pageUp)
        #expect(editor.state.line == 10)
        #expect(pilot.lines[0] == " line 11")
        #expect(pilot.cursor == Point(x: 1, y: 0))
    }

    @Test func clickPlacesTheCursor() throws {
        let (pilot, editor) = pilot("Hello\nWorld")
        try pilot.click(x: 4, y: 1)
        #expect((editor.state.line, editor.state.column) == (1, 3))
        #expect(pilot.cursor == Point(x: 4, y: 1))
        try pilot.click(x: 30, y: 9)  // below the text: the last line, at its end
        #expect((editor.state.line, editor.state.column) == (1, 5))
    }

    @Test func lettersAreTextAndTheHintBarOffersNoSingleLetterQuit() throws {
        let (pilot, editor) = pilot()
        try pilot.type("q1?")
        #expect(editor.state.text == "q1?")
        #expect(pilot.app.terminationReason == nil)
        #expect(pilot.app.modals.isEmpty)
        #expect(!pilot.hintBar.contains("q Quit"))
        #expect(pilot.hintBar == "         F1 Help  ^C Quit   Ln 1, Col 4")
        try pilot.press(.function(1))
        #expect(pilot.app.modals.count == 1)
    }

    @Test func cursorSitsInsideTheContainersFrame() throws {
        let editor = TextEditorScreen(title: "Alice")
        let nav = NavigationStack(root: RecordingScreen("Characters"))
        let tabs = TabScreen(title: "Root", tabs: [RecordingScreen("Map"), nav])
        let pilot = Pilot(tabs)
        try pilot.press(.character("2"))
        nav.push(editor)
        try pilot.type("世界")
        #expect(pilot.lines[1] == " Characters › Alice")
        #expect(pilot.lines[2] == " 世界")
        #expect(pilot.cursor == Point(x: 5, y: 2))
        try pilot.press(.escape)  // the editor leaves Esc to the stack
        #expect(nav.stack.count == 1)
        #expect(pilot.cursor == nil)
    }

    @Test func rowsLayout() {
        #expect(TextEditorScreen.rows(of: ["abcdef", "", "世界x"], width: 3) == [
            .init(line: 0, range: 0..<3), .init(line: 0, range: 3..<6), .init(line: 0, range: 6..<6),
            .init(line: 1, range: 0..<0),
            .init(line: 2, range: 0..<1), .init(line: 2, range: 1..<3), .init(line: 2, range: 3..<3),
        ])
    }
}
