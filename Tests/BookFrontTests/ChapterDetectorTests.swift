import Testing
import Foundation
@testable import BookFront

@Suite struct ChapterDetectorTests {
    private func chapters(_ text: String, crlf: Bool = true) -> [BookChapter] {
        let source = crlf ? text.replacingOccurrences(of: "\n", with: "\r\n") : text
        return ChapterDetector.chapters(in: BookText(source))
    }

    @Test func theFixtureHasFourChaptersAndItsContentsListIsNotOne() throws {
        let text = BookText(bytes: Data(BookFixture.bytes))
        let found = ChapterDetector.chapters(in: text)
        #expect(found.map(\.title) == BookFixture.chapterTitles)
        #expect(found.map(\.heading) == ["CHAPTER 1", "CHAPTER 2", "CHAPTER 3", "CHAPTER 4"])
        #expect(found.first?.subtitle == "The Lamp in the Window")
        for chapter in found {
            // The offset is the start of the heading's line, indent included.
            #expect(chapter.offset == 0 || text.byte(at: chapter.offset - 1) == 0x0A)
            #expect(text.string(chapter.offset..<(chapter.offset + 80)).trimmingCharacters(in: .whitespaces).hasPrefix(chapter.heading!))
        }
    }

    @Test func theUsualHeadingShapesAreFound() {
        let headings = ["BOOK ONE", "Chapter 3\n\nThe rain.", "CHAPTER XII.", "Part II: The Return",
                        "CHAPTER IV. The Rabbit Sends in a Little Bill", "Chapter twenty-one - The Last Bridge", "PROLOGUE"]
        // Each heading with a hard-wrapped paragraph of story under it.
        let paragraph = String(repeating: "The lamps were lit one by one along the river.\n", count: 6)
        let found = chapters(headings.map { "\($0)\n\n\(paragraph)" }.joined(separator: "\n"))
        #expect(found.map(\.title) == ["BOOK ONE", "Chapter 3: The rain.", "CHAPTER XII", "Part II: The Return",
                                       "CHAPTER IV: The Rabbit Sends in a Little Bill", "Chapter twenty-one: The Last Bridge", "PROLOGUE"])
    }

    @Test func proseThatStartsLikeAHeadingIsNot() {
        let found = chapters("""
        Intro.

        Chapter 3 describes the river in some detail.

        Chapter 3.5

        chapter 9

        Chapter Ill

        Part of the problem was the lamp.

        The last line mentions
        CHAPTER 7
        in the middle of a paragraph.
        """)
        #expect(found.isEmpty)
    }

    @Test func aProseParagraphUnderAHeadingIsNotItsName() {
        let found = chapters("""
        CHAPTER 1

        It was late, and the lamps were lit one by one along the river,
        and Nell watched them from the window until the last was lit.
        """)
        #expect(found.map(\.title) == ["CHAPTER 1"])
        #expect(found.first?.subtitle == nil)
    }

    @Test func aContentsListWithBlankLinesBetweenEntriesIsDropped() {
        let body = String(repeating: "Words enough to make a chapter of some length here. ", count: 10)
        let found = chapters("""
        CONTENTS

        CHAPTER I

        CHAPTER II

        CHAPTER III


        CHAPTER I

        \(body)

        CHAPTER II

        \(body)

        CHAPTER III

        \(body)
        """)
        #expect(found.map(\.title) == ["CHAPTER I", "CHAPTER II", "CHAPTER III"])
        #expect(found.allSatisfy { $0.offset > 40 })
    }

    @Test func lineEndingsMakeNoDifferenceToOffsetsButTheirOwnBytes() {
        let lf = chapters("Title\n\nCHAPTER 1\n\nText.\n\nCHAPTER 2\n\nMore.\n", crlf: false)
        let crlf = chapters("Title\n\nCHAPTER 1\n\nText.\n\nCHAPTER 2\n\nMore.\n", crlf: true)
        #expect(lf.map(\.offset) == [7, 25])
        #expect(crlf.map(\.offset) == [9, 31])
        #expect(lf.map(\.title) == crlf.map(\.title))
    }

    @Test func aByteOrderMarkDoesNotHideTheFirstHeading() {
        let text = BookText(bytes: Data([0xEF, 0xBB, 0xBF] + Array("CHAPTER 1\r\n\r\nThe Lamp\r\n\r\nText of it,\r\nwrapped.\r\n".utf8)))
        let found = ChapterDetector.chapters(in: text)
        #expect(found.map(\.title) == ["CHAPTER 1: The Lamp"])
        #expect(found.first?.offset == 0)
    }
}
