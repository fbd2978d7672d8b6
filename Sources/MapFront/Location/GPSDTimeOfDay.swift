import FoundationEssentials
import Platform
#if canImport(Glibc)
import Glibc
#endif

/// A moment on the reader's clock (seconds of uptime, which never go back) as the local time of
/// day, "14:02:31": what the gpsd status names instead of counting down, so a line nobody
/// redraws stays true.
public enum GPSDTimeOfDay {
    public static func forUptime(_ uptime: Double) -> String {
        let wall = Date().timeIntervalSince1970 + (uptime - ProcessInfo.processInfo.systemUptime)
        return text(forWallClock: wall)
    }

    /// Seconds since 1970 as the local time of day, rounded up: a retry "at 14:02:31" has not
    /// happened before that second is shown.
    public static func text(forWallClock seconds: Double) -> String {
        tzset()
        var time = time_t(seconds.rounded(.up))
        var parts = tm()
        guard localtime_r(&time, &parts) != nil else { return "?" }
        return cFormat("%02d:%02d:%02d", parts.tm_hour, parts.tm_min, parts.tm_sec)
    }
}
