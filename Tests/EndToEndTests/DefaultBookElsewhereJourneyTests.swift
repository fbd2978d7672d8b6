import Foundation
import Testing

/// The real default book kept somewhere else and opened with `--book`: the character page
/// finds its chapters in it, and the Book tab shows it. Runs where scripts/fetch-book has put
/// the book for whoever runs the tests (the made-up books of the other journeys are not Alice).
@Suite("The default book opened with --book, in tmux", .whenEndToEndIsAskedFor)
struct DefaultBookElsewhereJourneyTests {
    @Test("--book with Alice somewhere else: the character page lists her chapters", .enabled(if: ProofBook.realBookPath != nil))
    func charactersFindTheirChaptersInTheBookGivenToTheApp() throws {
        let tmux = try TmuxSession(columns: 80, rows: 24)
        let copy = tmux.home.appendingPathComponent("Downloads/my copy of alice.txt")
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try #require(ProofBook.realBookPath), toPath: copy.path)

        try tmux.launchApp("--book '\(copy.path)'")
        try tmux.waitForText("CHAPTER I")
        try tmux.type("2")
        try tmux.waitForText("▸ Alice")
        try tmux.press("Enter")
        let page = try tmux.waitForText("Appears in chapters 1 (")
        tmux.check(!page.joined().contains("not here"), "the chapters, not a missing book")
        try tmux.quitApp()
    }

    @Test("Alice opened with o, then a relaunch without --book: the character page lists her chapters both times",
          .enabled(if: ProofBook.realBookPath != nil))
    func charactersFindTheirChaptersInTheBookOpenedInTheTab() throws {
        let tmux = try TmuxSession(columns: 80, rows: 24)
        let copy = tmux.home.appendingPathComponent("alice.txt")
        try FileManager.default.copyItem(atPath: try #require(ProofBook.realBookPath), toPath: copy.path)

        try tmux.launchApp()
        try tmux.type("3")
        try tmux.waitForText("press o to open")
        try tmux.type("o")
        try tmux.waitForText("Open a book")
        try tmux.press("C-u")
        try tmux.type(copy.path)
        try tmux.press("Enter")
        try tmux.waitForText("CHAPTER I")
        try tmux.type("2")
        try tmux.waitForText("▸ Alice")
        try tmux.press("Enter")
        try tmux.waitForText("Appears in chapters 1 (")
        try tmux.quitApp()

        // The reader reopens the book; the page, restored, finds it there.
        try tmux.launchApp()
        try tmux.waitForText("Appears in chapters 1 (")
        try tmux.quitApp()
    }
}
