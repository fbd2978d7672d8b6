import CSQLite
import FoundationEssentials

/// A failure SQLite reported: its result code and its message.
public struct SQLiteError: Error, CustomStringConvertible, Equatable {
    public let code: Int32
    public let message: String

    public var description: String { message }

    /// The file is not a database, or its pages are damaged: what moving it aside is for.
    public var isDamage: Bool {
        let primary = code & 0xFF
        return primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB
    }
}

/// One connection to one database file, used from one thread. Statements are prepared once
/// and kept, because a save prepares nothing new.
final class SQLiteConnection {
    private var handle: OpaquePointer?
    private var statements: [String: SQLiteStatement] = [:]

    /// Opens `path` read-write (creating it when `create`) or read-only, refusing a symbolic link, with
    /// SQLite's own locking between processes.
    init(path: String, create: Bool, readOnly: Bool = false) throws {
        var flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW
        if create && !readOnly { flags |= SQLITE_OPEN_CREATE }
        let result = sqlite3_open_v2(path, &handle, flags, nil)
        guard result == SQLITE_OK else {
            let error = SQLiteError(code: result, message: handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open")
            sqlite3_close_v2(handle)
            handle = nil
            throw error
        }
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Waits up to `milliseconds` for another process's write to end before giving up.
    func setBusyTimeout(milliseconds: Int32) {
        sqlite3_busy_timeout(handle, milliseconds)
    }

    /// Runs SQL that returns no rows (several statements may be given at once).
    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let result = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard result == SQLITE_OK else {
            throw SQLiteError(code: result, message: message.map { String(cString: $0) } ?? lastMessage)
        }
    }

    /// The statement for `sql`, prepared at first use and reset for this one.
    func statement(_ sql: String) throws -> SQLiteStatement {
        if let kept = statements[sql] {
            kept.reset()
            return kept
        }
        var prepared: OpaquePointer?
        let result = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
        guard result == SQLITE_OK, let prepared else { throw error(result) }
        let statement = SQLiteStatement(prepared, connection: self)
        statements[sql] = statement
        return statement
    }

    /// The single integer a query returns (a pragma, a count); nil for no row.
    func integer(_ sql: String) throws -> Int64? {
        let statement = try statement(sql)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return statement.integer(at: 0)
    }

    /// Changes whenever another connection commits: a look that costs no read of the data.
    func dataVersion() throws -> Int64 { try integer("PRAGMA data_version") ?? 0 }

    var lastMessage: String { String(cString: sqlite3_errmsg(handle)) }

    func error(_ code: Int32) -> SQLiteError { SQLiteError(code: code, message: lastMessage) }
}

/// A prepared statement: bind, step through rows, read columns. Reset before each use by the
/// connection that hands it out, and by its user when done: a statement left on a row keeps
/// its read transaction open, which would pin an old snapshot and stop checkpoints.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private unowned let connection: SQLiteConnection

    init(_ handle: OpaquePointer, connection: SQLiteConnection) {
        self.handle = handle
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    func bind(_ value: Int64, at index: Int32) throws {
        try check(sqlite3_bind_int64(handle, index, value))
    }

    func bind(_ value: Double, at index: Int32) throws {
        try check(sqlite3_bind_double(handle, index, value))
    }

    func bind(_ text: String, at index: Int32) throws {
        // A C string: never a null pointer, which SQLite would bind as NULL for an empty text.
        try text.withCString { characters in
            try check(wl_sqlite_bind_text(handle, index, characters, Int32(text.utf8.count)))
        }
    }

    func bind(_ data: Data?, at index: Int32) throws {
        guard let data else { return try check(sqlite3_bind_null(handle, index)) }
        guard data.count <= Int(Int32.max) else { throw SQLiteError(code: SQLITE_TOOBIG, message: "a value of \(data.count) bytes is too big for one entry") }
        try data.withUnsafeBytes { bytes in
            // A zero-length blob needs a non-null pointer, or SQLite stores NULL.
            try check(wl_sqlite_bind_blob(handle, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count)))
        }
    }

    /// Moves to the next row: true when there is one, false when the statement is done.
    func step() throws -> Bool {
        let result = sqlite3_step(handle)
        switch result {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error(result)
        }
    }

    /// Runs a statement that returns no rows.
    func run() throws { _ = try step() }

    func integer(at column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    func double(at column: Int32) -> Double { sqlite3_column_double(handle, column) }

    func isNull(at column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    func text(at column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The column's bytes; nil when it is NULL.
    func data(at column: Int32) -> Data? {
        guard !isNull(at: column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return Data() }
        return Data(bytes: bytes, count: count)
    }

    /// The column's size in bytes, without reading it.
    func byteCount(at column: Int32) -> Int { Int(sqlite3_column_bytes(handle, column)) }

    private func check(_ result: Int32) throws {
        guard result == SQLITE_OK else { throw connection.error(result) }
    }
}
