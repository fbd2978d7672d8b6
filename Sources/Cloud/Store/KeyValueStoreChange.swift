/// Why the store's values changed under the app (NSUbiquitousKeyValueStore's change reasons).
public enum KeyValueStoreChangeReason: Sendable, Equatable, CustomStringConvertible {
    /// Another device (or another instance of this one) wrote.
    case serverChange
    /// The first successful sync after the store opened brought values this copy did not have.
    case initialSyncChange
    /// A write was refused whole because it would break a limit; nothing of it was written.
    case quotaViolationChange
    /// The store now talks to a different backend (another folder, another server): the values
    /// are that backend's.
    case accountChange

    public var description: String {
        switch self {
        case .serverChange: return "server change"
        case .initialSyncChange: return "initial sync"
        case .quotaViolationChange: return "quota violation"
        case .accountChange: return "account change"
        }
    }
}

/// NSUbiquitousKeyValueStoreDidChangeExternallyNotification: a reason and the keys it touched.
public struct KeyValueStoreChange: Sendable, Equatable {
    public let reason: KeyValueStoreChangeReason
    public let changedKeys: [String]
    /// For a quota violation: what was refused and why.
    public let refusal: KeyValueStoreLimitError?

    public init(reason: KeyValueStoreChangeReason, changedKeys: [String], refusal: KeyValueStoreLimitError? = nil) {
        self.reason = reason
        self.changedKeys = changedKeys
        self.refusal = refusal
    }
}

/// What the user may be told about syncing: reachable or not, since when, what waits to go.
public struct KeyValueStoreStatus: Sendable, Equatable {
    /// Nil until the first sync attempt finished.
    public var isReachable: Bool?
    /// Why the backend could not be reached, when it could not.
    public var problem: String?
    /// Changes made here that the backend does not have yet.
    public var pendingChanges: Int
    /// Seconds since 1970 of the last sync that reached the backend.
    public var lastSync: Double?
    /// Changes from elsewhere not applied (damaged, over a limit, or the one the last launch
    /// died applying), counted once each however often they are read.
    public var skippedChanges: Int = 0
    /// The newest of them, at most `skippedShown`, to name.
    public var lastSkipped: [SkippedChange] = []
    public static let skippedShown = 8
    /// What the backend holds but could not read (see `KeyValueBackend.readProblems`).
    public var readProblems: [String] = []
    /// This machine's keys whose last write was refused for a limit (here or by the server)
    /// and not written since: their values stay on this machine.
    public var refusedKeys: Int = 0
    /// The newest of them with why, at most `skippedShown` ("WLReadingPosition.ab12: the store
    /// would hold 1025 keys; it may hold at most 1024").
    public var lastRefused: [String] = []

    public init(isReachable: Bool? = nil, problem: String? = nil, pendingChanges: Int = 0, lastSync: Double? = nil) {
        self.isReachable = isReachable
        self.problem = problem
        self.pendingChanges = pendingChanges
        self.lastSync = lastSync
    }
}
