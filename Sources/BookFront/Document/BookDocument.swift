/// A chapter (or EPUB table-of-contents entry): its title and the byte offset of its heading.
/// For plain text the offset is the start of the heading's line ("CHAPTER I" with its indent),
/// so a page that starts at the chapter shows the whole heading.
public struct BookChapter: Hashable, Sendable {
    /// What a contents list shows: "CHAPTER I: Down the Rabbit-Hole", or the heading alone.
    public var title: String
    public var offset: Int
    /// Depth in the table of contents: 0 for top-level entries (EPUB nav nesting, Markdown `##`).
    public var level: Int
    /// The heading as written ("CHAPTER I") and the name under or after it ("Down the
    /// Rabbit-Hole"), when the text has them apart; nil otherwise.
    public var heading: String?
    public var subtitle: String?

    public init(title: String, offset: Int, level: Int = 0, heading: String? = nil, subtitle: String? = nil) {
        self.title = title
        self.offset = offset
        self.level = level
        self.heading = heading
        self.subtitle = subtitle
    }
}

/// Emphasis in the text (EPUB <em>, <i>, <strong>, headings; Markdown *…*), by byte range.
public struct TextEmphasis: Hashable, Sendable {
    public enum Kind: Hashable, Sendable { case emphasis, strong, heading }
    public var range: Range<Int>
    public var kind: Kind

    public init(range: Range<Int>, kind: Kind) {
        self.range = range
        self.kind = kind
    }
}

/// An opened book: its text as bytes, where its chapters start, and what the user should know
/// about how it was read. Built by the loaders (plain text, Markdown, EPUB); immutable.
public final class BookDocument: Sendable {
    public enum Format: String, Sendable { case plainText = "text", markdown, epub }

    /// A hash of the content (hex): positions and bookmarks are kept per book under it, so
    /// two books never share one, and a renamed file keeps its place.
    public let id: String
    public let title: String
    /// The file it was opened from; nil for built-in fixtures.
    public let path: String?
    public let format: Format
    public let text: BookText
    /// In text order.
    public let chapters: [BookChapter]
    public let emphasis: [TextEmphasis]
    /// Said once when the book opens: "invalid UTF-8 was replaced (3 places)".
    public let notes: [String]
    /// The book file's index (plain text opened from a file); nil for other books.
    public let index: BookIndexEntry?

    public init(id: String, title: String, path: String?, format: Format, text: BookText,
                chapters: [BookChapter], emphasis: [TextEmphasis] = [], notes: [String] = [], index: BookIndexEntry? = nil) {
        self.id = id
        self.title = title
        self.path = path
        self.format = format
        self.text = text
        self.chapters = chapters
        self.emphasis = emphasis
        self.notes = notes
        self.index = index
    }

    /// The chapter holding `offset`: the last one starting at or before it.
    public func chapterIndex(containing offset: Int) -> Int? {
        var low = 0, high = chapters.count
        while low < high {
            let middle = (low + high) / 2
            if chapters[middle].offset <= offset { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }
}
