import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import Platform

/// A hybrid logical clock reading: wall-clock milliseconds in the high 48 bits and a counter in
/// the low 16, so plain integer order is the clock's order. It orders changes across machines
/// whose clocks disagree: a device that has seen a change always stamps its next change later,
/// however far behind its own wall clock is.
public struct HybridTimestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: UInt64

    public init(rawValue: UInt64) { self.rawValue = rawValue }

    public init(milliseconds: UInt64, counter: UInt16) {
        rawValue = (milliseconds << 16) | UInt64(counter)
    }

    public var milliseconds: UInt64 { rawValue >> 16 }
    public var counter: UInt16 { UInt16(truncatingIfNeeded: rawValue) }

    public static let zero = HybridTimestamp(rawValue: 0)

    public static func < (lhs: HybridTimestamp, rhs: HybridTimestamp) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "\(milliseconds).\(counter)" }
}

/// Issues timestamps that never go backwards, even when the wall clock does (NTP steps, a
/// suspended laptop, a machine set to the wrong year), and that move past every timestamp seen
/// from other devices. Thread-safe.
public final class HybridLogicalClock: @unchecked Sendable {
    private let lock = Lock()
    private var last: HybridTimestamp
    private let wallMilliseconds: @Sendable () -> UInt64

    /// `wallMilliseconds` is the physical clock; tests and the convergence script skew it.
    public init(last: HybridTimestamp = .zero, wallMilliseconds: @escaping @Sendable () -> UInt64 = HybridLogicalClock.systemMilliseconds) {
        self.last = last
        self.wallMilliseconds = wallMilliseconds
    }

    /// A timestamp later than every one issued or observed so far.
    public func now() -> HybridTimestamp {
        lock.lock()
        defer { lock.unlock() }
        last = Self.advance(last, wall: wallMilliseconds())
        return last
    }

    /// The wall clock is read as at most 2^47 ms (about the year 6429), so no honest clock's
    /// reading lies past that plus one counter's worth of borrowed milliseconds. A timestamp
    /// beyond it can only be forged or damaged: taken as is, it would win every later merge for
    /// its key and, at the top of the range, wrap this device's own clock back to zero.
    public static let latestHonestMilliseconds: UInt64 = (UInt64(1) << 47) + (UInt64(1) << 16)

    /// Whether a timestamp could have come from an honest clock (see `latestHonestMilliseconds`).
    public static func isHonest(_ stamp: HybridTimestamp) -> Bool {
        stamp.milliseconds <= latestHonestMilliseconds
    }

    /// Takes note of a timestamp from another device, so later local changes order after it.
    /// One no honest clock could have issued is ignored.
    public func observe(_ remote: HybridTimestamp) {
        lock.lock()
        defer { lock.unlock() }
        if remote > last, Self.isHonest(remote) { last = remote }
    }

    /// The latest timestamp issued or observed (saved with the local replica).
    public var latest: HybridTimestamp {
        lock.lock()
        defer { lock.unlock() }
        return last
    }

    static func advance(_ last: HybridTimestamp, wall: UInt64) -> HybridTimestamp {
        let wall = min(wall, UInt64(1) << 47)
        if wall > last.milliseconds { return HybridTimestamp(milliseconds: wall, counter: 0) }
        if last.counter < UInt16.max { return HybridTimestamp(milliseconds: last.milliseconds, counter: last.counter + 1) }
        // The counter ran out inside one millisecond: borrow the next millisecond.
        return HybridTimestamp(milliseconds: last.milliseconds + 1, counter: 0)
    }

    public static let systemMilliseconds: @Sendable () -> UInt64 = {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return UInt64(max(0, now.tv_sec)) * 1000 + UInt64(max(0, now.tv_nsec)) / 1_000_000
    }

    /// The system clock moved by `skew` milliseconds (the environment's WONDERLAND_CLOCK_SKEW_MS
    /// in the convergence script, which plays machines whose clocks disagree).
    public static func skewedSystemMilliseconds(by skew: Int64) -> @Sendable () -> UInt64 {
        { UInt64(max(0, Int64(systemMilliseconds()) + skew)) }
    }
}
