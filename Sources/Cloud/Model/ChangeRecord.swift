import FoundationEssentials
import Platform
import PropertyList

/// Which device wrote a change: 16 lowercase hex digits, made once per data folder.
public struct DeviceIdentifier: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: String

    /// Nil unless `rawValue` is 1–64 characters of [0-9a-z-] (it becomes part of file names).
    public init?(_ rawValue: String) {
        guard !rawValue.isEmpty, rawValue.utf8.count <= 64,
              rawValue.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x7a) || $0 == 0x2d }) else { return nil }
        self.rawValue = rawValue
    }

    public static func random() -> DeviceIdentifier {
        var generator = SystemRandomNumberGenerator()
        return DeviceIdentifier(cFormat("%016llx", generator.next() as UInt64))!
    }

    public static func < (lhs: DeviceIdentifier, rhs: DeviceIdentifier) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { rawValue }
}

/// The order of changes to one key: the hybrid clock first, the device to break ties, so every
/// device picks the same winner from the same set of changes.
public struct ChangeStamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let clock: HybridTimestamp
    public let device: DeviceIdentifier

    public init(clock: HybridTimestamp, device: DeviceIdentifier) {
        self.clock = clock
        self.device = device
    }

    public static func < (lhs: ChangeStamp, rhs: ChangeStamp) -> Bool {
        lhs.clock != rhs.clock ? lhs.clock < rhs.clock : lhs.device < rhs.device
    }

    public var description: String { "\(clock)@\(device)" }
}

/// One write to the synced store: a key set to a value or removed. The value travels as its
/// binary property list, the form that counts against the store's 1 MB, and is decoded only for
/// the change that wins.
public struct ChangeRecord: Hashable, Sendable {
    public let key: String
    /// The value as a binary property list; nil when the key was removed (a tombstone).
    public let payload: Data?
    public let stamp: ChangeStamp
    /// Where the record was read ("a1b2c3d4e5f60718.3.wlkv at byte 4096", "server row 812"),
    /// so a record that cannot be applied can be named. Not part of the change: the same change
    /// read from two places is one change.
    public let origin: String?

    public init(key: String, payload: Data?, stamp: ChangeStamp, origin: String? = nil) {
        self.key = key
        self.payload = payload
        self.stamp = stamp
        self.origin = origin
    }

    public static func == (lhs: ChangeRecord, rhs: ChangeRecord) -> Bool {
        lhs.key == rhs.key && lhs.stamp == rhs.stamp && lhs.payload == rhs.payload
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(stamp)
        hasher.combine(payload)
    }

    public init(key: String, value: PropertyListValue?, stamp: ChangeStamp) throws {
        self.init(key: key, payload: try value.map(BinaryPropertyListWriter.data(from:)), stamp: stamp)
    }

    public var isRemoval: Bool { payload == nil }

    /// The value written; nil for a removal. Throws when the payload is not a property list.
    public func value() throws -> PropertyListValue? {
        try payload.map { try BinaryPropertyListReader.read($0, limits: .changeFile) }
    }
}

/// Last writer wins, per key, by `ChangeStamp`: the state every device converges to once it has
/// seen the same changes, in any order, any number of times.
public struct MergedChanges: Sendable, Equatable {
    public private(set) var latest: [String: ChangeRecord] = [:]

    public init() {}

    public init<S: Sequence>(_ records: S) where S.Element == ChangeRecord {
        for record in records { merge(record) }
    }

    /// True when `record` is newer than what the key had (so the key's value may have changed).
    @discardableResult
    public mutating func merge(_ record: ChangeRecord) -> Bool {
        if let current = latest[record.key], !Self.wins(record, over: current) { return false }
        latest[record.key] = record
        return true
    }

    /// Two instances on one machine share a device identifier and may stamp different values
    /// with the same reading; the bytes then decide, so every device still picks one winner.
    static func wins(_ candidate: ChangeRecord, over current: ChangeRecord) -> Bool {
        if candidate.stamp != current.stamp { return candidate.stamp > current.stamp }
        switch (candidate.payload, current.payload) {
        case (nil, _): return false
        case (.some, nil): return true
        case (.some(let new), .some(let old)): return new.lexicographicallyPrecedes(old) == false && new != old
        }
    }

    /// The keys whose winning record changed.
    @discardableResult
    public mutating func merge<S: Sequence>(_ records: S) -> Set<String> where S.Element == ChangeRecord {
        var changed = Set<String>()
        for record in records where merge(record) { changed.insert(record.key) }
        return changed
    }

    public func record(forKey key: String) -> ChangeRecord? { latest[key] }

    /// Undoes a change that was refused: the key returns to `earlier` (nil: as if never
    /// written). The one way a key goes back in time, so only for changes nobody else has.
    public mutating func takeBack(_ key: String, returningTo earlier: ChangeRecord?) {
        latest[key] = earlier
    }

    /// Keys with a value (removals excluded).
    public var liveKeys: [String] { latest.values.filter { !$0.isRemoval }.map(\.key) }

    /// The newest clock reading among all changes.
    public var newestClock: HybridTimestamp { latest.values.map(\.stamp.clock).max() ?? .zero }
}
