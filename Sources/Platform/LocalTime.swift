#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A moment as the local clock shows it (the TZ variable and /etc/localtime, as `date` does).
public struct LocalTime: Equatable, Sendable {
    public var year: Int
    /// 1–12.
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int

    /// `secondsSince1970` in local time; nil for a moment the C library cannot place.
    public init?(secondsSince1970: Double) {
        guard secondsSince1970.isFinite, abs(secondsSince1970) < 1e14 else { return nil }
        var seconds = time_t(secondsSince1970.rounded(.down))
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return nil }
        year = Int(parts.tm_year) + 1900
        month = Int(parts.tm_mon) + 1
        day = Int(parts.tm_mday)
        hour = Int(parts.tm_hour)
        minute = Int(parts.tm_min)
        second = Int(parts.tm_sec)
    }

    /// "14:02:31".
    public var clockText: String { cFormat("%02d:%02d:%02d", hour, minute, second) }
}
