import Foundation
import Testing

/// The Book tab with the real binary in tmux: the reading position is a place in the text, so
/// a relaunch in a narrower terminal shows the page whose top line holds the same words.
@Suite("Book journeys in tmux", .whenEndToEndIsAskedFor)
struct BookJourneyTests {
    /// A made-up book where every word is different (so "the same sentence" can be checked by
    /// one word): CRLF line ends, paragraphs hard-wrapped at about 66 columns, chapter headings.
    static func fixture() -> String {
        var words = MadeUpWords(suffix: "x")
        var text = ""
        for chapter in ["I", "II", "III", "IV"] {
            text += "CHAPTER \(chapter)\r\n\r\n"
            for _ in 0..<14 {
                text += words.paragraph(words: 70, width: 66) + "\r\n\r\n"
            }
        }
        return text
    }

    @Test("page on at 120 columns, quit, relaunch at 60: the first frame's top line holds the same words")
    func samePlaceAtAnotherWidth() throws {
        let tmux = try TmuxSession(columns: 120, rows: 30)
        let book = tmux.home.appendingPathComponent("tide-fixture.txt")
        try Data(Self.fixture().utf8).write(to: book)
        try tmux.launchApp("-WLTextWidth 110 --book \(book.path)")
        try tmux.type("3")
        try tmux.waitForText("CHAPTER I")
        for _ in 0..<5 { try tmux.type(" ") }
        let wide = try tmux.waitFor("the sixth page") { lines in lines.count > 28 && lines[28].contains("page 6 of") }
        let topWords = wide[2].split(separator: " ")
        #expect(wide[2].count > 80, "the wide page uses the text width of 110")
        let firstWord = try #require(topWords.first.map(String.init))
        try tmux.type("q")
        try tmux.waitForText("exit=0")

        try tmux.resize(columns: 60, rows: 30)
        try tmux.waitFor("a 60-column pane") { _ in (try? tmux.paneRows()) == 30 }
        let frame = try tmux.launchForFirstFrame()
        tmux.check(frame[0].contains("3 Book"), "the Book tab is back")
        tmux.check(frame[2].split(separator: " ").contains(Substring(firstWord)),
                   "the top line at 60 columns (“\(frame[2])”) holds “\(firstWord)”, the first word at 120 columns")
        tmux.check(frame[2].count <= 60)
        try tmux.type("q")
        try tmux.waitForText("exit=0")
    }
}
