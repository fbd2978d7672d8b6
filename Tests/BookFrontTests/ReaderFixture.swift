import Foundation
@testable import BookFront

/// A short book written for these tests (the project holds only text its team wrote): CRLF
/// line ends, paragraphs hard-wrapped near 66 columns, "CHAPTER I"… headings, an indented
/// verse, and a paragraph with CJK and emoji. Chapters are given explicitly (chapter detection
/// belongs to the loaders).
enum ReaderFixture {
    static let paragraphs: [String] = [
        "CHAPTER I",
        "The Keeper of the Tide Clock",
        """
        Marigold kept the tide clock on the end of the pier, a brass thing
        with two faces that never agreed. Every morning she wound the first
        face with a key shaped like a herring and every evening she argued
        with the second, which insisted the sea was an hour behind.
        """,
        """
        The gulls took the second face's side. They stood along the rail in
        a grey committee and laughed whenever she said the word punctual,
        which was often, because she was a punctual person by trade.
        """,
        """
            Wind the herring, wind the key,
            count the waves that count the sea;
            one face early, one face late,
            the tide will always make you wait.
        """,
        """
        She had learned the rhyme from her grandmother, who had learned it
        from nobody at all and claimed to have made it up while falling
        asleep in a rowing boat that drifted as far as the lighthouse.
        """,
        "CHAPTER II",
        "A Visitor Who Ate the Timetable",
        """
        On the first Tuesday of the storm season a tortoise came up the
        pier steps with a railway timetable in his mouth. He chewed it
        slowly, page by page, and when he had eaten the last departure he
        asked Marigold whether the clock could tell him when he had been born.
        """,
        """
        She said the clock only told the tide. The tortoise said that was a
        pity, because he had always suspected he was born at low water, and
        a creature born at low water should know how far the sea had gone.
        """,
        """
        They sat together until the lamps came on. The tortoise read aloud
        from what remained of the timetable: 潮の時計 and 灯台 were the only
        words left whole, and a small 🐢 someone had drawn in the margin.
        """,
        "CHAPTER III",
        "The Clock Stops",
        """
        At midnight both faces stopped at once, which they had never done
        before. Marigold held her breath. The gulls stopped laughing. The
        tortoise swallowed the last corner of paper and said, very quietly,
        that agreement was the rarest weather of all.
        """,
        """
        In the morning the first face said seven and the second face said
        seven, and the sea came in exactly when it was expected, and nobody
        on the whole coast knew what to do with so much punctuality.
        """,
    ]

    /// The text with CRLF line ends and a blank line between paragraphs.
    static var string: String {
        paragraphs.joined(separator: "\n\n").replacingOccurrences(of: "\n", with: "\r\n") + "\r\n"
    }

    static func document(id: String = "fixture-1", path: String? = nil) -> BookDocument {
        let text = BookText(string)
        let bytes = Array(string.utf8)
        let chapters = ["CHAPTER I", "CHAPTER II", "CHAPTER III"].map { heading -> BookChapter in
            let offset = offsetOf(heading + "\r\n", in: bytes)
            return BookChapter(title: heading, offset: offset)
        }
        return BookDocument(id: id, title: "The Tide Clock", path: path, format: .plainText, text: text, chapters: chapters)
    }

    /// The byte offset of the first occurrence of `needle`.
    static func offsetOf(_ needle: String, in bytes: [UInt8] = Array(string.utf8)) -> Int {
        let pattern = Array(needle.utf8)
        for start in 0...(bytes.count - pattern.count) where Array(bytes[start..<(start + pattern.count)]) == pattern { return start }
        fatalError("fixture has no “\(needle)”")
    }

    /// A long book made of the fixture's paragraphs repeated, each copy numbered.
    static func longString(copies: Int) -> String {
        (1...copies).map { "Part \($0).\r\n\r\n" + string }.joined(separator: "\r\n")
    }
}
