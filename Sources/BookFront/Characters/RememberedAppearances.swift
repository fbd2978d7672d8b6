import KeyedArchive
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which file a search read: its size, change time and inode. What was found in it stands in
/// for a search only while the file at that path is still this one.
public struct FileStamp: Hashable, Sendable {
    public let size: Int64
    /// The status change time, in nanoseconds.
    public let changed: Int64
    public let inode: UInt64

    public init(size: Int64, changed: Int64, inode: UInt64) {
        self.size = size
        self.changed = changed
        self.inode = inode
    }

    /// The stamp of the file at `path` now (through a symbolic link), nil when there is none.
    public static func of(path: String) -> FileStamp? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return FileStamp(size: Int64(status.st_size), changed: Int64(status.st_ctim.tv_sec) * 1_000_000_000 + Int64(status.st_ctim.tv_nsec),
                         inode: UInt64(status.st_ino))
    }
}

/// Where a character appears, as a screen showed it, with what it was found in: saved with the
/// screen so the next launch's first frame can show it again without reading the book, while
/// the search runs beside it and has the last word.
public struct RememberedAppearances: Hashable, Sendable {
    /// Mentions per chapter index.
    public var mentions: [Int: Int]
    public var chapterCount: Int
    /// The names searched for (a list changed since then searches again).
    public var names: [String]
    public var book: FileStamp

    public init(mentions: [Int: Int], chapterCount: Int, names: [String], book: FileStamp) {
        self.mentions = mentions
        self.chapterCount = chapterCount
        self.names = names
        self.book = book
    }

    /// Whether it could be a search's answer at all: an archive is read as outside input, so
    /// chapter numbers, counts and sizes are checked before anything is shown from it.
    var isPlausible: Bool {
        (0...Self.chapterLimit).contains(chapterCount) && mentions.count <= chapterCount && names.count <= Self.nameLimit
            && mentions.allSatisfy { (0..<chapterCount).contains($0.key) && $0.value > 0 && $0.value <= Self.mentionLimit }
    }

    static let chapterLimit = 100_000
    static let nameLimit = 64
    static let mentionLimit = 100_000_000
}

extension RememberedAppearances {
    /// Saves it beside the screen's own state: the mentions as chapter, count pairs.
    func encode(with coder: KeyedArchiver) throws {
        try coder.encode(mentions.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] }, forKey: SavedKey.appearances)
        coder.encode(chapterCount, forKey: SavedKey.appearancesChapterCount)
        try coder.encode(names, forKey: SavedKey.appearancesNames)
        coder.encode(book.size, forKey: SavedKey.appearancesBookSize)
        coder.encode(book.changed, forKey: SavedKey.appearancesBookChanged)
        coder.encode(Int64(bitPattern: book.inode), forKey: SavedKey.appearancesBookInode)
    }

    /// What `encode(with:)` saved; nil when a key is missing or of the wrong type, or a chapter
    /// comes twice. Whether the values are plausible is `isPlausible`'s to say.
    init?(decoding coder: KeyedUnarchiver) {
        guard let flat = try? coder.decodeObject(of: [Int].self, forKey: SavedKey.appearances), flat.count % 2 == 0,
              flat.count <= 2 * Self.chapterLimit,
              let names = try? coder.decodeObject(of: [String].self, forKey: SavedKey.appearancesNames),
              let chapterCount = try? coder.decodeInteger(forKey: SavedKey.appearancesChapterCount),
              let size = try? coder.decodeInt64(forKey: SavedKey.appearancesBookSize),
              let changed = try? coder.decodeInt64(forKey: SavedKey.appearancesBookChanged),
              let inode = try? coder.decodeInt64(forKey: SavedKey.appearancesBookInode) else { return nil }
        var mentions: [Int: Int] = [:]
        for pair in stride(from: 0, to: flat.count, by: 2) {
            guard mentions.updateValue(flat[pair + 1], forKey: flat[pair]) == nil else { return nil }
        }
        self.init(mentions: mentions, chapterCount: chapterCount, names: names,
                  book: FileStamp(size: size, changed: changed, inode: UInt64(bitPattern: inode)))
    }
}
