import Defaults
import FoundationEssentials

/// What the Characters screens share: the character list (or why it could not be read), the
/// notes and favourites in the defaults store and the book the appearances are searched in.
///
/// The list is read, and the book's search made, on first use: a launch that shows another
/// tab never pays for them.
public final class CharactersContext {
    /// The character list; empty when it could not be read (`catalogError` says why).
    public var catalog: CharacterCatalog { loadedCatalog.catalog }
    /// Set when the list could not be read; the catalog is then empty and the list says why.
    public var catalogError: CharacterCatalogError? { loadedCatalog.error }
    public let notes: CharacterNotes
    public let favourites: CharacterFavourites
    /// Where each character appears in the book.
    public private(set) lazy var book: CharacterBook = {
        let book = CharacterBook(path: bookPath(), catalog: catalog, runsInBackground: searchesInBackground)
        book.alsoLookIn = alsoLookIn
        madeBook = book
        return book
    }()
    /// Another copy of the book, when the app has one open (see `CharacterBook.alsoLookIn`).
    public var alsoLookIn: (() -> String?)? {
        didSet { madeBook?.alsoLookIn = alsoLookIn }
    }
    /// The book once made, so a later `alsoLookIn` reaches it without making it.
    private weak var madeBook: CharacterBook?

    private let readCatalog: () -> Result<CharacterCatalog, CharacterCatalogError>
    private lazy var loadedCatalog: (catalog: CharacterCatalog, error: CharacterCatalogError?) = {
        switch readCatalog() {
        case .success(let loaded): return (loaded, nil)
        case .failure(let error): return (CharacterCatalog(characters: []), error)
        }
    }()
    /// Worked out with the book: a launch that never searches it never asks.
    private let bookPath: () -> String
    private let searchesInBackground: Bool

    /// A context over a list already read (or the error reading it gave).
    public convenience init(catalog: Result<CharacterCatalog, CharacterCatalogError>, store: PreferenceStore, bookURL: URL, searchesInBackground: Bool = true) {
        self.init(readingCatalog: { catalog }, store: store, bookPath: bookURL.path, searchesInBackground: searchesInBackground)
    }

    /// A context that reads its list with `readingCatalog` when a screen first needs it.
    public init(readingCatalog: @escaping () -> Result<CharacterCatalog, CharacterCatalogError>, store: PreferenceStore,
                bookPath: @escaping @autoclosure () -> String, searchesInBackground: Bool = true) {
        readCatalog = readingCatalog
        notes = CharacterNotes(store: store)
        favourites = CharacterFavourites(store: store)
        self.bookPath = bookPath
        self.searchesInBackground = searchesInBackground
    }

    /// Stars or unstars a character for the list and the favourites alike; what to tell the
    /// user when it could not reach the disk, else nil.
    func saveFavourite(_ isFavourite: Bool, for id: String) -> String? {
        do {
            try favourites.set(isFavourite, for: id)
            return nil
        } catch {
            return "Not yet on disk (kept, and saved at the next chance): \(error)"
        }
    }

    /// The app's context: the standard character list and the default book in `dataFolder`, or
    /// `openBook` (the absolute path given to `--book`) when that is the same book and the data
    /// folder has none: the page finds its chapters in the book the Book tab shows. Tests give
    /// the digest of their own book as `defaultBookSHA256`.
    public static func standard(store: PreferenceStore, dataFolderPath: String, openBook: String? = nil,
                                defaultBookSHA256: String = BookLibrary.defaultBookSHA256,
                                environment: [String: String] = ProcessInfo.processInfo.environment) -> CharactersContext {
        CharactersContext(readingCatalog: {
            Result { try CharacterCatalog.standard(environment: environment) }.mapError { error in
                error as? CharacterCatalogError ?? CharacterCatalogError(source: CharacterCatalog.fileName, message: "\(error)")
            }
        }, store: store, bookPath: BookLibrary.charactersBookPath(dataFolderPath: dataFolderPath, openBook: openBook, sha256: defaultBookSHA256))
    }
}
