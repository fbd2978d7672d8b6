#if canImport(Glibc)
import Glibc
#endif

/// How patiently the app talks to its sync server: the time-outs that turn a server that hangs
/// into one that is offline, and the back-off between attempts. The same values drive the
/// PostgreSQL backend in the helper process and the app's restarts of that helper.
public struct SyncServerOptions: Sendable, Equatable {
    /// Seconds to wait for a connection before calling the server unreachable.
    public var connectTimeout: Double
    /// Seconds to wait for any answer: a server that hangs is offline after this.
    public var queryTimeout: Double
    /// The first wait before connecting again after a failure; doubled each time up to
    /// `maximumBackoff`.
    public var initialBackoff: Double
    public var maximumBackoff: Double
    /// Rows read per query while catching up, so a large store arrives in bounded pieces.
    public var fetchPageSize: Int
    /// Seconds between looks for news on an address with `wait=poll` (±20 %).
    public var pollInterval: Double
    /// Seconds a listening device may hear nothing before it asks: a connection that died
    /// without a word (a dropped network path, a hung server) is noticed within this and a
    /// query's time-out.
    public var quietPeriod: Double

    public init(connectTimeout: Double = 5, queryTimeout: Double = 5, initialBackoff: Double = 0.25, maximumBackoff: Double = 8,
                fetchPageSize: Int = 2_000, pollInterval: Double = 0.5, quietPeriod: Double = 30) {
        self.connectTimeout = connectTimeout
        self.queryTimeout = queryTimeout
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
        self.fetchPageSize = max(1, fetchPageSize)
        self.pollInterval = min(max(0.05, pollInterval), 60)
        self.quietPeriod = min(max(0.1, quietPeriod), 3_600)
    }

    /// The server's own limit on a statement, and on waiting for a lock: a little under the
    /// time this device waits, so the server gives up first and no abandoned statement keeps
    /// a connection busy after the device has left it.
    public var serverStatementTimeoutMilliseconds: Int { max(100, Int(queryTimeout * 1_000 * 0.9)) }

    /// The wait before the next attempt: doubling from `initialBackoff` up to `maximumBackoff`,
    /// ±20 % so devices that lost one server do not all come back in the same instant.
    public func backoff<Generator: RandomNumberGenerator>(afterFailures failures: Int, using generator: inout Generator) -> Double {
        let doublings = Double(min(max(0, failures - 1), 30))
        let base = min(maximumBackoff, initialBackoff * pow(2, doublings))
        return base * Double.random(in: 0.8...1.2, using: &generator)
    }

    public func backoff(afterFailures failures: Int) -> Double {
        var generator = SystemRandomNumberGenerator()
        return backoff(afterFailures: failures, using: &generator)
    }
}
