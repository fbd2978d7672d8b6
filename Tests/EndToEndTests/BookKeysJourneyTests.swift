import Foundation
import Testing

/// The Book tab's small fixes with the real binary in tmux: `--book` shows the Book tab, the
/// search prompt starts empty with ↑ history, Tab completes a path from `~`, and at 40 columns
/// a long message is cut with "…" on its line and read whole with `M`.
@Suite("Book keys in tmux", .whenEndToEndIsAskedFor)
struct BookKeysJourneyTests {
    /// A made-up book in the session's HOME, at `relativePath`.
    private func writeBook(in tmux: TmuxSession, at relativePath: String = "tide-fixture.txt") throws -> URL {
        let book = tmux.home.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: book.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(BookJourneyTests.fixture().utf8).write(to: book)
        return book
    }

    @Test("--book PATH shows the Book tab, over the Characters tab saved at the last quit")
    func bookOptionShowsTheBookTab() throws {
        let tmux = try TmuxSession(columns: 80, rows: 24)
        let book = try writeBook(in: tmux)
        try tmux.launchApp()
        try tmux.type("2")
        try tmux.waitForText("▸ Alice")
        try tmux.quitApp()
        try tmux.launchApp("--book \(book.path)")
        let screen = try tmux.waitForText("CHAPTER I")
        tmux.check(!screen.joined().contains("▸ Alice"), "not the saved Characters tab")
        tmux.check(screen[23].contains("Space Next page"), "the reader's keys in the hint bar")
        try tmux.quitApp()
    }

    @Test("the search prompt starts empty; ↑ brings back the last search")
    func searchPromptStartsEmptyWithHistory() throws {
        let tmux = try TmuxSession(columns: 80, rows: 24)
        let book = try writeBook(in: tmux)
        try tmux.launchApp("--book \(book.path)")
        try tmux.waitForText("CHAPTER I")
        try tmux.type("/")
        try tmux.waitForText("Find in the book")
        try tmux.type("CHAPTER III")
        try tmux.press("Enter")
        try tmux.waitFor("the prompt gone") { !$0.joined().contains("Find in the book") }
        try tmux.type("/")
        let asked = try tmux.waitForText("Find in the book")
        tmux.check(TmuxSession.boxRow(asked, below: "Find in the book", offset: 2) == "", "the field starts empty")
        try tmux.sendRaw("\u{1B}[A")  // ↑
        let recalled = try tmux.waitFor("the last search back") { TmuxSession.boxRow($0, below: "Find in the book", offset: 2) == "CHAPTER III" }
        tmux.check(recalled.contains { $0.contains("Search") })
        try tmux.press("Escape")
        try tmux.waitFor("the prompt gone") { !$0.joined().contains("Find in the book") }
        try tmux.quitApp()
    }

    @Test("Tab completes a path from ~ ($HOME) in the Open prompt, and the book opens")
    func tabCompletesFromHome() throws {
        let tmux = try TmuxSession(columns: 80, rows: 24)
        _ = try writeBook(in: tmux, at: "books/alice-tale.txt")
        try tmux.launchApp()
        try tmux.openBookPrompt()
        try tmux.type("~/bo")
        try tmux.sendRaw([0x09])
        try tmux.waitForText("~/books/")
        try tmux.type("al")
        try tmux.sendRaw([0x09])
        try tmux.waitForText("~/books/alice-tale.txt")
        try tmux.press("Enter")
        // One condition, not a check after the first sight of the chapter: a capture can land
        // half-way through the frame that replaces the prompt.
        try tmux.waitFor("the book open and the prompt gone") { $0.joined().contains("CHAPTER I") && !$0.joined().contains("Open a book") }
        try tmux.quitApp()
    }

    @Test("at 40 columns a long message is cut with “…”, and M shows it whole")
    func longMessageAtFortyColumns() throws {
        let tmux = try TmuxSession(columns: 40, rows: 12)
        try tmux.launchApp()
        try tmux.openBookPrompt()
        let missing = "/tmp/Through the Looking-Glass, and What Alice Found There, second edition.txt"
        try tmux.type(missing)
        try tmux.press("Enter")
        try tmux.waitForText("Cannot open")
        try tmux.press("Enter")
        let screen = try tmux.waitFor("the message under the page") { $0.contains { $0.hasPrefix(" Could not open") } }
        let line = screen.first { $0.hasPrefix(" Could not open") } ?? ""
        tmux.check(line.hasSuffix("…"), "the message is cut with “…”: \(line)")
        for row in screen { tmux.check(row.count <= 40, "no row is wider than the terminal: \(row)") }
        tmux.check(screen[0].contains("3 Book"), "the tab bar stays on its row")
        try tmux.type("M")
        let messages = try tmux.waitForText("Messages")
        let text = messages.compactMap { TmuxSession.insideBox($0)?.trimmingCharacters(in: [" ", "↑", "↓", "•"]) }.joined(separator: " ")
        tmux.check(text.contains("second edition.txt"), "the whole path can be read: \(text)")
        try tmux.press("Escape")
        try tmux.waitFor("messages closed") { !$0.joined().contains("Messages") }
        try tmux.quitApp()
    }
}
