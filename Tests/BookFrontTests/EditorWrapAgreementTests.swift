import Defaults
import Foundation
import ScreensTesting
import Terminal
import Testing
@testable import BookFront
@testable import Screens

/// The notes editor and the Book reader break lines by one rule: for a single line of text the
/// editor's rows hold the same words as the reader's lines (the editor keeps the spaces at a
/// break on the row before, where the reader drops them).
@Suite("Layout: the editor wraps as the reader does")
struct EditorWrapAgreementTests {
    private static let words = ["a", "tea", "party", "March", "Hare", "Dormouse", "curiouser", "and", "I", "said",
                                "café", "naïve", "潮", "の時計", "灯台", "ab世cd", "unbirthdays", "—", "well,", "why?",
                                "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz"]

    /// A fixed sequence of numbers (a linear congruential generator), so a failing line can be found again.
    private struct Sequence: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state ^ (state >> 29)
        }
    }

    private func line(words count: Int, using generator: inout Sequence) -> String {
        var text = ""
        for index in 0..<count {
            if index > 0 { text += Int.random(in: 0..<8, using: &generator) == 0 ? "  " : " " }
            text += Self.words.randomElement(using: &generator)!
        }
        return text
    }

    private func readerLines(_ text: String, width: Int) -> [String] {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            LineWrapper(bytes: buffer, width: width).layout(blockFrom: 0, to: buffer.count).map {
                String(decoding: buffer[$0.range], as: UTF8.self)
            }
        }
    }

    private func editorRows(_ text: String, width: Int) -> [String] {
        let rows = TextEditorScreen.rows(of: [text], width: width).map { row -> String in
            let start = text.index(text.startIndex, offsetBy: row.range.lowerBound)
            let end = text.index(text.startIndex, offsetBy: row.range.upperBound)
            return String(text[start..<end]).trimmingTrailingSpaces()
        }
        // The empty row after a full last row is the cursor's place, not a line of text.
        return rows.count > 1 && rows.last == "" ? Array(rows.dropLast()) : rows
    }

    @Test func sameWordsOnEveryLine() {
        var generator = Sequence(state: 7)
        for _ in 0..<300 {
            let text = line(words: Int.random(in: 1...40, using: &generator), using: &generator)
            for width in [4, 7, 10, 19, 38, 60] {
                #expect(editorRows(text, width: width) == readerLines(text, width: width), "width \(width): \(text)")
            }
        }
    }

    /// Texts whose rows the reader's rule and the editor's rule would cut differently: no
    /// spaces at all, Japanese and Chinese (breaks beside every wide character), words longer
    /// than a row, and these mixed with spaces and hanging spaces.
    static let unspaced = [
        "潮の時計は桟橋の端にあって、二つの文字盤はいつも食い違っていた。毎朝ひとつめを鍵で巻いた。",
        "アリスは土手で姉のそばに座っているのに飽きてきました。本をのぞいても絵も会話もありません。",
        "爱丽丝靠着姐姐坐在河岸上，无事可做，开始感到厌倦了。",
        String(repeating: "curiouserandcuriouser", count: 6),
        "Off with her head! " + String(repeating: "abcdefghij", count: 9) + " said the Queen.",
        "ab世cd潮ef の時計 unbirthdays—well,why?   naïve" + String(repeating: "界", count: 31),
        "two\nparagraphs 灯台灯台灯台灯台灯台灯台灯台灯台灯台灯台灯台灯台灯台灯台\n\nand a blank one",
    ]

    @Test func theRowsOfTheEditorAreTheRowsOfTheSavedNoteBesideThem() {
        for text in Self.unspaced {
            for width in [5, 9, 18, 37, 58] {
                let paragraphs = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                let editor = paragraphs.flatMap { paragraph in
                    TextEditorScreen.rows(of: [paragraph], width: width).map { row -> String in
                        let start = paragraph.index(paragraph.startIndex, offsetBy: row.range.lowerBound)
                        let end = paragraph.index(paragraph.startIndex, offsetBy: row.range.upperBound)
                        return String(paragraph[start..<end]).trimmingTrailingSpaces()
                    }
                }
                #expect(paragraphs.flatMap { TextEditorScreen.rows(ofParagraph: $0, width: width) } == editor, "width \(width): \(text)")
            }
        }
    }

    /// On a character's page: the note typed, then Esc, then e again: every row stays where it
    /// was, for text without spaces too.
    @Test(arguments: [40, 61, 80])
    func aNoteStaysPutWhenEditingStopsAndStarts(columns: Int) throws {
        for text in Self.unspaced {
            let alice = BookCharacter(id: "alice", name: "Alice", aliases: [], description: "Curious.", firstChapter: 1)
            let context = CharactersContext(catalog: .success(CharacterCatalog(characters: [alice])), store: InMemoryPreferenceStore(),
                                            bookURL: URL(fileURLWithPath: "/nonexistent-wl-book.txt"), searchesInBackground: false)
            let navigation = CharacterListScreen.makeNavigation(context: context)
            navigation.push(CharacterDetailScreen(character: alice, context: context))
            let pilot = Pilot(navigation, columns: columns, rows: 40)
            try pilot.press(.character("e"))
            try pilot.paste(text)
            let editing = noteRows(pilot)
            try pilot.press(.escape)
            let reading = noteRows(pilot)
            #expect(reading == editing, "at \(columns) columns, read and edited:\n\(pilot.numberedScreen)")
            try pilot.press(.character("e"))
            #expect(noteRows(pilot) == editing, "at \(columns) columns, edited again")
        }
    }

    /// The rows under the notes header, to the hint bar, without their trailing spaces.
    private func noteRows(_ pilot: Pilot) -> [String] {
        guard let header = pilot.lines.firstIndex(where: { $0.hasPrefix("─ Notes") }) else { return [] }
        var rows = Array(pilot.lines[(header + 1)..<(pilot.lines.count - 1)])
        while rows.last == "" { rows.removeLast() }
        return rows
    }
}
