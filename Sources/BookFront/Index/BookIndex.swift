import FoundationEssentials

/// What opening a plain-text book would otherwise compute from every one of its bytes — the
/// content id its places are kept under, whether it is valid UTF-8, its chapters and title —
/// and the page counts made at the widths it was read at. Kept beside the app's state, one
/// file per book file, and only believed for the file whose `FileIdentity` it names.
struct BookIndex: Sendable {
    var identity: FileIdentity
    /// `ContentHash.id` of the text.
    var bookID: String
    /// Nil: the book has no title of its own and is shown under its file name.
    var detectedTitle: String?
    /// Invalid UTF-8 sequences in the text (each shown as U+FFFD).
    var invalidSequences: Int
    var chapters: [BookChapter]
    /// An EPUB's text as its loader made it, and what only an EPUB has; nil for plain text,
    /// whose text is the file.
    var decoded: DecodedText?
    /// Page counts by width, most recently made last; at most `lineCountLimit`.
    var lineCounts: [LineCount] = []

    struct DecodedText: Sendable {
        var text: Data
        var emphasis: [TextEmphasis]
        var notes: [String]
    }

    /// The length of the text every offset in the index is into.
    var textLength: Int { decoded?.text.count ?? Int(clamping: identity.size) }

    /// A reader changes width rarely: a few widths cover a terminal and its resized sizes.
    static let lineCountLimit = 4

    func lineCount(width: Int) -> LineCount? { lineCounts.last { $0.width == width } }

    mutating func remember(_ count: LineCount) {
        lineCounts.removeAll { $0.width == count.width }
        lineCounts.append(count)
        if lineCounts.count > Self.lineCountLimit { lineCounts.removeFirst(lineCounts.count - Self.lineCountLimit) }
    }

    mutating func forgetLineCount(width: Int) {
        lineCounts.removeAll { $0.width == width }
    }
}
