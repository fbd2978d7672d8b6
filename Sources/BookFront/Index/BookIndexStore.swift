import FileSafety
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import Platform

/// The folder of book indexes, in the app's state folder: one file per book file, named by the
/// file's device and inode, so a renamed book keeps its index and a replaced one (an editor's
/// save makes a new inode) gets a new one. The folder is a cache and is kept to
/// `keptIndexes` files, the least recently written going first. An index that is damaged is
/// moved aside (`*.corrupt-<time>`), still counted in those files, and one for another state
/// of the book is replaced; either way the book is read as if there were none.
public struct BookIndexStore: Sendable {
    /// Kept as a path: the store is made at every launch, and a URL's first use costs more than
    /// the launch spends on books.
    public let folderPath: String
    public var folder: URL { URL(fileURLWithPath: folderPath, isDirectory: true) }

    static let fileLimit = FileLimit(bytes: 32 << 20, name: "a book index")
    static let keptIndexes = 64
    static let fileExtension = "bookindex"

    public init(folder: URL) { folderPath = folder.path }

    public init(folderPath: String) { self.folderPath = folderPath }

    /// `$XDG_STATE_HOME/wonderland/book-index` (or `~/.local/state/…`); nil when `environment`
    /// names neither, so a run with no home of its own (a test) writes nowhere.
    public static func standard(environment: [String: String]) -> BookIndexStore? {
        guard let base = UserFolders(environment: environment).folderNamedByEnvironment(.state) else { return nil }
        return BookIndexStore(folderPath: FilePaths.join(base, "wonderland/book-index"))
    }

    func url(for identity: FileIdentity) -> URL {
        folder.appendingPathComponent("\(String(identity.device, radix: 16))-\(String(identity.inode, radix: 16)).\(Self.fileExtension)")
    }

    /// The index for the file `identity` names, when there is one to believe.
    func read(for identity: FileIdentity) -> BookIndex? {
        let url = url(for: identity)
        let data: Data
        do {
            data = try BoundedFile.read(path: url.path, limit: Self.fileLimit, followingLinks: false)
        } catch .missing {
            return nil
        } catch {
            // Too big, a link or a FIFO put in its place: not ours as written, so kept for a look.
            moveAside(url)
            return nil
        }
        do {
            return try BookIndexCodec.decode(data, for: identity)
        } catch .stale {
            return nil
        } catch {
            moveAside(url)
            return nil
        }
    }

    /// Replaces the file's index. Not flushed to the disk: a power cut loses only a cache, and
    /// a torn file cannot result (written aside, then renamed).
    /// An index over `fileLimit` (an EPUB with a huge text) is not written: it would be refused.
    func write(_ index: BookIndex) throws {
        let data = BookIndexCodec.encode(index)
        guard data.count <= Self.fileLimit.bytes else { return }
        try AtomicFile.write(data, to: url(for: index.identity), durable: false)
        prune()
    }

    private func moveAside(_ url: URL) {
        _ = try? AtomicFile.moveAside(url, label: "corrupt")
    }

    /// Keeps the folder to `keptIndexes` files, damaged copies moved aside counted with the
    /// indexes: those go first, oldest first, then the least recently written indexes. Only
    /// the store's own names are removed, with `unlink`, so a link goes and not what it names,
    /// and a folder under such a name stays.
    func prune() {
        guard let names = folderNames(folderPath) else { return }
        var indexes: [(path: String, modified: Double)] = []
        for name in names where Self.isIndexName(name) {
            let path = FilePaths.join(folderPath, name)
            var status = stat()
            guard lstat(path, &status) == 0, FileKind(mode: status.st_mode) != .directory else { continue }
            indexes.append((path, Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9))
        }
        let damaged = MovedAside.files(inFolder: folderPath).filter { Self.isIndexName($0.name.original) }
        var excess = indexes.count + damaged.count - Self.keptIndexes
        guard excess > 0 else { return }
        let oldestDamagedFirst = damaged.sorted { ($0.name.moved, $0.path) < ($1.name.moved, $1.path) }.map(\.path)
        let oldestIndexesFirst = indexes.sorted { ($0.modified, $0.path) < ($1.modified, $1.path) }.map(\.path)
        for path in oldestDamagedFirst + oldestIndexesFirst where excess > 0 {
            unlink(path)
            excess -= 1
        }
    }

    /// The indexes in the folder by the store's own names, links included as themselves and
    /// folders left out: what `wonderland state clean` may remove, the folder being a cache.
    public func indexPaths() -> [String] {
        guard let names = folderNames(folderPath) else { return [] }
        return names.filter(Self.isIndexName).map { FilePaths.join(folderPath, $0) }.filter { path in
            var status = stat()
            return lstat(path, &status) == 0 && FileKind(mode: status.st_mode) != .directory
        }.sorted()
    }

    /// "803-1a2b.bookindex", as `url(for:)` names them.
    static func isIndexName(_ name: String) -> Bool {
        guard name.hasSuffix("." + fileExtension) else { return false }
        let parts = name.dropLast(fileExtension.count + 1).split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isHexDigit) }
    }
}

/// An open book's index: what its reader learns after opening it (a page count at a new
/// width) is added here and saved after the frame that needed it.
public final class BookIndexEntry: @unchecked Sendable {
    private let lock = Lock()
    private var index: BookIndex
    private var unsaved: Bool
    let store: BookIndexStore

    init(_ index: BookIndex, store: BookIndexStore, unsaved: Bool) {
        self.index = index
        self.store = store
        self.unsaved = unsaved
    }

    public var hasUnsavedChanges: Bool { lock.withLock { unsaved } }

    public func lineCount(width: Int) -> LineCount? { lock.withLock { index.lineCount(width: width) } }

    public func remember(_ count: LineCount) {
        lock.withLock {
            index.remember(count)
            unsaved = true
        }
    }

    /// A page count that proved wrong for the text (a checkpoint that is no block start).
    public func forgetLineCount(width: Int) {
        lock.withLock {
            index.forgetLineCount(width: width)
            unsaved = true
        }
    }

    /// Writes the index if anything changed since it was read or last written. A write that
    /// fails (a full disk, a read-only state folder) is not tried again until there is news:
    /// the book only opens the slow way next time.
    public func save() throws {
        let snapshot: BookIndex? = lock.withLock {
            guard unsaved else { return nil }
            unsaved = false
            return index
        }
        guard let snapshot else { return }
        try store.write(snapshot)
    }
}
