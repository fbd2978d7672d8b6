import FoundationEssentials
import Platform

/// A shared store in memory that several devices in one process can sync through: for tests,
/// and the peer the folder backend is measured against. Each device gets its own backend from
/// `backend()`, with its own read position and its own reachability.
public final class InMemoryCloud: @unchecked Sendable {
    fileprivate let condition = Condition()
    fileprivate var records: [ChangeRecord] = []
    fileprivate var generation = 0

    public init() {}

    /// A backend for one more device on this cloud.
    public func backend() -> InMemoryBackend { InMemoryBackend(cloud: self) }

    /// Everything ever appended, by every device (for reference merges in tests).
    public var allRecords: [ChangeRecord] { condition.withLock { records } }

    fileprivate func signal() {
        generation += 1
        condition.broadcast()
    }
}

/// One device's connection to an `InMemoryCloud`. `isReachable = false` plays a folder that
/// cannot be read or a server that is down, for this device only.
public final class InMemoryBackend: KeyValueBackend, @unchecked Sendable {
    private let cloud: InMemoryCloud
    private var readPosition = 0
    private var reachable = true
    /// The cloud's generation when this device last fetched: a wait ends at once if anything
    /// happened since, so news between a fetch and the next wait is not slept through.
    private var fetchedGeneration = -1

    fileprivate init(cloud: InMemoryCloud) { self.cloud = cloud }

    public var displayName: String { "memory" }

    public var isReachable: Bool {
        get { cloud.condition.withLock { reachable } }
        set { cloud.condition.withLock { reachable = newValue; cloud.signal() } }
    }

    public func append(_ newRecords: [ChangeRecord]) throws {
        try cloud.condition.withLock {
            guard reachable else { throw BackendUnavailable(reason: "the in-memory cloud is switched off") }
            cloud.records += newRecords
            cloud.signal()
        }
    }

    public func fetchChanges() throws -> [ChangeRecord] {
        try cloud.condition.withLock {
            guard reachable else { throw BackendUnavailable(reason: "the in-memory cloud is switched off") }
            defer {
                readPosition = cloud.records.count
                fetchedGeneration = cloud.generation
            }
            return Array(cloud.records[readPosition...])
        }
    }

    public func waitForChanges(timeout: Double) {
        cloud.condition.withLock {
            let deadline = Deadline.after(seconds: timeout)
            while cloud.generation == fetchedGeneration, cloud.condition.wait(until: deadline) {}
            fetchedGeneration = cloud.generation
        }
    }

    public func wake() { cloud.condition.withLock { cloud.signal() } }

    public func compact(latest: MergedChanges) {}
}

/// The backend could not be reached; the store keeps working on its local copy.
public struct BackendUnavailable: Error, CustomStringConvertible {
    public let reason: String
    public init(reason: String) { self.reason = reason }
    public var description: String { reason }
}
