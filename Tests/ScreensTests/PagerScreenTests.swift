import Testing
import Screens
import ScreensTesting
import Terminal

@Suite("PagerScreen")
struct PagerScreenTests {
    private static let thirtyLines = (1...30).map { "Line \($0)" }.joined(separator: "\n")
    /// "w001 w002 … w200": five columns a word with its space, so line breaks are easy to predict.
    private static let words = (1...200).map { "w" + String(1000 + $0).dropFirst() }.joined(separator: " ")

    /// 40×8: seven text rows, margin 1.
    private func pilot(_ text: String = thirtyLines, columns: Int = 40, rows: Int = 8) -> (Pilot, PagerScreen) {
        let pager = PagerScreen(title: "Book", text: text)
        return (Pilot(pager, columns: columns, rows: rows, minimumSize: Size(columns: 20, rows: 5)), pager)
    }

    @Test func showsTheTopOfTheText() {
        let (pilot, _) = pilot()
        #expect(pilot.content == [" Line 1", " Line 2", " Line 3", " Line 4", " Line 5", " Line 6", " Line 7"])
        #expect(pilot.hintBar.hasSuffix(" 23%"))  // 7 of 30 lines seen
    }

    @Test func scrollsByLineAndByPage() throws {
        let (pilot, _) = pilot()
        try pilot.press(.down)
        #expect(pilot.content.first == " Line 2")
        try pilot.press(.character("j"), .character("k"), .up, .up)
        #expect(pilot.content.first == " Line 1")
        try pilot.press(.character(" "))  // a page keeps one line of context
        #expect(pilot.content.first == " Line 7")
        try pilot.press(.pageDown)
        #expect(pilot.content.first == " Line 13")
        try pilot.press(.character("b"))
        #expect(pilot.content.first == " Line 7")
        try pilot.press(.pageUp, .pageUp)
        #expect(pilot.content.first == " Line 1")
    }

    @Test func homeAndEndGoToTheEnds() throws {
        let (pilot, _) = pilot()
        try pilot.press(.end)
        #expect(pilot.content == [" Line 24", " Line 25", " Line 26", " Line 27", " Line 28", " Line 29", " Line 30"])
        #expect(pilot.hintBar.hasSuffix(" 100%"))
        try pilot.press(.down, .pageDown)  // nothing past the end
        #expect(pilot.content.first == " Line 24")
        try pilot.press(.home)
        #expect(pilot.content.first == " Line 1")
        try pilot.press(.character("G"))
        #expect(pilot.content.first == " Line 24")
        try pilot.press(.character("g"))
        #expect(pilot.content.first == " Line 1")
    }

    @Test func onATinyPagerTheWheelKeepsARowInView() throws {
        let pilot = Pilot(PagerScreen(title: "Book", text: Self.thirtyLines), columns: 40, rows: 3, minimumSize: Size(columns: 20, rows: 3))
        try pilot.wheel(down: true, x: 5, y: 0)
        #expect(pilot.content == [" Line 2", " Line 3"], "one line: Line 2 was seen and stays")
    }

    @Test func aWheelReportIsAFewLinesWhateverTheScreenShows() {
        let down = MouseEvent(.wheelDown, button: .none, at: Point(x: 0, y: 0))
        #expect(Motion(wheel: down) == .lines(3))
        #expect(Motion(wheel: down, rowsShown: 40) == .lines(3))
        #expect(Motion(wheel: down, rowsShown: 3) == .lines(2))
        #expect(Motion(wheel: down, rowsShown: 1) == .lines(1))
        #expect(Motion(wheel: MouseEvent(.wheelUp, button: .none, at: Point(x: 0, y: 0)), rowsShown: 2) == .lines(-1))
        #expect(Motion(wheel: MouseEvent(.press, button: .left, at: Point(x: 0, y: 0))) == nil)
    }

    @Test func wheelScrollsThreeLines() throws {
        let (pilot, _) = pilot()
        try pilot.wheel(down: true, x: 5, y: 2)
        #expect(pilot.content.first == " Line 4")
        try pilot.wheel(down: false, x: 5, y: 2)
        #expect(pilot.content.first == " Line 1")
    }

    @Test func shortTextDoesNotScroll() throws {
        let (pilot, pager) = pilot("Just one line.")
        try pilot.press(.down, .end)
        #expect(pilot.content.first == " Just one line.")
        #expect(pager.anchorOffset == 0)
        #expect(pilot.hintBar.hasSuffix(" 100%"))
    }

    @Test func wideTerminalGetsWiderMargins() {
        let (pilot, _) = pilot(Self.words, columns: 80)
        // 76 columns of text at x 2: fifteen words a line.
        #expect(pilot.content[0] == "  " + (1...15).map { "w" + String(1000 + $0).dropFirst() }.joined(separator: " "))
        #expect(pilot.content[1].hasPrefix("  w016 w017"))
    }

    @Test func theSameTextStaysOnTopAfterAResizeToAnotherWidth() throws {
        let (pilot, pager) = pilot(Self.words, columns: 80, rows: 10)
        try pilot.press(.down, .down, .down)
        #expect(pilot.content[0].hasPrefix("  w046 w047"))
        let offset = pager.anchorOffset
        #expect(offset == 45 * 5)

        try pilot.resize(columns: 40, rows: 10)
        // 38 columns: seven words a line; the top line is the one holding w046.
        #expect(pilot.content[0] == " w043 w044 w045 w046 w047 w048 w049")
        #expect(pager.anchorOffset == offset)

        try pilot.resize(columns: 80, rows: 10)
        #expect(pilot.content[0].hasPrefix("  w046 w047"))
        #expect(pager.anchorOffset == offset)
    }

    @Test func restoringAnOffsetSnapsToACharacterAndShowsItsLine() throws {
        let text = "世界世界\n" + Self.thirtyLines
        let (pilot, pager) = pilot(text)
        pager.anchorOffset = 4  // inside 界 (three UTF-8 bytes each)
        #expect(pager.anchorOffset == 3)
        pager.anchorOffset = 13 + 7  // in "Line 1\n" -> top line is "Line 1"
        pager.anchorOffset = text.utf8.count + 50  // past the end: the last character
        #expect(pager.anchorOffset == text.utf8.count - 1)
        pager.anchorOffset = 13 + 7 + 3  // the "e" of "Line 2"
        try pilot.press()
        #expect(pilot.content.first == " Line 2")
    }

    @Test func newTextStartsAtTheTop() throws {
        let (pilot, pager) = pilot()
        try pilot.press(.end)
        pager.text = "Chapter II\nThe Pool of Tears"
        try pilot.press()
        #expect(pilot.content == [" Chapter II", " The Pool of Tears", "", "", "", "", ""])
        #expect(pager.anchorOffset == 0)
    }

    @Test func controlCharactersInTheTextAreShownHarmlessly() {
        let (pilot, _) = pilot("bell\u{7} esc\u{1B}[2J tab\tend\r\nnext")
        #expect(pilot.content[0] == " bell␇ esc␛[2J tab␉end")
        #expect(pilot.content[1] == " next")
    }
}
