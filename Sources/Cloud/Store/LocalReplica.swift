import FileSafety
import FoundationEssentials
import PropertyList
#if canImport(Glibc)
import Glibc
#endif

/// The synced store's copy on this machine for one backend (see `LocalReplicaFolder`): this
/// device's identity, its clock, which backend the copy belongs to, and every change it knows,
/// including its own changes the backend has not received yet. With it the app starts with the
/// last known values and sends what was queued offline, even after a restart.
///
/// Several instances on one machine share the file: saving merges under a lock (the merge is
/// last-writer-wins, so merging copies loses nothing), and each instance reads the others' news.
public struct LocalReplica: Equatable, Sendable {
    public var device: DeviceIdentifier
    public var clock: HybridTimestamp
    /// The backend's `displayName` the changes came from.
    public var backend: String?
    public var changes: MergedChanges
    /// Keys whose change in `changes` the backend was known to hold when the copy was saved;
    /// the others of this device's are still to be sent.
    public var sentKeys: Set<String>

    public init(device: DeviceIdentifier, clock: HybridTimestamp = .zero, backend: String? = nil, changes: MergedChanges = MergedChanges(),
                sentKeys: Set<String> = []) {
        self.device = device
        self.clock = clock
        self.backend = backend
        self.changes = changes
        self.sentKeys = sentKeys
    }

    /// Merges another copy of the same device's replica into this one. A key counts as sent
    /// when the copy whose change won says so.
    public mutating func absorb(_ other: LocalReplica) {
        clock = max(clock, other.clock)
        guard other.backend == backend || other.backend == nil || backend == nil else { return }
        backend = backend ?? other.backend
        let before = changes
        changes.merge(other.changes.latest.values)
        sentKeys = Set(changes.latest.compactMap { key, record in
            (sentKeys.contains(key) && before.record(forKey: key) == record)
                || (other.sentKeys.contains(key) && other.changes.record(forKey: key) == record) ? key : nil
        })
    }

    // MARK: encoding

    public func propertyList() -> PropertyListValue {
        var records: [PropertyListValue] = []
        for record in changes.latest.values.sorted(by: { $0.key < $1.key }) {
            var fields: [String: PropertyListValue] = [
                "k": .string(record.key),
                "c": .integer(Int64(bitPattern: record.stamp.clock.rawValue)),
                "d": .string(record.stamp.device.rawValue),
            ]
            if let payload = record.payload { fields["v"] = .data(payload) }
            if sentKeys.contains(record.key) { fields["s"] = .boolean(true) }
            records.append(.dictionary(fields))
        }
        var root: [String: PropertyListValue] = [
            "format": .integer(Int64(Self.format)),
            "device": .string(device.rawValue),
            "clock": .integer(Int64(bitPattern: clock.rawValue)),
            "changes": .array(records),
        ]
        if let backend { root["backend"] = .string(backend) }
        return .dictionary(root)
    }

    /// The version of the copy's layout; a copy without one is version 1.
    public static let format = 1

    /// The format a copy says it has, when that is newer than this build reads.
    static func newerFormat(of value: PropertyListValue) -> Int64? {
        guard case .dictionary(let root) = value, case .integer(let format)? = root["format"], format > Int64(Self.format) else { return nil }
        return format
    }

    public init(propertyList value: PropertyListValue) throws {
        guard case .dictionary(let root) = value,
              case .string(let deviceText)? = root["device"], let device = DeviceIdentifier(deviceText),
              case .integer(let clock)? = root["clock"],
              case .array(let records)? = root["changes"] else { throw ReplicaError.malformed("missing device, clock or changes") }
        var changes = MergedChanges()
        var sent = Set<String>()
        for case .dictionary(let fields) in records {
            guard case .string(let key)? = fields["k"], case .integer(let stamp)? = fields["c"],
                  case .string(let writer)? = fields["d"], let writerID = DeviceIdentifier(writer) else {
                throw ReplicaError.malformed("a change without key, clock or device")
            }
            var payload: Data?
            if case .data(let bytes)? = fields["v"] { payload = bytes }
            if case .boolean(true)? = fields["s"] { sent.insert(key) }
            changes.merge(ChangeRecord(key: key, payload: payload,
                                       stamp: ChangeStamp(clock: HybridTimestamp(rawValue: UInt64(bitPattern: stamp)), device: writerID)))
        }
        var backend: String?
        if case .string(let name)? = root["backend"] { backend = name }
        self.init(device: device, clock: HybridTimestamp(rawValue: UInt64(bitPattern: clock)), backend: backend, changes: changes,
                  sentKeys: sent)
    }

    public enum ReplicaError: Error, CustomStringConvertible {
        case malformed(String)
        public var description: String {
            switch self { case .malformed(let why): return "not a synced-store copy: \(why)" }
        }
    }
}

/// Reads and writes the replica file under a lock beside it, moving a damaged file aside.
public struct LocalReplicaFile: Sendable {
    public let url: URL

    public init(url: URL) { self.url = url }

    /// The replica on disk; nil when there is none. A damaged file is moved aside and reported
    /// through `warning`.
    public func load(warning: inout String?) -> LocalReplica? {
        (try? withLock { readUnlocked(warning: &warning) }) ?? nil
    }

    /// Merges `replica` with what is on disk (another instance may have saved since) and writes
    /// the result; returns the merged copy.
    @discardableResult
    public func save(_ replica: LocalReplica) throws -> LocalReplica {
        try withLock {
            var warning: String?
            var merged = replica
            if let onDisk = readUnlocked(warning: &warning), onDisk.device == replica.device { merged.absorb(onDisk) }
            let data = try BinaryPropertyListWriter.data(from: merged.propertyList())
            try AtomicFile.write(data, to: url)
            return merged
        }
    }

    private func readUnlocked(warning: inout String?) -> LocalReplica? {
        let data: Data
        do { data = try BoundedFile.read(path: url.path, limit: .syncedStoreCopy, followingLinks: false) } catch {
            switch error {
            case .missing, .unreadable: return nil
            case .notRegularFile: return moveAside(because: "it is not a regular file", warning: &warning)
            case .tooLarge: return moveAside(because: error.reason, warning: &warning)
            }
        }
        do {
            let value = try BinaryPropertyListReader.read(data)
            if let format = LocalReplica.newerFormat(of: value) {
                // A newer build's copy: kept byte for byte under another name, never rewritten.
                let moved = try? AtomicFile.moveAside(url, label: "newer")
                warning = "The synced store's local copy \(url.path) was written by a newer Wonderland (format \(format)); it was kept as \(moved?.lastPathComponent ?? "?") and this one starts again from the sync folder."
                return nil
            }
            return try LocalReplica(propertyList: value)
        } catch {
            return moveAside(because: "\(error)", warning: &warning)
        }
    }

    private func moveAside(because why: String, warning: inout String?) -> LocalReplica? {
        let moved = try? AtomicFile.moveAside(url, label: "damaged")
        warning = "The synced store's local copy \(url.path) could not be read (\(why)); it was moved to \(moved?.lastPathComponent ?? "?") and the store starts again from the sync folder."
        return nil
    }

    private func withLock<T>(_ body: () throws -> T) throws -> T {
        try AtomicFile.makeFolder(url.deletingLastPathComponent())
        let descriptor = open(url.path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw AtomicFile.Failure(operation: "open", path: url.path + ".lock", code: errno) }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw AtomicFile.Failure(operation: "lock", path: url.path + ".lock", code: errno) }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}
