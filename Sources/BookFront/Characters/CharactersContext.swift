import Defaults
import FoundationEssentials

/// What the Characters screens share: the character list (or why it could not be read), the
/// notes and favourites in the defaults store and the book the appearances are searched in.
public final class CharactersContext {
    public let catalog: CharacterCatalog
    /// Set when the list could not be read; the catalog is then empty and the list says why.
    public let catalogError: CharacterCatalogError?
    public let notes: CharacterNotes
    public let favourites: CharacterFavourites
    public let book: CharacterBook

    public init(catalog: Result<CharacterCatalog, CharacterCatalogError>, store: PreferenceStore, bookURL: URL, searchesInBackground: Bool = true) {
        switch catalog {
        case .success(let loaded):
            self.catalog = loaded
            catalogError = nil
        case .failure(let error):
            self.catalog = CharacterCatalog(characters: [])
            catalogError = error
        }
        notes = CharacterNotes(store: store)
        favourites = CharacterFavourites(store: store)
        book = CharacterBook(url: bookURL, catalog: self.catalog, runsInBackground: searchesInBackground)
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

    /// The app's context: the standard character list and the default book in `dataFolder`.
    public static func standard(store: PreferenceStore, dataFolder: URL, environment: [String: String] = ProcessInfo.processInfo.environment) -> CharactersContext {
        let catalog = Result { try CharacterCatalog.standard(environment: environment) }.mapError { error in
            error as? CharacterCatalogError ?? CharacterCatalogError(source: CharacterCatalog.fileName, message: "\(error)")
        }
        return CharactersContext(catalog: catalog, store: store, bookURL: BookLibrary.defaultBookURL(dataFolder: dataFolder))
    }
}
