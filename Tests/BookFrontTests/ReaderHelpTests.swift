@testable import BookFront
import Screens
import ScreensTesting
import Terminal
import Testing

/// F1 opens help over the reader's prompts and lists (and `?` over the lists), each key listed once.
@Suite("Help over the reader's prompts and lists")
struct ReaderHelpTests {
    private func harness() -> ReaderHarness {
        ReaderHarness(books: ["/tide": ReaderFixture.document(path: "/tide")], bookPath: "/tide", columns: 80, rows: 40)
    }

    private func expectHelp(_ harness: ReaderHarness, key: Key = .function(1), _ place: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try harness.press(key)
        let labels = harness.shownHelpKeyLabels
        #expect(labels?.isEmpty == false, "\(place): no help\n\(harness.numberedScreen)", sourceLocation: sourceLocation)
        #expect(Set(labels ?? []).count == labels?.count, "\(place): \(labels ?? [])", sourceLocation: sourceLocation)
        try harness.press(.escape)
    }

    @Test func theSearchPromptAndTheOpenPrompt() throws {
        let harness = harness()
        try harness.press(.character("/"))
        try harness.type("tide")
        try expectHelp(harness, "Search")
        #expect(harness.app.modals.count == 1)
        harness.expectScreen(contains: "tide")
        try harness.press(.escape, .character("o"))
        try expectHelp(harness, "Open a book")
        #expect(harness.app.modals.count == 1)
    }

    @Test func theContentsAndTheBookmarks() throws {
        let harness = harness()
        try harness.press(.character("t"))
        try expectHelp(harness, "Contents")
        try expectHelp(harness, key: .character("?"), "Contents")
        #expect(harness.app.modals.count == 1, "the contents are still open")
        try harness.press(.escape, .character("a"), .character("B"))
        try expectHelp(harness, "Bookmarks")
        harness.expectScreen(contains: "Bookmarks")
    }
}
