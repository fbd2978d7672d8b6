import FileSafety
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension BookLibrary {
    /// Whether the file at `path` is the default book byte for byte: the text the set-up
    /// downloads, wherever it was put and whatever it is called. A file over a megabyte is
    /// another book, known without reading it.
    public static func isDefaultBook(atPath path: String, sha256: String = defaultBookSHA256) -> Bool {
        guard let bytes = try? BoundedFile.read(path: path, limit: .defaultBookCandidate) else { return false }
        return SHA256.hex(of: bytes) == sha256
    }

    /// The file the Characters tab finds chapters in: the default book where the data folder
    /// keeps it; else the book the app was asked to open (`--book`) when it is that same book;
    /// else the default book's place, missing, so the page says the book is not here.
    ///
    /// - Parameters:
    ///   - dataFolderPath: The app's data folder.
    ///   - openBook: The absolute path of the book the Book tab was asked to open, if any.
    ///   - sha256: The default book's digest; tests give their own book's.
    public static func charactersBookPath(dataFolderPath: String, openBook: String?, sha256: String = defaultBookSHA256) -> String {
        let installed = defaultBookPath(dataFolderPath: dataFolderPath)
        guard access(installed, F_OK) != 0, let openBook, isDefaultBook(atPath: openBook, sha256: sha256) else { return installed }
        return openBook
    }
}
