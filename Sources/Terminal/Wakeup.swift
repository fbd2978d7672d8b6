#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Platform

/// How a background thread (a GPS reader, a page counter, a sync watcher) tells the run loop
/// it has news: the loop wakes from `poll` at once and delivers `Event.wake` on the main
/// thread, where screens take the news from wherever the worker left it. Safe from any thread;
/// several posts before the loop wakes arrive as one event.
public enum Wakeup {
    /// Wakes the run loop: one flag and one byte down the wake pipe, both async-signal-safe.
    public static func post() {
        SignalFlags.pending.bitwiseOr(SignalFlags.wake, ordering: .acquiringAndReleasing)
        WakePipe.wake(writeEnd: SignalFlags.wakeWrite.load(ordering: .relaxed))
    }
}
