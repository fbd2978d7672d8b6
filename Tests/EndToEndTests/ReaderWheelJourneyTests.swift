import Foundation
import Testing

/// The wheel in the Book tab with the real binary in tmux: a report scrolls three lines, so a
/// notch as alacritty sends it (two reports) moves six and nothing goes by unread.
@Suite("The wheel in the Book tab, in tmux", .whenEndToEndIsAskedFor)
struct ReaderWheelJourneyTests {
    @Test("two wheel reports scroll six lines, never a page; two back return to the top")
    func wheelScrollsLines() throws {
        let tmux = try TmuxSession(columns: 80, rows: 24)
        let book = tmux.home.appendingPathComponent("tide-fixture.txt")
        try Data(BookJourneyTests.fixture().utf8).write(to: book)
        try tmux.launchApp("--book \(book.path)")
        let first = try tmux.waitForText("CHAPTER I")
        let page = Array(first[2..<22])  // the text rows, below the title row
        try tmux.sendRaw("\u{1B}[<65;20;10M")  // SGR wheel down over the text
        _ = try tmux.waitFor("three lines down") { Array($0[2..<19]) == Array(page[3..<20]) }
        try tmux.sendRaw("\u{1B}[<65;20;10M")
        let afterTwo = try tmux.waitFor("six lines down") { Array($0[2..<16]) == Array(page[6..<20]) }
        tmux.check(afterTwo[15] == page[19], "the last line read is still on screen: \(afterTwo[15])")
        try tmux.sendRaw("\u{1B}[<64;20;10M")
        try tmux.sendRaw("\u{1B}[<64;20;10M")
        _ = try tmux.waitFor("back at the top") { Array($0[2..<22]) == page }
        try tmux.quitApp()
    }
}
