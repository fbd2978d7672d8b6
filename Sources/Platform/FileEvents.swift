#if canImport(Glibc)
import Glibc

/// The kernel's file events (inotify), without threads: one non-blocking descriptor that
/// becomes readable when a watched folder changes, for the caller to `poll` (beside a
/// `WakePipe`, or in the app's loop) and then `drain`. What to watch and which events are news
/// is the caller's; nothing here wakes unless the kernel reports something.
public final class FileEvents: @unchecked Sendable {
    /// One event as the kernel reported it.
    public struct Event: Sendable {
        /// The watch it concerns, as `addWatch` returned it.
        public let watch: Int32
        public let mask: UInt32
        /// The name in the watched folder it concerns; empty for the folder itself.
        public let name: String

        /// The watch is gone: the folder was deleted or moved away, or the kernel dropped it.
        public var endsWatch: Bool { mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF) != 0 }

        /// Events were lost: anything may have changed.
        public var overflowed: Bool { mask & UInt32(IN_Q_OVERFLOW) != 0 }
    }

    /// Readable while events are pending.
    public let descriptor: Int32

    /// Nil when the kernel gives no inotify descriptor (none left, or no inotify at all).
    public init?() {
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        if descriptor < 0 { return nil }
    }

    deinit { close(descriptor) }

    /// Watches `path` for the events in `mask`; nil when it cannot (missing, not allowed,
    /// no watches left).
    public func addWatch(_ path: String, mask: UInt32) -> Int32? {
        let watch = inotify_add_watch(descriptor, path, mask)
        return watch >= 0 ? watch : nil
    }

    public func removeWatch(_ watch: Int32) {
        inotify_rm_watch(descriptor, watch)
    }

    /// Reads every pending event, without blocking, and hands each to `body`; false when none
    /// was pending.
    @discardableResult
    public func drain(_ body: (Event) -> Void) -> Bool {
        var sawEvent = false
        var buffer = [UInt8](repeating: 0, count: 16_384)
        let headerSize = MemoryLayout<inotify_event>.size
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            sawEvent = true
            var offset = 0
            while offset + headerSize <= count {
                let (watch, mask, length) = buffer.withUnsafeBytes { raw in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.wd, event.mask, Int(event.len))
                }
                let nameBytes = buffer[(offset + headerSize) ..< min(count, offset + headerSize + length)]
                body(Event(watch: watch, mask: mask, name: String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)))
                offset += headerSize + length
            }
        }
        return sawEvent
    }
}
#endif
