import FileSafety
import Platform
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

    /// Where the default book is read from: the user's own copy in the data folder, else the
    /// copy an install put in its prefix (`/usr/share/wonderland/books/` beside `/usr/bin`,
    /// found as the app's other resources are), else the user's place, missing, so the page
    /// says where to put it.
    public static func installedDefaultBookPath(dataFolderPath: String, environment: [String: String]) -> String {
        let own = defaultBookPath(dataFolderPath: dataFolderPath)
        if access(own, F_OK) == 0 { return own }
        if let installed = AppResources.locate(installedBookName, environment: environment), access(installed, R_OK) == 0 {
            return installed
        }
        return own
    }

    /// The default book's name among the resources of an install.
    static let installedBookName = "books/alice29.txt"

    /// The file the Characters tab finds chapters in: the default book where the data folder
    /// or an install keeps it; else the book the app was asked to open (`--book`) when it is that same book;
    /// else the default book's place, missing, so the page says the book is not here.
    ///
    /// - Parameters:
    ///   - dataFolderPath: The app's data folder.
    ///   - openBook: The absolute path of the book the Book tab was asked to open, if any.
    ///   - sha256: The default book's digest; tests give their own book's.
    ///   - environment: The process environment (where an install's resources are looked for).
    public static func charactersBookPath(dataFolderPath: String, openBook: String?, sha256: String = defaultBookSHA256,
                                          environment: [String: String] = ProcessEnvironment.current()) -> String {
        let installed = installedDefaultBookPath(dataFolderPath: dataFolderPath, environment: environment)
        guard access(installed, F_OK) != 0, let openBook, isDefaultBook(atPath: openBook, sha256: sha256) else { return installed }
        return openBook
    }
}
