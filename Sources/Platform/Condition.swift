#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A lock with a condition variable: a thread waits with the lock held until another signals.
/// Deadlines are moments on the monotonic clock (`Deadline.after(seconds:)`), so a change of
/// the wall clock neither shortens nor stretches a wait.
public final class Condition: @unchecked Sendable {
    private let exclusion = Lock()
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    public init() {
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        #if canImport(Glibc)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        #endif
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
    }

    public func lock() { exclusion.lock() }

    public func unlock() { exclusion.unlock() }

    public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        try exclusion.withLock(body)
    }

    /// Waits until signalled (or spuriously woken: callers loop on their own predicate).
    /// The lock must be held.
    public func wait() { pthread_cond_wait(condition, exclusion.mutex) }

    /// Waits until signalled or until `deadline` (from `Deadline.after(seconds:)`); false when the
    /// deadline passed. The lock must be held.
    public func wait(until deadline: Deadline) -> Bool {
        var time = deadline.monotonicTime
        return pthread_cond_timedwait(condition, exclusion.mutex, &time) == 0
    }

    /// Waits at most `seconds`; false when the time ran out. The lock must be held.
    public func wait(seconds: Double) -> Bool { wait(until: Deadline.after(seconds: seconds)) }

    public func signal() { pthread_cond_signal(condition) }

    public func broadcast() { pthread_cond_broadcast(condition) }
}

/// A moment on the monotonic clock, for waits that must not follow changes of the wall clock.
public struct Deadline: Comparable, Sendable {
    /// Nanoseconds on CLOCK_MONOTONIC.
    public let nanoseconds: UInt64

    public init(nanoseconds: UInt64) { self.nanoseconds = nanoseconds }

    public static var now: Deadline {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Deadline(nanoseconds: UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec))
    }

    /// `seconds` from now; negative or NaN counts as now, and a huge wait is capped at a year.
    public static func after(seconds: Double) -> Deadline {
        let bounded = seconds.isNaN ? 0 : min(max(seconds, 0), 365 * 86_400)
        return Deadline(nanoseconds: now.nanoseconds + UInt64(bounded * 1e9))
    }

    public var hasPassed: Bool { Deadline.now >= self }

    /// Seconds left until this moment, 0 once it has passed.
    public var secondsLeft: Double {
        let current = Deadline.now.nanoseconds
        return nanoseconds > current ? Double(nanoseconds - current) / 1e9 : 0
    }

    var monotonicTime: timespec {
        timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    }

    public static func < (lhs: Deadline, rhs: Deadline) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
}
