import FileSafety
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Notices when another process may have changed the defaults file, without threads: an inotify
/// descriptor on the folder (non-blocking, so the app's loop can poll it and drain it), or, when
/// inotify is not available, a plain comparison of the file's stamp on every check.
///
/// It only answers "look again?"; the store compares stamps and contents to find what changed.
final class DefaultsWatcher {
    private let folder: String
    private(set) var descriptor: Int32 = -1
    private var watch: Int32 = -1

    init(folder: URL, useInotify: Bool) {
        self.folder = folder.path
        guard useInotify else { return }
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        if descriptor >= 0 { addWatch() }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// True while inotify is watching the folder; false means polling.
    var isWatching: Bool { descriptor >= 0 && watch >= 0 }

    /// True while inotify watches the folder and the folder is on a local file system, where
    /// no write escapes the watch: nothing needs looking at until the descriptor is readable.
    private(set) var seesEveryChange = false

    private func addWatch() {
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF)
        watch = inotify_add_watch(descriptor, folder, mask)
        seesEveryChange = watch >= 0 && FileSystemKind.inotifySeesEveryChange(at: folder)
    }

    /// Drains pending events; true when the file may have changed (always true when polling).
    func check() -> Bool {
        guard descriptor >= 0 else { return true }
        if watch < 0 {
            addWatch()  // the folder may exist now
            return true
        }
        var sawEvent = false
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            sawEvent = true
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let (mask, length) = buffer.withUnsafeBytes { raw -> (UInt32, UInt32) in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.mask, event.len)
                }
                if mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
                    watch = -1
                    seesEveryChange = false
                }
                offset += MemoryLayout<inotify_event>.size + Int(length)
            }
        }
        if watch < 0 { addWatch() }
        return sawEvent
    }
}
