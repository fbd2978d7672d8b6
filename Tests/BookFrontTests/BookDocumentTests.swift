import Testing
import Foundation
@testable import BookFront

@Suite struct BookDocumentTests {
    @Test func chapterLookupFindsTheLastChapterStartingAtOrBefore() {
        let text = BookText("Intro\nCHAPTER I\none\nCHAPTER II\ntwo\n")
        let document = BookDocument(id: "x", title: "t", path: nil, format: .plainText, text: text,
                                    chapters: [BookChapter(title: "I", offset: 6), BookChapter(title: "II", offset: 20)])
        #expect(document.chapterIndex(containing: 0) == nil)
        #expect(document.chapterIndex(containing: 6) == 0)
        #expect(document.chapterIndex(containing: 19) == 0)
        #expect(document.chapterIndex(containing: 25) == 1)
    }

    @Test func invalidUTF8IsReplacedNotDropped() {
        let text = BookText(bytes: Data([0x41, 0xFF, 0x42]))
        #expect(text.string(0..<3) == "A\u{FFFD}B")
        #expect(text.string(2..<99) == "B")
    }
}
