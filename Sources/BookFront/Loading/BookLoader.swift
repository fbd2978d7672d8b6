import Foundation

/// Why a book could not be opened, in words for the user.
public struct BookLoadError: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var reason: String
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
    public var description: String { "\((path as NSString).lastPathComponent): \(reason)" }
}

/// Opens a book file by its extension. (Minimal plain-text loading for now; the loaders for
/// Markdown and EPUB, chapter detection and the content hash arrive with the book-document work.)
public enum BookLoader {
    public static func load(path: String) throws -> BookDocument {
        let url = URL(fileURLWithPath: path)
        let text: BookText
        do { text = try BookText(contentsOf: url) } catch { throw BookLoadError(path: path, reason: "cannot be read (\(error.localizedDescription))") }
        var hasher = Hasher()
        hasher.combine(text.bytes)
        let id = String(UInt64(bitPattern: Int64(hasher.finalize())), radix: 16)
        return BookDocument(id: id, title: url.deletingPathExtension().lastPathComponent, path: path, format: .plainText, text: text, chapters: [])
    }
}

/// Where the app keeps books: the default book lives under the data folder.
public enum BookLibrary {
    public static func booksFolder(dataFolder: URL) -> URL { dataFolder.appendingPathComponent("books") }
    /// Alice's Adventures in Wonderland, as the set-up fetched it (scripts/fetch-book).
    public static func defaultBookURL(dataFolder: URL) -> URL { booksFolder(dataFolder: dataFolder).appendingPathComponent("alice29.txt") }
}
