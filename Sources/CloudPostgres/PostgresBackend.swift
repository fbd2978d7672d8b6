import Cloud
import Foundation

/// The synced store on a PostgreSQL server, for machines that share no folder. One row per key
/// holds the winning change; writes are conditional on the hybrid clock, so the server keeps the
/// same last-writer-wins result the folder backend gives, and LISTEN/NOTIFY tells the other
/// devices at once. Used from the store's worker thread, like every backend.
public final class PostgresBackend: KeyValueBackend, @unchecked Sendable {
    public struct Options: Sendable {
        /// Seconds to wait for a connection before calling the server unreachable.
        public var connectTimeout: Double
        /// The first wait before connecting again after a failure; doubled each time up to
        /// `maximumBackoff`.
        public var initialBackoff: Double
        public var maximumBackoff: Double
        /// Checked by the server too, in the writing transaction.
        public var limits: KeyValueStoreLimits

        public init(connectTimeout: Double = 5, initialBackoff: Double = 0.25, maximumBackoff: Double = 8,
                    limits: KeyValueStoreLimits = .apple) {
            self.connectTimeout = connectTimeout
            self.initialBackoff = initialBackoff
            self.maximumBackoff = maximumBackoff
            self.limits = limits
        }
    }

    public let address: PostgresSyncAddress
    public let device: DeviceIdentifier
    public let options: Options
    private let password: String?

    /// Does not connect: the first `fetchChanges` does, and a server that is down is only
    /// "offline" (the app works on its local copy meanwhile).
    public init(address: PostgresSyncAddress, password: String?, device: DeviceIdentifier, options: Options = Options()) {
        self.address = address
        self.password = password
        self.device = device
        self.options = options
    }

    public var displayName: String { "server \(address)" }

    public func append(_ records: [ChangeRecord]) throws {
        throw BackendUnavailable(reason: "the PostgreSQL backend is being written")
    }

    public func fetchChanges() throws -> [ChangeRecord] {
        throw BackendUnavailable(reason: "the PostgreSQL backend is being written")
    }

    public func waitForChanges(timeout: Double) { usleep(UInt32(timeout * 1_000_000)) }

    public func wake() {}

    public func compact(latest: MergedChanges) {}
}
