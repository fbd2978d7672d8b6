import FoundationEssentials
import KeyedArchive

/// A place in a book the reader marked: the byte offset of the page's top line, and a title
/// made of the page's first words. Stored in defaults as a keyed archive.
public final class Bookmark: KeyedArchivable, Equatable {
    public static let archiveClassName = "WLBookmark"
    public var offset = 0
    public var title = ""
    public var created = Date(timeIntervalSinceReferenceDate: 0)

    public init() {}

    public init(offset: Int, title: String, created: Date = Date()) {
        self.offset = offset
        self.title = title
        self.created = created
    }

    public func encode(with archiver: KeyedArchiver) throws {
        archiver.encode(offset, forKey: SavedKey.offset)
        try archiver.encode(title, forKey: SavedKey.title)
        try archiver.encode(created, forKey: SavedKey.created)
    }

    public func decode(from unarchiver: KeyedUnarchiver) throws {
        offset = try unarchiver.decodeInteger(forKey: SavedKey.offset)
        title = try unarchiver.decodeObject(of: String.self, forKey: SavedKey.title) ?? ""
        created = try unarchiver.decodeObject(of: Date.self, forKey: SavedKey.created) ?? Date(timeIntervalSinceReferenceDate: 0)
    }

    public static func == (lhs: Bookmark, rhs: Bookmark) -> Bool {
        lhs.offset == rhs.offset && lhs.title == rhs.title && lhs.created == rhs.created
    }
}

/// One book's bookmarks, the object archived per book.
public final class BookmarkList: KeyedArchivable {
    public static let archiveClassName = "WLBookmarkList"
    public var bookID = ""
    public var bookmarks: [Bookmark] = []

    public init() {}
    public init(bookID: String, bookmarks: [Bookmark]) {
        self.bookID = bookID
        self.bookmarks = bookmarks
    }

    public func encode(with archiver: KeyedArchiver) throws {
        try archiver.encode(bookID, forKey: SavedKey.bookID)
        try archiver.encode(bookmarks, forKey: SavedKey.bookmarks)
    }

    public func decode(from unarchiver: KeyedUnarchiver) throws {
        bookID = try unarchiver.decodeObject(of: String.self, forKey: SavedKey.bookID) ?? ""
        bookmarks = try unarchiver.decodeObject(of: [Bookmark].self, forKey: SavedKey.bookmarks) ?? []
    }
}
