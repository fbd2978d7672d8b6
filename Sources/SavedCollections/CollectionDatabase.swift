import CSQLite
import FileSafety
import FoundationEssentials
import Platform
import PropertyList
import TextSafety
#if canImport(Glibc)
import Glibc
#endif

/// The user's growing collections — notes, bookmarks, reading places, favourites — in one
/// SQLite database several processes share: one row per entry, one transaction per save, so a
/// save costs the entries it changes and never the size of everything kept.
///
/// Rows carry a revision, the database-wide count of saves when they were written, so another
/// process asks for what changed since the revision it last saw. A removed entry stays as a
/// row without a value, so that question also finds removals.
public final class CollectionDatabase {
    /// The saved format; a database from a newer version is read by nobody here and never written.
    public static let formatVersion: Int64 = 1
    /// SQLite's application id for this file: "WLcl".
    static let applicationID: Int64 = 0x574C_636C

    public let path: String
    private let connection: SQLiteConnection
    /// The highest revision this connection has seen, its own saves included.
    public private(set) var revision: Int64 = 0
    private var lastDataVersion: Int64 = 0
    /// The version of the app saving through this connection, recorded with its first save.
    private var writer: String?
    /// What to tell the user once: a damaged file moved aside, an entry that could not be read.
    private var warnings: [String] = []

    public enum OpenFailure: Error, CustomStringConvertible {
        case newerFormat(path: String, version: Int64)
        case notAFile(path: String)
        case cannotOpen(path: String, reason: String)

        public var description: String {
            switch self {
            case .newerFormat(let path, let version):
                "\(path) was written by a newer wonderland (format \(version); this one reads \(CollectionDatabase.formatVersion)) and is left as it is"
            case .notAFile(let path): "\(path) is not a regular file"
            case .cannotOpen(let path, let reason): "\(path) cannot be opened (\(reason))"
            }
        }
    }

    /// `$XDG_DATA_HOME/wonderland/collections/collections.sqlite` (default `~/.local/share/…`):
    /// a folder of its own, so watching it for other processes' saves sees nothing else.
    public static func standardPath(environment: [String: String]) -> String {
        FilePaths.join(FilePaths.join(FilePaths.join(UserFolders(environment: environment).dataHome, "wonderland"), "collections"), "collections.sqlite")
    }

    /// The database's three files: the database, its write-ahead log and the log's index.
    public static func files(ofDatabaseAt path: String) -> [String] { [path, path + "-wal", path + "-shm"] }

    /// Opens the database at `path`, creating it (0600, in a 0700 folder) when missing. A file
    /// that is no database of ours, or is damaged, is moved aside with its log and a new one
    /// started; a newer format is refused, untouched.
    ///
    /// `readOnly` (for commands that only look) changes nothing: no file is made, none moved
    /// aside, and damage is an error.
    public init(path: String, readOnly: Bool = false, writtenBy version: String? = nil, now: Date = Date()) throws {
        self.path = path
        writer = readOnly ? nil : version
        var opened: SQLiteConnection
        if readOnly {
            try Self.checkFile(at: path)
            do { opened = try Self.connect(path, readOnly: true) } catch let error as SQLiteError {
                throw OpenFailure.cannotOpen(path: path, reason: error.message)
            }
        } else {
            try Self.prepareFile(at: path)
            do {
                opened = try Self.connect(path, readOnly: false)
            } catch let error as SQLiteError where error.isDamage {
                warnings.append(Self.moveAside(path, reason: error.message, now: now))
                opened = try Self.connect(path, readOnly: false)
            }
        }
        connection = opened
        revision = try connection.integer("SELECT coalesce(max(revision), 0) FROM entries") ?? 0
        lastDataVersion = try connection.dataVersion()
    }

    private static func checkFile(at path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw OpenFailure.cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw OpenFailure.notAFile(path: path) }
    }

    private static func prepareFile(at path: String) throws {
        do { try AtomicFile.makeFolder(atPath: FilePaths.parent(of: path)) } catch {
            throw OpenFailure.cannotOpen(path: path, reason: "\(error)")
        }
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFREG else { throw OpenFailure.notAFile(path: path) }
            return
        }
        // SQLite would make it 0644 under the usual umask; its logs take the file's mode.
        let descriptor = Glibc.open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if descriptor >= 0 { close(descriptor) }
    }

    private static func connect(_ path: String, readOnly: Bool) throws -> SQLiteConnection {
        let connection: SQLiteConnection
        do { connection = try SQLiteConnection(path: path, create: !readOnly, readOnly: readOnly) } catch let error as SQLiteError {
            if error.isDamage { throw error }
            throw OpenFailure.cannotOpen(path: path, reason: error.message)
        }
        connection.setBusyTimeout(milliseconds: 10_000)
        // One read transaction, one snapshot: another process creating the database at this
        // moment sets its id and its tables in one commit, and must be seen whole or not at all
        // (an id of 0 beside its tables would read as another program's file).
        try connection.execute("BEGIN")
        let application: Int64, version: Int64, tables: Int64
        do {
            application = try connection.integer("PRAGMA application_id") ?? 0
            version = try connection.integer("PRAGMA user_version") ?? 0
            tables = try connection.integer("SELECT count(*) FROM sqlite_schema") ?? 0
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
        if application != applicationID && (application != 0 || tables != 0) {
            throw SQLiteError(code: SQLITE_NOTADB, message: "it is a database of another program")
        }
        if version > formatVersion { throw OpenFailure.newerFormat(path: path, version: version) }
        if readOnly {
            guard tables != 0 else { throw SQLiteError(code: SQLITE_NOTADB, message: "it holds no collections") }
            return connection
        }
        // FULL: a commit is on disk (the log fsync'd) before the save returns.
        // secure_delete FAST: freed pages are zeroed where that costs no extra write (Debian's
        // build zeroes every freed page, which doubles what saving a long note writes).
        // Changing the journal mode takes the lock without the busy handler's wait: another
        // process making the same new database at this moment is waited for here.
        for attempt in 0 ... 100 {
            do {
                try connection.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA journal_size_limit=8388608; PRAGMA secure_delete=FAST")
                break
            } catch let error as SQLiteError where error.code & 0xFF == SQLITE_BUSY && attempt < 100 {
                usleep(20_000)
            }
        }
        if tables == 0 {
            try connection.execute("""
                BEGIN IMMEDIATE;
                CREATE TABLE IF NOT EXISTS entries (
                    collection TEXT NOT NULL,
                    name TEXT NOT NULL,
                    kind INTEGER NOT NULL,
                    value BLOB,
                    revision INTEGER NOT NULL,
                    UNIQUE (collection, name));
                CREATE INDEX IF NOT EXISTS entries_by_revision ON entries (revision);
                CREATE TABLE IF NOT EXISTS moved_in (
                    collection TEXT NOT NULL,
                    name TEXT NOT NULL,
                    kind INTEGER NOT NULL,
                    value BLOB,
                    UNIQUE (collection, name));
                CREATE TABLE IF NOT EXISTS set_aside (
                    collection TEXT NOT NULL,
                    name TEXT NOT NULL,
                    kind INTEGER NOT NULL,
                    value BLOB,
                    reason TEXT NOT NULL,
                    moved REAL NOT NULL);
                PRAGMA application_id=\(applicationID);
                PRAGMA user_version=\(formatVersion);
                COMMIT;
                """)
        }
        return connection
    }

    /// Moves the database and its logs aside together: the log holds committed saves, and a
    /// database without its log would be an older, wrong one.
    private static func moveAside(_ path: String, reason: String, now: Date) -> String {
        var moved: [String] = []
        for file in files(ofDatabaseAt: path) where access(file, F_OK) == 0 {
            if let target = try? AtomicFile.moveAside(URL(fileURLWithPath: file), label: "corrupt", now: now) { moved.append(target.path) }
        }
        return "The collections database \(path) could not be read (\(reason)). It was moved to \(moved.first ?? "beside it") and a new one was started."
    }

    /// Problems to tell the user about, each once.
    public func takeWarnings() -> [String] {
        defer { warnings = [] }
        return warnings
    }

    // MARK: Reading

    /// Every entry of `collection` that has a value. Entries that cannot be read are left out
    /// (and left as they are on disk), with a warning.
    public func entries(in collection: String) throws -> [String: PropertyListValue] {
        let statement = try connection.statement("SELECT name, kind, value FROM entries WHERE collection = ?1 AND value IS NOT NULL")
        defer { statement.reset() }
        try statement.bind(collection, at: 1)
        var result: [String: PropertyListValue] = [:]
        while try statement.step() {
            let name = statement.text(at: 0)
            if let value = readValue(statement, kindColumn: 1, valueColumn: 2, collection: collection, name: name) { result[name] = value }
        }
        return result
    }

    /// One entry's value; nil when there is none or it cannot be read.
    public func entry(_ name: String, in collection: String) throws -> PropertyListValue? {
        let statement = try connection.statement("SELECT kind, value FROM entries WHERE collection = ?1 AND name = ?2")
        defer { statement.reset() }
        try statement.bind(collection, at: 1)
        try statement.bind(name, at: 2)
        guard try statement.step() else { return nil }
        return readValue(statement, kindColumn: 0, valueColumn: 1, collection: collection, name: name)
    }

    private func readValue(_ statement: SQLiteStatement, kindColumn: Int32, valueColumn: Int32, collection: String, name: String) -> PropertyListValue? {
        guard !statement.isNull(at: valueColumn) else { return nil }
        let size = statement.byteCount(at: valueColumn)
        do {
            guard size <= CollectionEntryCoding.maximumBytes else { throw CollectionEntryCoding.Failure.tooBig(size) }
            return try CollectionEntryCoding.decode(kind: statement.integer(at: kindColumn), bytes: statement.data(at: valueColumn) ?? Data())
        } catch {
            warnings.append("The entry \(SafeText.bounded(SafeText.visible(name), to: 80)) of \(collection) in \(path) is left out: \(error).")
            return nil
        }
    }

    /// One entry that changed since a revision: its collection, its name, its value (nil: removed
    /// or unreadable).
    public struct ChangedEntry: Equatable {
        public let collection: String
        public let name: String
        public let value: PropertyListValue?
    }

    /// True when another process saved since this connection last looked: one pragma, no read.
    public func othersSaved() -> Bool {
        guard let version = try? connection.dataVersion() else { return true }
        defer { lastDataVersion = version }
        return version != lastDataVersion
    }

    /// What changed since the last revision this connection saw, oldest first; the revision
    /// moves on past it.
    public func changesSinceLastLook() throws -> [ChangedEntry] {
        let statement = try connection.statement("SELECT collection, name, kind, value, revision FROM entries WHERE revision > ?1 ORDER BY revision")
        defer { statement.reset() }
        try statement.bind(revision, at: 1)
        var changes: [ChangedEntry] = []
        var latest = revision
        while try statement.step() {
            let collection = statement.text(at: 0), name = statement.text(at: 1)
            let value = readValue(statement, kindColumn: 2, valueColumn: 3, collection: collection, name: name)
            changes.append(ChangedEntry(collection: collection, name: name, value: value))
            latest = max(latest, statement.integer(at: 4))
        }
        revision = latest
        return changes
    }

    // MARK: Saving

    /// One save: for each name, `settle` is given the entry as it is on disk now (another
    /// process may have changed it) and returns what to store (nil removes it). All in one
    /// transaction, durable before this returns. Returns what was stored. An entry on disk this
    /// version cannot read is kept in `set_aside` before anything replaces it.
    @discardableResult
    public func save(in collection: String, names: [String], now: Date = Date(),
                     settle: (_ name: String, _ theirs: PropertyListValue?) -> PropertyListValue?) throws -> [String: PropertyListValue?] {
        guard !names.isEmpty else { return [:] }
        return try inTransaction { next in
            var stored: [String: PropertyListValue?] = [:]
            for name in names {
                let theirs = try current(name, in: collection, now: now)
                let value = settle(name, theirs.value)
                if value != theirs.value || !theirs.readable { try write(value, name: name, in: collection, revision: next) }
                stored[name] = .some(value)
            }
            return stored
        }
    }

    /// Moves entries another store held (the defaults file, where an older version keeps its
    /// collections) into `collection`. The values moved are remembered: an entry that is still
    /// what was moved is a stale copy and changes nothing; one changed since (by an older
    /// version) is settled with what was moved as its base, so a three-way merge sees what each
    /// side did. Returns what was stored for the entries that changed anything.
    @discardableResult
    public func moveIn(_ entries: [String: PropertyListValue], into collection: String, now: Date = Date(),
                       settle: (_ name: String, _ base: PropertyListValue?, _ mine: PropertyListValue, _ theirs: PropertyListValue?) -> PropertyListValue?) throws -> [String: PropertyListValue?] {
        let moved = try movedIn(collection)
        let fresh = entries.filter { moved[$0.key] != $0.value }
        guard !fresh.isEmpty else { return [:] }
        return try inTransaction { next in
            var stored: [String: PropertyListValue?] = [:]
            for (name, mine) in fresh.sorted(by: { $0.key < $1.key }) {
                let theirs = try current(name, in: collection, now: now)
                let value = settle(name, moved[name], mine, theirs.value)
                if value != theirs.value || !theirs.readable { try write(value, name: name, in: collection, revision: next) }
                try remember(mine, movedAs: name, in: collection)
                stored[name] = .some(value)
            }
            return stored
        }
    }

    /// Which versions of the app saved here, each with when it first and last did (the last
    /// as of its first save in a process): for a bug report, and for `collections list`.
    public func writers() throws -> [(version: String, first: Date, last: Date)] {
        guard try connection.integer("SELECT count(*) FROM sqlite_schema WHERE name = 'written_by'") == 1 else { return [] }
        let statement = try connection.statement("SELECT version, first, last FROM written_by ORDER BY last")
        defer { statement.reset() }
        var result: [(version: String, first: Date, last: Date)] = []
        while try statement.step() {
            result.append((statement.text(at: 0), Date(timeIntervalSince1970: statement.double(at: 1)), Date(timeIntervalSince1970: statement.double(at: 2))))
        }
        return result
    }

    /// A random number of this database's own, made at first use: what another store keeps of
    /// the collections is marked with it, so a copy that came from another database (a settings
    /// file copied from another machine) is never taken for one made from this.
    public func salt() throws -> UInt64 {
        if let salt = cachedSalt { return salt }
        try connection.execute("CREATE TABLE IF NOT EXISTS about (key TEXT PRIMARY KEY, value INTEGER NOT NULL)")
        let insert = try connection.statement("INSERT OR IGNORE INTO about (key, value) VALUES ('salt', ?1)")
        defer { insert.reset() }
        try insert.bind(Int64.random(in: .min ... .max), at: 1)
        try insert.run()
        let salt = UInt64(bitPattern: try connection.integer("SELECT value FROM about WHERE key = 'salt'") ?? 0)
        cachedSalt = salt
        return salt
    }

    private var cachedSalt: UInt64?

    /// Inside a save's transaction: an older version of this format ignores the table.
    private func recordWriter(_ version: String) throws {
        try connection.execute("CREATE TABLE IF NOT EXISTS written_by (version TEXT PRIMARY KEY, first REAL NOT NULL, last REAL NOT NULL)")
        let statement = try connection.statement("""
            INSERT INTO written_by (version, first, last) VALUES (?1, ?2, ?2)
            ON CONFLICT (version) DO UPDATE SET last = excluded.last
            """)
        defer { statement.reset() }
        try statement.bind(version, at: 1)
        try statement.bind(Date().timeIntervalSince1970, at: 2)
        try statement.run()
    }

    /// The names of the collection's entries, the most recently saved first.
    public func namesNewestFirst(in collection: String) throws -> [String] {
        let statement = try connection.statement(
            "SELECT name FROM entries WHERE collection = ?1 AND value IS NOT NULL ORDER BY revision DESC, name")
        defer { statement.reset() }
        try statement.bind(collection, at: 1)
        var names: [String] = []
        while try statement.step() { names.append(statement.text(at: 0)) }
        return names
    }

    /// Remembers `entries` as what the other store now holds of `collection` (a copy written
    /// there for an older release), so that only what is changed there later is moved in.
    public func rememberCopy(_ entries: [String: PropertyListValue], of collection: String) throws {
        let known = try movedIn(collection)
        let changed = entries.filter { known[$0.key] != $0.value }
        guard !changed.isEmpty else { return }
        try connection.execute("BEGIN IMMEDIATE")
        do {
            for (name, value) in changed.sorted(by: { $0.key < $1.key }) { try remember(value, movedAs: name, in: collection) }
            try connection.execute("COMMIT")
            lastDataVersion = (try? connection.dataVersion()) ?? lastDataVersion
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// The values last moved into `collection` from elsewhere, by name.
    public func movedIn(_ collection: String) throws -> [String: PropertyListValue] {
        let statement = try connection.statement("SELECT name, kind, value FROM moved_in WHERE collection = ?1")
        defer { statement.reset() }
        try statement.bind(collection, at: 1)
        var result: [String: PropertyListValue] = [:]
        while try statement.step() {
            if let bytes = statement.data(at: 2), let value = try? CollectionEntryCoding.decode(kind: statement.integer(at: 1), bytes: bytes) {
                result[statement.text(at: 0)] = value
            }
        }
        return result
    }

    /// Forgets what was moved into `collection`, once its old store no longer holds it.
    public func forgetMovedIn(_ collection: String) throws {
        let count = try connection.statement("SELECT count(*) FROM moved_in WHERE collection = ?1")
        defer { count.reset() }
        try count.bind(collection, at: 1)
        guard try count.step(), count.integer(at: 0) > 0 else { return }
        try connection.execute("BEGIN IMMEDIATE")
        do {
            let statement = try connection.statement("DELETE FROM moved_in WHERE collection = ?1")
            defer { statement.reset() }
            try statement.bind(collection, at: 1)
            try statement.run()
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    private func remember(_ value: PropertyListValue, movedAs name: String, in collection: String) throws {
        let statement = try connection.statement("""
            INSERT INTO moved_in (collection, name, kind, value) VALUES (?1, ?2, ?3, ?4)
            ON CONFLICT (collection, name) DO UPDATE SET kind = excluded.kind, value = excluded.value
            """)
        let (kind, bytes) = try CollectionEntryCoding.encode(value)
        try statement.bind(collection, at: 1)
        try statement.bind(name, at: 2)
        try statement.bind(kind, at: 3)
        try statement.bind(bytes, at: 4)
        try statement.run()
    }

    /// Runs `body` in one write transaction, given the revision its writes carry; committed
    /// (durably) before this returns, rolled back when anything throws.
    private func inTransaction<T>(_ body: (_ revision: Int64) throws -> T) throws -> T {
        try connection.execute("BEGIN IMMEDIATE")
        do {
            let next = (try connection.integer("SELECT coalesce(max(revision), 0) + 1 FROM entries") ?? 1)
            let result = try body(next)
            if let writer { try recordWriter(writer) }
            try connection.execute("COMMIT")
            writer = nil
            // Own saves are not news: the next look starts after them, unless another
            // process saved in between (its revision is lower, and still to be read).
            if revision == next - 1 { revision = next }
            lastDataVersion = (try? connection.dataVersion()) ?? lastDataVersion
            return result
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    private func current(_ name: String, in collection: String, now: Date) throws -> (value: PropertyListValue?, readable: Bool) {
        let statement = try connection.statement("SELECT kind, value FROM entries WHERE collection = ?1 AND name = ?2")
        defer { statement.reset() }
        try statement.bind(collection, at: 1)
        try statement.bind(name, at: 2)
        guard try statement.step(), !statement.isNull(at: 1) else { return (nil, true) }
        let kind = statement.integer(at: 0)
        let size = statement.byteCount(at: 1)
        if size <= CollectionEntryCoding.maximumBytes, let bytes = statement.data(at: 1),
           let value = try? CollectionEntryCoding.decode(kind: kind, bytes: bytes) {
            return (value, true)
        }
        let keep = try connection.statement("INSERT INTO set_aside (collection, name, kind, value, reason, moved) SELECT collection, name, kind, value, 'unreadable', ?3 FROM entries WHERE collection = ?1 AND name = ?2")
        defer { keep.reset() }
        try keep.bind(collection, at: 1)
        try keep.bind(name, at: 2)
        try keep.bind(Int64(now.timeIntervalSince1970), at: 3)
        try keep.run()
        return (nil, false)
    }

    private func write(_ value: PropertyListValue?, name: String, in collection: String, revision: Int64) throws {
        let statement = try connection.statement("""
            INSERT INTO entries (collection, name, kind, value, revision) VALUES (?1, ?2, ?3, ?4, ?5)
            ON CONFLICT (collection, name) DO UPDATE SET kind = excluded.kind, value = excluded.value, revision = excluded.revision
            """)
        try statement.bind(collection, at: 1)
        try statement.bind(name, at: 2)
        if let value {
            let (kind, bytes) = try CollectionEntryCoding.encode(value)
            try statement.bind(kind, at: 3)
            try statement.bind(bytes, at: 4)
        } else {
            try statement.bind(CollectionEntryCoding.propertyListKind, at: 3)
            try statement.bind(nil as Data?, at: 4)
        }
        try statement.bind(revision, at: 5)
        try statement.run()
    }

    // MARK: Looking

    /// One collection as `state usage` and the collections command show it.
    public struct Summary: Equatable {
        public let collection: String
        public let entries: Int
        public let bytes: Int64
    }

    /// Each collection's entries and the bytes their values take, by name.
    public func summaries() throws -> [Summary] {
        let statement = try connection.statement("SELECT collection, count(*), coalesce(sum(length(value)), 0) FROM entries WHERE value IS NOT NULL GROUP BY collection ORDER BY collection")
        defer { statement.reset() }
        var result: [Summary] = []
        while try statement.step() {
            result.append(Summary(collection: statement.text(at: 0), entries: Int(statement.integer(at: 1)), bytes: statement.integer(at: 2)))
        }
        return result
    }
}
