import Testing
@testable import Screens
import Terminal

/// A long paragraph edited a key at a time is cut again only where it changed, and the cursor's
/// column is counted from just before the edit: both must give what working from the
/// paragraph's start gives.
@Suite("TextEditor: edits cost what they change")
struct TextEditorIncrementalTests {
    /// Pieces that meet the rules at their edges: words long and short, runs of spaces and tabs,
    /// wide characters, marks that join the cluster before them, emoji sequences, flags (whose
    /// pairing depends on what comes before), a lone CR and a control.
    static let pieces = ["a", "word", "extraordinarily", "supercalifragilisticexpialidocious", " ", "   ", "\t", "世", "界界",
                         "e\u{301}", "\u{301}", "👍🏽", "👩‍👩‍👧", "🇫🇷", "🇩", "\u{200D}", "x\u{20DD}", "\r", "\u{1}", "é"]

    static func randomText(_ count: Int, _ generator: inout SeededGenerator) -> String {
        (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined()
    }

    /// `text` with a random stretch of its scalars replaced by random pieces: edits at and
    /// inside clusters, so the new text may join or split the clusters around them.
    static func edited(_ text: String, _ generator: inout SeededGenerator) -> String {
        var scalars = Array(text.unicodeScalars)
        let start = Int.random(in: 0...scalars.count, using: &generator)
        let end = min(scalars.count, start + Int.random(in: 0...6, using: &generator))
        let inserted = randomText(Int.random(in: 0...3, using: &generator), &generator)
        scalars.replaceSubrange(start..<end, with: inserted.unicodeScalars)
        var result = ""
        result.unicodeScalars.append(contentsOf: scalars)
        return result
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6])
    func anEditedParagraphIsCutAsCuttingItWholeIs(seed: UInt64) {
        var generator = SeededGenerator(state: seed)
        for _ in 0..<60 {
            let width = [1, 2, 3, 5, 8, 13, 40].randomElement(using: &generator)!
            var text = Self.randomText(Int.random(in: 0...120, using: &generator), &generator)
            var rows = ParagraphRows(text, width: width)
            // A chain of edits, each updating the rows the last one left, as typing does.
            for _ in 0..<12 {
                let next = Self.edited(text, &generator)
                let updated = ParagraphRows(next, width: width, updating: rows, of: text)
                let whole = ParagraphRows(next, width: width)
                #expect(updated == whole, "\(text.debugDescription) → \(next.debugDescription) at \(width)")
                text = next
                rows = updated
            }
        }
    }

    @Test func aWordInsertedInTheMiddleOfALongLineIsCutAsTheWholeLineIs() {
        let line = String(repeating: "Alice thought the Cat grinned more widely than ever; ", count: 2_000)
        let before = ParagraphRows(line, width: 72)
        let middle = line.utf8.count / 2
        var edited = line
        edited.insert(contentsOf: "very ", at: edited.utf8.index(edited.startIndex, offsetBy: middle))
        let after = ParagraphRows(edited, width: 72, updating: before, of: line)
        #expect(after == ParagraphRows(edited, width: 72))
    }

    @Test func aChangedWidthCutsTheWholeParagraph() {
        let text = "the Queen of Hearts, she made some tarts"
        let narrow = ParagraphRows(text, width: 10)
        #expect(ParagraphRows(text + "!", width: 12, updating: narrow, of: text) == ParagraphRows(text + "!", width: 12))
    }

    @Test(arguments: [7, 8, 9])
    func theCursorColumnAfterEachEditIsTheCountOfClustersBeforeIt(seed: UInt64) {
        var generator = SeededGenerator(state: seed)
        for _ in 0..<40 {
            var state = TextEditorState(text: Self.randomText(Int.random(in: 0...60, using: &generator), &generator).replacingOccurrences(of: "\r", with: "r"))
            state.moveTo(line: 0, column: Int.random(in: 0...80, using: &generator))
            for _ in 0..<25 {
                switch Int.random(in: 0..<7, using: &generator) {
                case 0, 1: state.insert(Self.pieces.randomElement(using: &generator)!.replacingOccurrences(of: "\r", with: "r"))
                case 2: state.deleteBackward()
                case 3: state.deleteForward()
                case 4: state.moveLeft()
                case 5: state.deleteWordBackward()
                default: state.moveTo(line: 0, column: Int.random(in: 0...80, using: &generator))
                }
                let paragraph = state.paragraphs[state.line]
                let index = paragraph.utf8.index(paragraph.startIndex, offsetBy: state.offset)
                // On a cluster boundary, with the column that counting from the start gives.
                #expect(paragraph[..<index].count == state.column, "\(paragraph.debugDescription) at \(state.offset)")
                #expect(String(paragraph[..<index]) + String(paragraph[index...]) == paragraph)
                #expect(paragraph.index(paragraph.startIndex, offsetBy: state.column) == index, "\(paragraph.debugDescription) at \(state.offset)")
            }
        }
    }
}

@Suite("TextEditor: the layout follows edits")
struct TextEditorLayoutEditTests {
    @Test(arguments: [11, 12, 13, 14])
    func theLayoutAfterAnyRunOfEditsIsTheWholeCut(seed: UInt64) {
        var generator = SeededGenerator(state: seed)
        let pieces = TextEditorIncrementalTests.pieces.filter { $0 != "\r" }
        for _ in 0..<20 {
            let layout = TextEditorLayout()
            let width = [1, 3, 8, 20, 72].randomElement(using: &generator)!
            layout.setWidth(width)
            let text = (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                (0..<Int.random(in: 0...80, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            }.joined(separator: "\n")
            var state = TextEditorState(text: text, line: Int.random(in: 0...3, using: &generator), column: Int.random(in: 0...90, using: &generator))
            for _ in 0..<40 {
                // Most edits are announced to the layout, as the editor screen does; some are not.
                if Int.random(in: 0..<5, using: &generator) > 0 { layout.prepareForEdit(of: state) }
                switch Int.random(in: 0..<11, using: &generator) {
                case 0...3: state.insert(pieces.randomElement(using: &generator)!)
                case 4: state.insert("two\nlines")
                case 5: state.insertNewline()
                case 6: state.deleteBackward()
                case 7: state.deleteForward()
                case 8: state.killToLineEnd()
                case 9: state.deleteWordBackward()
                default: state.moveTo(line: Int.random(in: 0...5, using: &generator), column: Int.random(in: 0...90, using: &generator))
                }
                // Frames come after some keys only.
                if Bool.random(using: &generator) {
                    for index in state.paragraphs.indices {
                        #expect(layout.rows(of: index, in: state) == ParagraphRows(state.paragraphs[index], width: width),
                                "paragraph \(index) of \(state.paragraphs.map(\.debugDescription)) at \(width)")
                    }
                }
            }
        }
    }
}
