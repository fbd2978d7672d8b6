import Defaults
import PropertyList

/// The owner of the characters the user starred: a dictionary in the defaults store from
/// character id to `true`, saved entry by entry, so two instances starring different
/// characters keep both. The same character starred in one and unstarred in the other: the
/// last save wins, as the user's last word on it.
///
/// Starring writes to disk before returning: when the row says "favourite", it is on disk.
public struct CharacterFavourites {
    public static let storeKey = SavedKey.favouriteCharacters
    public let store: PreferenceStore

    public init(store: PreferenceStore) {
        self.store = store
        store.mergesPerEntry(Self.storeKey, rule: .lastWriterWins)
    }

    /// Any value counts as starred, so an entry written by hand with another type still shows.
    public func contains(_ id: String) -> Bool { store.object(forKey: Self.storeKey, entry: id) != nil }

    public var ids: Set<String> { Set(entries.keys) }

    private var entries: [String: PropertyListValue] {
        if case .dictionary(let favourites)? = store.object(forKey: Self.storeKey) { return favourites }
        return [:]
    }

    /// Stars or unstars one character, durably. Throws when it could not be written to disk (it
    /// is then still changed in memory and written at the next chance).
    public func set(_ isFavourite: Bool, for id: String) throws {
        guard isFavourite != contains(id) else { return }
        store.set(isFavourite ? .boolean(true) : nil, forKey: Self.storeKey, entry: id)
        try store.saveNow()
    }
}
