import Testing
import Foundation
@testable import BookFront

@Suite struct LoadingMarkdownTests {
    private func load(_ markdown: String) throws -> BookDocument {
        let path = try BookFixture.write(markdown, name: "book.md")
        defer { BookFixture.remove(path) }
        return try BookLoader.load(path: path)
    }

    private func emphasized(_ document: BookDocument, _ kind: TextEmphasis.Kind) -> [String] {
        document.emphasis.filter { $0.kind == kind }.map { document.text.string($0.range) }
    }

    @Test func headingsBecomeChaptersAndTheFirstIsTheTitle() throws {
        let document = try load("""
        # The Lamplighter's Niece

        A tale.

        ## Chapter 1 ##

        Nell lived above the shop.

        The Second Chapter
        ------------------

        A letter came.
        """)
        #expect(document.format == .markdown)
        #expect(document.title == "The Lamplighter's Niece")
        #expect(document.chapters.map(\.title) == ["The Lamplighter's Niece", "Chapter 1", "The Second Chapter"])
        #expect(document.chapters.map(\.level) == [0, 1, 1])
        for chapter in document.chapters {
            #expect(document.text.string(chapter.offset..<(chapter.offset + chapter.title.utf8.count)) == chapter.title)
        }
        #expect(!document.text.string(0..<document.text.count).contains("#"))
        #expect(!document.text.string(0..<document.text.count).contains("---"))
        #expect(emphasized(document, .heading) == ["The Lamplighter's Niece", "Chapter 1", "The Second Chapter"])
    }

    @Test func emphasisMarkersAreRemovedAndBecomeRanges() throws {
        let document = try load("She said *never* and __always__, then _perhaps_ and ***both***.\nA snake_case_name and 2 * 3 * 4 stay.\r\n")
        let text = document.text.string(0..<document.text.count)
        #expect(text == "She said never and always, then perhaps and both.\nA snake_case_name and 2 * 3 * 4 stay.\n")
        #expect(emphasized(document, .emphasis) == ["never", "perhaps", "both"])
        #expect(emphasized(document, .strong) == ["always", "both"])
    }

    @Test func linksKeepTheirTextAndCodeIsLiteral() throws {
        let document = try load("See [the map](https://example.org/map) and `*not emphasis*` or \\*this\\*.\n")
        #expect(document.text.string(0..<document.text.count) == "See the map and *not emphasis* or *this*.\n")
        #expect(document.emphasis.isEmpty)
    }

    @Test func fencedCodeIsKeptAsWritten() throws {
        let document = try load("# Code\n\n```\nlet *x* = 1\n# not a heading\n```\n")
        #expect(document.chapters.map(\.title) == ["Code"])
        #expect(document.text.string(0..<document.text.count).contains("let *x* = 1\n# not a heading\n"))
    }

    @Test func aMarkdownFileWithoutHeadingsIsNamedAfterTheFile() throws {
        let document = try load("Just a paragraph.\n")
        #expect(document.title == "book")
        #expect(document.chapters.isEmpty)
    }

    @Test func unmatchedMarkersAndBracketsStayAsWritten() throws {
        let document = try load("[not a link] and [half](open, *alone, `tick, ** spaced ** and ![alt](pic.png)\n")
        #expect(document.text.string(0..<document.text.count) == "[not a link] and [half](open, *alone, `tick, ** spaced ** and alt\n")
        #expect(document.emphasis.isEmpty)
    }

    /// Bytes that are not UTF-8 are read as Windows-1252, where 0xE9 is "é".
    @Test func invalidUTF8InMarkdownIsReadAsWindows1252() throws {
        let path = try BookFixture.write(Array("# Caf".utf8) + [0xE9] + Array("\n\nText.\n".utf8), name: "latin.md")
        defer { BookFixture.remove(path) }
        let document = try BookLoader.load(path: path)
        #expect(document.notes == ["Not valid UTF-8: read as Windows-1252."])
        #expect(document.title == "Café")
    }
}
