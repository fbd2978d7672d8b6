import Foundation
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
}
