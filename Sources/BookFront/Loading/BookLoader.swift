import FoundationEssentials
import Platform

/// Why a book could not be opened, in words for the user.
public struct BookLoadError: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var reason: String
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
    public var description: String { "\(PathText.lastComponent(path)): \(reason)" }
}

/// Opens a book file: `.md`/`.markdown` as Markdown, `.epub` (or any zip that says it is an
/// EPUB) as EPUB, anything else as plain text once it has been checked not to be binary.
/// Every failure is a `BookLoadError` with a reason the user can act on; nothing here crashes
/// on bad input.
public enum BookLoader {
    /// Each kind has its `FileLimit` (Markdown's is lowest: it is rebuilt in memory without its
    /// markers); a file over it is refused before anything is read.
    /// With `indexes`, a UTF-8 plain-text book is opened through its index (`IndexedTextLoader`).
    public static func load(path: String, indexes: BookIndexStore? = nil) throws -> BookDocument {
        let extensionName = PathText.pathExtension(path).lowercased()
        let limit = BookFile.limit(forPath: path)
        let head = try BookFile.head(path: path, count: TextSniff.sampleSize, limit: limit)
        let sniff = head.withUnsafeBytes { TextSniff.classify($0, isWholeFile: false) }

        if extensionName == "epub" || (sniff == .zip && EPUBLoader.isEPUB(head: head)) {
            guard sniff == .zip else { throw BookLoadError(path: path, reason: "is not a valid EPUB (it is not a zip archive)") }
            return try EPUBLoader.load(path: path, indexes: indexes)
        }
        switch sniff {
        case .zip: throw BookLoadError(path: path, reason: "is a zip archive, not a book")
        case .binary: throw BookLoadError(path: path, reason: "looks like a binary file, not a book")
        case .text, .utf16: break
        }
        let isMarkdown = extensionName == "md" || extensionName == "markdown"
        if let indexes, sniff == .text, !isMarkdown, !head.starts(with: [0xEF, 0xBB, 0xBF]),
           let document = try IndexedTextLoader.load(path: path, limit: limit, store: indexes) {
            try refuseBlank(document.text, path: path)
            return document
        }
        let (text, encoding, checked) = try utf8Text(path: path, isUTF16: sniff == .utf16, limit: limit)
        try refuseBlank(text, path: path)
        if isMarkdown {
            return noting(encoding, in: MarkdownLoader.load(path: path, source: text))
        }
        return noting(encoding, in: try PlainTextLoader.load(path: path, text: text, knownValid: checked))
    }

    private static func refuseBlank(_ text: BookText, path: String) throws {
        if text.count <= TextSniff.sampleSize, text.withBytes({ $0.allSatisfy(LineScanner.isBlank) }) {
            throw BookLoadError(path: path, reason: "is empty (only blank lines)")
        }
    }

    static func fileTitle(_ path: String) -> String {
        PathText.deletingExtension(PathText.lastComponent(path))
    }

    static func replacementNote(_ count: Int) -> String {
        "Invalid UTF-8 was replaced with \u{FFFD} in \(count) \(count == 1 ? "place" : "places")."
    }
}

/// Where the app keeps books: the default book lives under the data folder.
public enum BookLibrary {
    /// Alice's Adventures in Wonderland, as the set-up fetched it (scripts/fetch-book).
    public static func defaultBookPath(dataFolderPath: String) -> String { FilePaths.join(dataFolderPath, "books/alice29.txt") }
    /// The SHA-256 scripts/fetch-book checks the default book against.
    public static let defaultBookSHA256 = "7467306ee0feed4971260f3c87421154a05be571d944e9cb021a5713700c38f0"
    /// What to tell the user when the default book is missing.
    public static let fetchHint = "Alice's Adventures in Wonderland is not on this machine: open a copy with wonderland --book PATH, or press o to open any .txt, .md or .epub file."
}
