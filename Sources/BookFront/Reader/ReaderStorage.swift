import Defaults
import FoundationEssentials
import KeyedArchive
import PropertyList

/// The owner of the bookmarks: per book (keyed by the book's content hash, so two books never
/// share them) in the defaults under `WLBookmarks` ({id: keyed archive of a BookmarkList}),
/// saved entry by entry, and for one book merged as a set: a bookmark another instance added
/// or deleted meanwhile stays added or deleted. Adding and deleting write to disk before
/// returning. Reading positions have their own owner, `ReadingPositions`.
public struct ReaderStorage {
    public static let bookmarksKey = SavedKey.bookmarkLists
    public static let positionsKey = ReadingPositions.storeKey
    public let store: PreferenceStore
    public let positions: ReadingPositions

    public init(store: PreferenceStore) {
        self.store = store
        positions = ReadingPositions(store: store)
        Self.declareMerge(in: store)
    }

    /// Tells the store to save the bookmarks entry by entry, merging one book's as a set.
    public static func declareMerge(in store: PreferenceStore) {
        store.mergesPerEntry(bookmarksKey, rule: bookmarkMerge.keepingCopy(.sameShape))
    }

    public func position(forBook id: String) -> Int? { positions.position(forBook: id) }

    /// The book's bookmarks, in text order. Throws when what is stored cannot be read.
    public func bookmarks(forBook id: String) throws -> [Bookmark] {
        try Self.bookmarks(in: store.object(forKey: Self.bookmarksKey, entry: id))
    }

    /// Saves the book's bookmarks and writes them to disk before returning.
    public func setBookmarks(_ bookmarks: [Bookmark], forBook id: String) throws {
        store.set(try Self.propertyList(bookmarks, forBook: id), forKey: Self.bookmarksKey, entry: id)
        try store.saveNow()
    }

    static func bookmarks(in value: PropertyListValue?) throws -> [Bookmark] {
        guard let value else { return [] }
        let list = try ArchivedValue.object(of: BookmarkList.self, from: value, allowedClasses: [Bookmark.self])
        return list.bookmarks.sorted { $0.offset < $1.offset }
    }

    static func propertyList(_ bookmarks: [Bookmark], forBook id: String) throws -> PropertyListValue? {
        guard !bookmarks.isEmpty else { return nil }
        return try ArchivedValue.propertyListValue(for: BookmarkList(bookID: id, bookmarks: bookmarks.sorted { $0.offset < $1.offset }))
    }

    /// One book's bookmarks changed in two instances: theirs, plus what this one added, minus
    /// what this one deleted (a bookmark is its page offset). A list that cannot be read is not
    /// merged into: the side that can be read is kept whole.
    static let bookmarkMerge = EntryMerge { base, mine, theirs in
        guard let mineMarks = try? bookmarks(in: mine), let theirMarks = try? bookmarks(in: theirs) else { return mine ?? theirs }
        let baseOffsets = Set(((try? bookmarks(in: base)) ?? []).map(\.offset))
        let mineOffsets = Set(mineMarks.map(\.offset))
        let deletedHere = baseOffsets.subtracting(mineOffsets)
        var merged = theirMarks.filter { !deletedHere.contains($0.offset) }
        let kept = Set(merged.map(\.offset))
        merged += mineMarks.filter { !baseOffsets.contains($0.offset) && !kept.contains($0.offset) }
        let bookID = (try? ArchivedValue.object(of: BookmarkList.self, from: mine ?? theirs ?? .dictionary([:]), allowedClasses: [Bookmark.self]))?.bookID ?? ""
        return (try? propertyList(merged, forBook: bookID)) ?? mine
    }
}
