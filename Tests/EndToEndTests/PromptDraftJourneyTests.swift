import Foundation
import Testing

/// Every prompt's half-typed text survives a relaunch, with the real binary in tmux: the book's
/// search and Open prompts and the map's "Find a place" come back open with what was typed.
@Suite("Prompt drafts through a relaunch in tmux", .whenEndToEndIsAskedFor)
struct PromptDraftJourneyTests {
    @Test("a half-typed search, path and place name come back after Ctrl-C and a relaunch")
    func halfTypedPromptsComeBack() throws {
        let tmux = try TmuxSession(columns: 80, rows: 24)
        let book = tmux.home.appendingPathComponent("tide-fixture.txt")
        try Data(BookJourneyTests.fixture().utf8).write(to: book)

        try tmux.launchApp("--book \(book.path)")
        try tmux.waitForText("CHAPTER I")
        try tmux.type("/")
        try tmux.waitForText("Find in the book")
        try tmux.type("herring q")  // q is text here, not quit
        try tmux.waitForText("herring q")
        try tmux.press("C-c")
        try tmux.waitForText("exit=")
        try tmux.launchApp()
        var screen = try tmux.waitForText("Find in the book")
        tmux.check(screen.joined().contains("herring q"), "the search as typed")
        try tmux.press("Escape")
        // The next key waits for the Esc to be taken alone, not as Alt with that key.
        _ = try tmux.waitFor("the search closed") { !$0.joined().contains("Find in the book") }

        try tmux.type("o")
        try tmux.waitForText("Open a book")
        try tmux.press("C-u")
        try tmux.type("~/books/ali")
        try tmux.waitForText("~/books/ali")
        try tmux.press("C-c")
        try tmux.waitForText("exit=")
        try tmux.launchApp()
        screen = try tmux.waitForText("Open a book")
        tmux.check(screen.joined().contains("~/books/ali"), "the path as typed")
        try tmux.press("Escape")
        _ = try tmux.waitFor("the Open prompt closed") { !$0.joined().contains("Open a book") }

        try tmux.type("1")
        try tmux.waitForText("Zoom")
        try tmux.type("/")
        try tmux.waitForText("Find a place")
        try tmux.type("zuri")
        try tmux.waitForText("Name: zuri")
        try tmux.press("C-c")
        try tmux.waitForText("exit=")
        try tmux.launchApp()
        screen = try tmux.waitForText("Find a place")
        tmux.check(screen.joined().contains("Name: zuri"), "the place name as typed")
        try tmux.press("Escape")
        _ = try tmux.waitFor("the finder closed") { !$0.joined().contains("Name: zuri") }
        try tmux.quitApp()
    }
}
