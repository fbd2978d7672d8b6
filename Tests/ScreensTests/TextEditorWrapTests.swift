import Testing
@testable import Screens
import ScreensTesting
import Terminal

/// Deterministic numbers (Knuth's MMIX linear congruential generator), so a failing sequence of
/// edits can be replayed from its seed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state ^ (state >> 29)
    }
}

@Suite("TextEditor: word wrapping")
struct ParagraphRowsTests {
    private func rows(_ text: String, _ width: Int) -> [String] {
        let rows = ParagraphRows(text, width: width)
        return rows.rows.indices.map { String(rows.text(ofRow: $0, in: text)) }
    }

    @Test func breaksAfterSpacesAndMovesWordsWhole() {
        #expect(rows("the quick brown fox", 10) == ["the quick ", "brown fox"])
        #expect(rows("ab cd", 4) == ["ab ", "cd"])
        #expect(rows("abcd efgh", 4) == ["abcd ", "efgh", ""])
    }

    @Test func aWordIsBrokenOnlyWhenWiderThanTheRow() {
        #expect(rows("abcdefghij", 4) == ["abcd", "efgh", "ij"])
        #expect(rows("a bcdefgh", 4) == ["a ", "bcde", "fgh"])
        // Indentation is not a word: a long word after it is broken in place, as the reader does.
        #expect(rows("  abcdef", 4) == ["  ab", "cdef", ""])
    }

    @Test func spacesAtABreakHangOnTheRowTheyFollow() {
        #expect(rows("abcde   fg", 5) == ["abcde   ", "fg"])
        #expect(rows("It ended.  She woke.", 9) == ["It ended.  ", "She woke.", ""])
    }

    @Test func wideCharactersArePiecesOfTheirOwn() {
        #expect(rows("ab世界cd", 4) == ["ab世", "界cd", ""])
        #expect(rows("世界世界世", 4) == ["世界", "世界", "世"])
        #expect(rows("a世", 2) == ["a", "世", ""])
    }

    @Test func rowsKnowTheirOffsetsAndClusters() {
        let text = "café 世界 x"
        let rows = ParagraphRows(text, width: 5)
        #expect(rows.rows == [.init(offset: 0, cluster: 0), .init(offset: 6, cluster: 5), .init(offset: 13, cluster: 8)])
        #expect(rows.row(containing: 5) == 0 && rows.row(containing: 6) == 1 && rows.row(containing: 14) == 2)
        #expect(rows.x(of: 12, inRow: 1, of: text) == 4)
        #expect(rows.place(atX: 3, inRow: 1, of: text) == .init(offset: 9, cluster: 6))  // x 3 is the right half of 界
        #expect(rows.place(atX: 30, inRow: 1, of: text) == .init(offset: 12, cluster: 7))  // before the space that ends the row
        #expect(rows.place(atX: 30, inRow: 2, of: text) == .init(offset: 14, cluster: 9))  // the paragraph's end
    }

    @Test func theASCIIShortcutCutsAsReadingEveryClusterDoes() {
        // ASCII next to combining marks, CR LF, tabs, wide and emoji clusters: wherever the
        // shortcut hands over to the slow path, the rows must be the same.
        let pieces = ["a", "b", " ", "  ", "\t", "e\u{301}", "\r\n", "\r", "世", "👍🏽", "é", "word", "x\u{20DD}", "\u{1}",
                      "supercalifragilisticexpialidocious", "the quick brown fox jumps over", "           "]
        var generator = SeededGenerator(state: 21)
        for _ in 0..<400 {
            let text = (0..<Int.random(in: 0...40, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            for width in [1, 2, 3, 5, 8, 13] {
                let fast = ParagraphRows(text, width: width)
                let slow = ParagraphRows(text, width: width, readingASCIIAsBytes: false)
                #expect(fast == slow, "\(text.debugDescription) at \(width)")
                #expect(fast.endCluster == text.count && fast.endOffset == text.utf8.count)
            }
        }
    }

    @Test func aColumnIsFoundAsCountingClustersDoes() {
        // No line breaks: they split the text into paragraphs.
        let pieces = ["a", " ", "\t", "e\u{301}", "世", "👍🏽", "x\u{20DD}", "\u{1}"]
        var generator = SeededGenerator(state: 34)
        for _ in 0..<300 {
            let paragraph = (0..<Int.random(in: 0...30, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            for column in [0, 1, 2, 5, 17, 40] {
                var state = TextEditorState(text: paragraph)
                state.moveTo(line: 0, column: column)
                let expected = min(column, paragraph.count)
                #expect(state.column == expected, "\(paragraph.debugDescription) column \(column)")
                #expect(state.offset == String(paragraph.prefix(expected)).utf8.count, "\(paragraph.debugDescription) column \(column)")
            }
        }
    }
}

@Suite("TextEditor: layout and cursor at every size")
struct TextEditorWrapScreenTests {
    /// The words of a sentence long enough to wrap many times at 40 columns.
    static let sentence = "Curiouser and curiouser cried Alice she was so much surprised that for the moment "
        + "she quite forgot how to speak good English now I am opening out like the largest telescope that ever was"

    @Test func typedWordsAreNeverSplitAcrossRows() throws {
        let editor = TextEditorScreen(title: "Notes")
        let pilot = Pilot(editor, columns: 40, rows: 10)
        try pilot.type(Self.sentence)
        // A word split across rows would show as two pieces that are not words of the sentence.
        let shown = pilot.content.filter { !$0.isEmpty }
        #expect(shown.count > 3)
        #expect(shown.flatMap { $0.split(separator: " ") } == Self.sentence.split(separator: " "))
        for row in pilot.content { #expect(DisplayWidth.of(row) <= 39) }
        #expect(pilot.cursor.map { $0.y < 9 } == true)
    }

    @Test func upAndDownLandBeforeTheSpaceThatEndsARow() throws {
        let editor = TextEditorScreen(title: "Notes", text: "the quick brown fox")
        let pilot = Pilot(editor, columns: 12, rows: 12, minimumSize: Size(columns: 10, rows: 5))  // 10 columns of text: "the quick ", "brown fox"
        #expect(Array(pilot.lines[0...1]) == [" the quick", " brown fox"])
        try pilot.press(.end, .up)
        #expect(editor.state.column == 9)  // after "quick", not on the next row
        #expect(pilot.cursor == Point(x: 10, y: 0))
    }

    @Test func theCursorOnHangingSpacesWaitsAtTheMargin() throws {
        let editor = TextEditorScreen(title: "Notes")
        let pilot = Pilot(editor, columns: 12, rows: 12, minimumSize: Size(columns: 10, rows: 5))  // 10 columns of text
        try pilot.type("abcdefghij  ")
        #expect(editor.state.column == 12)
        // The row is full: the cursor at the paragraph's end goes to the empty row after it.
        #expect(pilot.cursor == Point(x: 1, y: 1))
        try pilot.press(.left)
        #expect(pilot.cursor == Point(x: 11, y: 0))
        try pilot.type("k")
        #expect(Array(pilot.lines[0...1]) == [" abcdefghij", " k"])
        #expect(pilot.cursor == Point(x: 2, y: 1))
    }

    @Test func aLargePasteAtTheSmallestSizeLeavesTheCursorOnScreen() throws {
        let editor = TextEditorScreen(title: "Notes")
        let pilot = Pilot(editor, columns: 40, rows: 10)
        let lines = (1...400).map { "line \($0) " + Self.sentence.prefix($0 % 90) }
        try pilot.paste(lines.joined(separator: "\n") + "\nthe end")
        #expect(editor.state.line == 400 && editor.state.column == 7)
        let cursor = try #require(pilot.cursor)
        #expect(cursor.y >= 0 && cursor.y < 9)
        #expect(pilot.lines[cursor.y] == " the end")
        #expect(cursor.x == 8)
        try pilot.press(.pageUp, .pageUp)
        let afterPaging = try #require(pilot.cursor)
        #expect(afterPaging.y >= 0 && afterPaging.y < 9)
    }

    @Test func aResizeKeepsTheCursorOnScreen() throws {
        let text = (1...60).map { "paragraph \($0): " + Self.sentence }.joined(separator: "\n")
        let editor = TextEditorScreen(title: "Notes", text: text)
        let pilot = Pilot(editor, columns: 120, rows: 40)
        editor.state.moveTo(line: 30, column: 100)
        try pilot.press(.right)
        for (columns, rows) in [(40, 10), (97, 13), (41, 31), (200, 10), (40, 10)] {
            try pilot.resize(columns: columns, rows: rows)
            let cursor = try #require(pilot.cursor, "at \(columns)×\(rows)")
            #expect(cursor.y >= 0 && cursor.y < rows - 1, "at \(columns)×\(rows)")
            #expect(cursor.x >= 1 && cursor.x < columns, "at \(columns)×\(rows)")
            try assertScreenMatchesTheWholeLayout(pilot, editor, columns: columns, rows: rows)
        }
    }

    @Test func indexAtRowAndColumnMapsAScreenPlaceToTheText() throws {
        let editor = TextEditorScreen(title: "Notes", text: "the quick brown fox\njumps")
        let pilot = Pilot(editor, columns: 12, rows: 12, minimumSize: Size(columns: 10, rows: 5))
        #expect(editor.index(atRow: 0, column: 4) == (0, 4))
        #expect(editor.index(atRow: 1, column: 2) == (0, 12))  // "brown fox" starts at cluster 10
        #expect(editor.index(atRow: 1, column: 30) == (0, 19))
        #expect(editor.index(atRow: 2, column: 1) == (1, 1))
        #expect(editor.index(atRow: 9, column: 9) == (1, 5))  // below the text: its end
        try pilot.click(x: 3, y: 1)
        #expect((editor.state.line, editor.state.column) == (0, 12))
    }

    @Test func accentsTypedAfterALetterJoinItsCluster() throws {
        let editor = TextEditorScreen(title: "Notes")
        let pilot = Pilot(editor)
        try pilot.type("e")
        try pilot.type("\u{301}")  // a combining accent on its own, as a key
        #expect(editor.state.text == "e\u{301}")
        #expect(editor.state.column == 1 && editor.state.paragraphs[0].count == 1)
        try pilot.type("x")
        #expect(editor.state.column == 2)
        #expect(pilot.cursor == Point(x: 3, y: 0))
        try pilot.press(.left, .backspace)  // the letter and its accent go together
        #expect(editor.state.column == 0)
        #expect(editor.state.text == "x")
    }

    /// Random edits, moves, pastes and resizes against a plain model of the text: after every
    /// step the text and cursor agree with the model, the screen shows a window of the whole
    /// layout made afresh (so no cached row is stale), and the cursor is on screen.
    @Test(arguments: [1, 2, 3, 4])
    func randomEditsKeepTheScreenTrue(seed: UInt64) throws {
        var random = SeededGenerator(state: seed)
        let editor = TextEditorScreen(title: "Notes")
        var size = (columns: 40, rows: 10)
        let pilot = Pilot(editor, columns: size.columns, rows: size.rows)
        var model: [Character] = []
        var cursor = 0
        let alphabet: [Character] = Array("abcdefgh   ijk世é") + ["\n"]
        for step in 0..<400 {
            switch Int.random(in: 0..<20, using: &random) {
            case 0..<9:
                let character = alphabet.randomElement(using: &random)!
                try pilot.type(String(character))
                model.insert(character, at: cursor); cursor += 1
            case 9:
                let piece = String((0..<Int.random(in: 1..<200, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
                try pilot.paste(piece)
                model.insert(contentsOf: Array(piece), at: cursor); cursor += piece.count
            case 10, 11:
                try pilot.press(.backspace)
                if cursor > 0 { model.remove(at: cursor - 1); cursor -= 1 }
            case 12:
                try pilot.press(.delete)
                if cursor < model.count { model.remove(at: cursor) }
            case 13:
                try pilot.press(.left)
                cursor = max(0, cursor - 1)
            case 14:
                try pilot.press(.right)
                cursor = min(model.count, cursor + 1)
            case 15, 16:
                try pilot.press([Key.up, .down, .pageUp, .pageDown].randomElement(using: &random)!)
                cursor = modelIndex(of: editor.state)
            case 17:
                try pilot.press([Key.home, .end, .control("k")].randomElement(using: &random)!)
                model = Array(editor.state.text)
                cursor = modelIndex(of: editor.state)
            case 18:
                size = (Int.random(in: 40...90, using: &random), Int.random(in: 10...30, using: &random))
                try pilot.resize(columns: size.columns, rows: size.rows)
            default:
                try pilot.click(x: Int.random(in: 0..<size.columns, using: &random), y: Int.random(in: 0..<(size.rows - 1), using: &random))
                cursor = modelIndex(of: editor.state)
            }
            #expect(editor.state.text == String(model), "step \(step)")
            #expect(modelIndex(of: editor.state) == cursor, "step \(step)")
            try assertScreenMatchesTheWholeLayout(pilot, editor, columns: size.columns, rows: size.rows)
        }
    }

    private func modelIndex(of state: TextEditorState) -> Int {
        state.paragraphs[..<state.line].reduce(0) { $0 + $1.count + 1 } + state.column
    }
}

/// The screen shows consecutive rows of the whole layout (made afresh, without the editor's
/// cache), and the cursor sits on the row holding it, inside the text area.
func assertScreenMatchesTheWholeLayout(_ pilot: Pilot, _ editor: TextEditorScreen, columns: Int, rows: Int,
                                       sourceLocation: SourceLocation = #_sourceLocation) throws {
    let state = editor.state
    let all = TextEditorScreen.rows(of: state.paragraphs, width: columns - 2)
    let texts = all.map { row -> String in
        let paragraph = state.paragraphs[row.line]
        let start = paragraph.index(paragraph.startIndex, offsetBy: row.range.lowerBound)
        let end = paragraph.index(paragraph.startIndex, offsetBy: row.range.upperBound)
        let text = String(paragraph[start..<end])
        return DisplayWidth.truncate(" " + text, to: columns, ellipsis: "").trimmingTrailingSpaces()
    }
    let cursorRow = try #require(all.indices.last { all[$0].line == state.line && all[$0].range.lowerBound <= state.column },
                                 sourceLocation: sourceLocation)
    let cursor = try #require(pilot.cursor, "no cursor", sourceLocation: sourceLocation)
    #expect(cursor.y >= 0 && cursor.y < rows - 1, "cursor row \(cursor.y) at \(columns)×\(rows)", sourceLocation: sourceLocation)
    let top = cursorRow - cursor.y
    #expect(top >= 0, sourceLocation: sourceLocation)
    guard top >= 0 else { return }
    let shown = Array(pilot.content.prefix(rows - 1))
    let expected = (0..<(rows - 1)).map { top + $0 < texts.count ? texts[top + $0] : "" }
    if !state.isEmpty {
        #expect(shown == expected, "at \(columns)×\(rows)", sourceLocation: sourceLocation)
    }
    #expect(cursor.x >= 1 && cursor.x <= columns - 1, sourceLocation: sourceLocation)
}
