import Defaults
import Foundation
import KeyedArchive
import PropertyList

/// Where the reader keeps what it knows per book in the defaults store, keyed by the book's
/// content hash so two books never share a place: reading positions in `WLReadingPositions`
/// ({id: byte offset}) and bookmarks in `WLBookmarks` ({id: keyed archive of a BookmarkList}).
public struct ReaderStorage {
    public static let positionsKey = "WLReadingPositions"
    public static let bookmarksKey = "WLBookmarks"
    public let store: PreferenceStore

    public init(store: PreferenceStore) { self.store = store }

    private func dictionary(_ key: String) -> [String: PropertyListValue] {
        if case .dictionary(let values)? = store.object(forKey: key) { return values }
        return [:]
    }

    public func position(forBook id: String) -> Int? {
        dictionary(Self.positionsKey)[id].flatMap(DefaultsConversion.integer)
    }

    public func setPosition(_ offset: Int, forBook id: String) {
        var positions = dictionary(Self.positionsKey)
        guard positions[id] != .integer(Int64(offset)) else { return }
        positions[id] = .integer(Int64(offset))
        store.set(.dictionary(positions), forKey: Self.positionsKey)
    }

    /// The book's bookmarks, in text order. Throws when what is stored cannot be read.
    public func bookmarks(forBook id: String) throws -> [Bookmark] {
        guard let value = dictionary(Self.bookmarksKey)[id] else { return [] }
        let list = try ArchivedValue.object(of: BookmarkList.self, from: value, allowedClasses: [Bookmark.self])
        return list.bookmarks.sorted { $0.offset < $1.offset }
    }

    public func setBookmarks(_ bookmarks: [Bookmark], forBook id: String) throws {
        var all = dictionary(Self.bookmarksKey)
        if bookmarks.isEmpty {
            all[id] = nil
        } else {
            all[id] = try ArchivedValue.propertyListValue(for: BookmarkList(bookID: id, bookmarks: bookmarks.sorted { $0.offset < $1.offset }))
        }
        store.set(.dictionary(all), forKey: Self.bookmarksKey)
    }
}
