import FoundationEssentials

/// Where synced changes are kept between devices: a shared folder, later a database server.
/// A backend stores change records and hands back everything written; it never merges or
/// decides a winner (the store does, the same way for every backend).
///
/// Backends are used from the store's worker thread only, one call at a time; `wake()` alone
/// may be called from any thread.
public protocol KeyValueBackend: AnyObject, Sendable {
    /// What the user is told this store is ("folder ~/Sync/wonderland").
    var displayName: String { get }

    /// Writes this device's changes, in order. Throws when the backend cannot be reached or
    /// written; then none or some of them may be stored, and the store sends them all again
    /// later (records are idempotent: a duplicate changes nothing). Throws `BackendRefusal`
    /// when a backend that checks the store's limits itself (a server) refused them all.
    func append(_ records: [ChangeRecord]) throws

    /// Changes not returned before (by any device, this one's included, duplicates allowed).
    /// The first call after creation returns everything the backend holds. Throws when the
    /// backend cannot be read; the next call tries again from where the last good one ended.
    func fetchChanges() throws -> [ChangeRecord]

    /// Blocks up to `timeout` seconds, returning early when the backend may have news (another
    /// device wrote) or when `wake()` is called. The store passes `untilNews` when it has
    /// nothing to retry: a backend that can be told of news (inotify, LISTEN) then sleeps until
    /// it is; one that cannot must look again on its own interval. News that came after the
    /// last `fetchChanges()` but before this call must end it at once, never be lost.
    func waitForChanges(timeout: Double)

    /// Ends a `waitForChanges` early (the store has local changes to send, or is closing); a
    /// wake that comes before the wait ends the next wait.
    func wake()

    /// Housekeeping: lets the backend drop this device's changes that `latest` supersedes.
    /// `latest` is the merged state the store holds now. Failures are not errors worth
    /// reporting; compaction is tried again later.
    func compact(latest: MergedChanges)

    /// What the backend holds but could not read, one line each ("x.3.wlkv: written in format
    /// 2, newer than this Wonderland reads"), as of the last fetch. Standing problems, not
    /// events: a line goes when its cause does.
    var readProblems: [String] { get }

    /// Whether the last `fetchChanges()` read the backend from its first change, so what it
    /// returned is everything the backend holds. A backend that keeps every key's last change
    /// (the server) says so; the store then sends whatever it holds that the backend lacks —
    /// a database made anew at the same address, or one restored from a backup, gets back
    /// what its devices had.
    var lastFetchWasWhole: Bool { get }
}

extension KeyValueBackend {
    public var readProblems: [String] { [] }
    public var lastFetchWasWhole: Bool { false }
}

/// A wait with no deadline: about 32 years, finite so every clock's arithmetic still works.
public let untilNews: Double = 1_000_000_000

/// A backend that checks the store's limits itself (the server, in the writing transaction)
/// refused a whole batch: none of it was stored, and sending it again would be refused again.
public struct BackendRefusal: Error, CustomStringConvertible {
    public let limit: KeyValueStoreLimitError
    public let keys: [String]

    public init(limit: KeyValueStoreLimitError, keys: [String]) {
        self.limit = limit
        self.keys = keys
    }

    public var description: String { "the server refused the change: \(limit)" }
}
