import Foundation
@testable import BookFront
import Terminal
import Screens
import Testing

@Suite("Search")
struct SearchTests {
    let text = BookText(ReaderFixture.string)

    @Test func findsEitherCaseAndAcrossLineEnds() throws {
        let hit = try #require(BookSearch.find("GREY Committee", in: text, from: -1))
        #expect(text.string(hit.range) == "grey committee")
        #expect(!hit.wrapped)
        // "rail in" ends one source line and "a grey" starts the next (CRLF between).
        let across = try #require(BookSearch.find("rail in a grey", in: text, from: -1))
        #expect(text.string(across.range) == "rail in\r\na grey")
    }

    @Test func findsNonASCIIText() throws {
        let hit = try #require(BookSearch.find("灯台", in: text, from: -1))
        #expect(text.string(hit.range) == "灯台")
    }

    @Test func wrapsRoundTheEndAndSaysSo() throws {
        let first = try #require(BookSearch.find("tortoise", in: text, from: -1))
        let last = try #require(BookSearch.find("tortoise", in: text, from: text.count, backward: true))
        #expect(first.range.lowerBound < last.range.lowerBound)
        let round = try #require(BookSearch.find("tortoise", in: text, from: last.range.lowerBound))
        #expect(round.wrapped)
        #expect(round.range == first.range)
        let back = try #require(BookSearch.find("tortoise", in: text, from: first.range.lowerBound, backward: true))
        #expect(back.wrapped && back.range == last.range)
        #expect(BookSearch.find("kraken", in: text, from: 0) == nil)
        #expect(BookSearch.find("   ", in: text, from: 0) == nil)
    }

    @Test func theReaderHighlightsMatchesAndMovesBetweenThem() throws {
        let book = ReaderFixture.document(path: "/tide")
        let harness = ReaderHarness(books: ["/tide": book], bookPath: "/tide", columns: 70, rows: 30)
        try harness.press(.character("/"))
        try harness.type("punctual")
        try harness.press(.enter)
        let first = try #require(harness.reader.currentMatch)
        #expect(book.text.string(first) == "punctual")
        let row = try #require(harness.lines.firstIndex { $0.contains("punctual") })
        let column = DisplayWidth.of(harness.lines[row][..<harness.lines[row].range(of: "punctual")!.lowerBound])
        #expect(harness.terminal.frame[column, row].style.reverse)
        #expect(!harness.terminal.frame[max(0, column - 2), row].style.reverse)
        try harness.press(.character("n"))
        let second = try #require(harness.reader.currentMatch)
        #expect(second.lowerBound > first.lowerBound)
        try harness.press(.character("N"))
        #expect(harness.reader.currentMatch == first)
        // Past the last match it comes round, and says so.
        var wrapped = false
        for _ in 0..<6 {
            try harness.press(.character("n"))
            if harness.progress.contains("went round") { wrapped = true; break }
        }
        #expect(wrapped)
    }

    @Test func aSearchThatFindsNothingSaysSo() throws {
        let harness = ReaderHarness(books: ["/tide": ReaderFixture.document(path: "/tide")], bookPath: "/tide")
        try harness.press(.character("/"))
        try harness.type("kraken")
        try harness.press(.enter)
        #expect(harness.progress.contains("No match for “kraken”"))
        #expect(harness.reader.anchor == 0)
    }

    @Test func aMatchOffThePageBringsItsLineToTheTop() throws {
        let harness = ReaderHarness(books: ["/tide": ReaderFixture.document(path: "/tide")], bookPath: "/tide", rows: 10)
        harness.reader.search(for: "so much punctuality")
        try harness.send(.wake)
        #expect(harness.topLine.contains("so much punctuality") || harness.page.prefix(1).joined().contains("so much"))
    }

    @Test func theSearchPromptStartsEmptyAndUpBringsBackEarlierSearches() throws {
        let harness = ReaderHarness(books: ["/tide": ReaderFixture.document(path: "/tide")], bookPath: "/tide", columns: 70, rows: 30)
        for query in ["punctual", "tide"] {
            try harness.press(.character("/"))
            try harness.type(query)
            try harness.press(.enter)
        }
        try harness.press(.character("/"))
        let prompt = try #require(harness.app.modals.last as? Prompt)
        #expect(prompt.field.text == "")
        try harness.type("kr")
        try harness.press(.up)
        #expect(prompt.field.text == "tide")
        try harness.press(.up, .up)
        #expect(prompt.field.text == "punctual")
        try harness.press(.down, .down)
        #expect(prompt.field.text == "kr")
        try harness.press(.up, .up, .enter)
        #expect(harness.reader.searchQuery == "punctual")
        #expect(harness.reader.searchHistory == ["tide", "punctual"])
    }
}
