#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Seconds on CLOCK_MONOTONIC: the clock deadlines are kept on, the same one the defaults
/// store and the readers use, so their deadlines compare with the loop's.
public enum MonotonicClock {
    /// The current time in seconds on CLOCK_MONOTONIC, from an arbitrary start: subtract two
    /// readings for a duration, or add to one for a deadline. Never goes back when the wall clock
    /// is set.
    public static func seconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
