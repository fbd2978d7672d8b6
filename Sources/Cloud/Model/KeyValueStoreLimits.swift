/// NSUbiquitousKeyValueStore's limits: 1 MB of keys and values in all, 1,024 keys, keys of at
/// most 64 bytes of UTF-8. A write that would break one is refused whole.
public struct KeyValueStoreLimits: Sendable, Equatable {
    public var maximumTotalBytes: Int
    public var maximumKeyCount: Int
    public var maximumKeyBytes: Int

    public init(maximumTotalBytes: Int = 1_048_576, maximumKeyCount: Int = 1_024, maximumKeyBytes: Int = 64) {
        self.maximumTotalBytes = maximumTotalBytes
        self.maximumKeyCount = maximumKeyCount
        self.maximumKeyBytes = maximumKeyBytes
    }

    public static let apple = KeyValueStoreLimits()
}

/// Why a write was refused; nothing of it was written.
public enum KeyValueStoreLimitError: Error, Equatable, CustomStringConvertible {
    case keyTooLong(key: String, bytes: Int, limit: Int)
    case emptyKey
    case tooManyKeys(count: Int, limit: Int)
    case tooLarge(bytes: Int, limit: Int)
    case notAPropertyList(key: String)
    /// A value the store will not take whatever room it has (see `ReceivedChangeCheck.problem(writing:)`).
    case valueRefused(key: String, why: String)

    public var description: String {
        switch self {
        case .keyTooLong(let key, let bytes, let limit): return "the key \"\(key.prefix(24))…\" is \(bytes) bytes long; keys may have at most \(limit)"
        case .emptyKey: return "a key may not be empty"
        case .tooManyKeys(let count, let limit): return "the store would hold \(count) keys; it may hold at most \(limit)"
        case .tooLarge(let bytes, let limit): return "the store would hold \(bytes) bytes; it may hold at most \(limit)"
        case .notAPropertyList(let key): return "the value for \"\(key)\" cannot be written as a property list"
        case .valueRefused(let key, let why): return "the value for \"\(key.prefix(24))\" cannot be synced: \(why)"
        }
    }
}
