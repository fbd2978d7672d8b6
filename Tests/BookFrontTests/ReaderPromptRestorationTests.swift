import Foundation
@testable import BookFront
import Restoration
import Screens
import ScreensTesting
import Terminal
import Testing

/// The reader's search and Open prompts, open at a relaunch, come back with the text as typed.
@Suite("Reader: prompts through a relaunch")
struct ReaderPromptRestorationTests {
    private let books = ["/tide": ReaderFixture.document(path: "/tide")]

    private func relaunch(_ harness: ReaderHarness) throws -> ReaderHarness {
        let header = RestorationHeader(appVersion: "test", timestamp: Date(), terminalColumns: 60, terminalRows: 16)
        let data = try RestorationEngine(duplicatePolicy: .fail).preserve(root: harness.reader, modals: harness.app.restorableModals, header: header).data
        return ReaderHarness(books: books, store: harness.store, columns: 70, rows: 20) { reader in
            _ = try? RestorationEngine().restore(from: data, root: reader)
        }
    }

    @Test func aHalfTypedSearchIsAskedAgainAndSearches() throws {
        let first = ReaderHarness(books: books, bookPath: "/tide", columns: 70, rows: 20)
        try first.press(.character("/"))
        try first.type("punctual")
        try first.press(.left, .left)
        let second = try relaunch(first)
        let prompt = try #require(second.app.modals.last as? Prompt)
        #expect(prompt.title == "Search")
        #expect(prompt.field.text == "punctual" && prompt.field.cursor == 6)
        second.expectScreen(contains: "punctual")
        try second.press(.end)
        try second.type("ity")
        try second.press(.enter)
        #expect(second.app.modals.isEmpty)
        #expect(second.reader.searchQuery == "punctuality")
    }

    @Test func aHalfTypedPathIsAskedAgainInTheOpenPrompt() throws {
        let first = ReaderHarness(books: books, bookPath: "/tide", columns: 70, rows: 20)
        try first.press(.character("o"), .control("u"))
        try first.type("~/books/ali")
        let second = try relaunch(first)
        let prompt = try #require(second.app.modals.last as? Prompt)
        #expect(prompt.title == "Open a book")
        #expect(prompt.field.text == "~/books/ali")
        #expect(prompt.tabCompletion != nil, "Tab still completes")
    }

    @Test func aPromptAnsweredBeforeTheSaveIsNotAskedAgain() throws {
        let first = ReaderHarness(books: books, bookPath: "/tide", columns: 70, rows: 20)
        try first.press(.character("/"))
        try first.type("tide")
        try first.press(.escape)
        #expect(try relaunch(first).app.modals.isEmpty)
    }
}
