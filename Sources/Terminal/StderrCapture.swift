import CNcursesw
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// While curses has the screen, what the process writes to standard error (a library's warning,
/// the Swift runtime's "Fatal error: …" just before a trap) would land on the frame and vanish
/// with the alternate screen. It goes to a file in memory instead, and its end is written to
/// the real standard error once the terminal is given back: in order by `restore`, or by the
/// crash guard's handler, so a crash says why on the shell's screen.
enum StderrCapture {
    /// What is written back at the end: the last words matter, not a chatty library's history.
    static let keptBytes = 16 * 1024
    /// Past this the memory file is emptied, so a library writing for hours cannot fill memory.
    static let trimBytes = 1 << 20

    // Constants and atomics only: `end` runs in a signal handler (see CrashGuard).
    private static let captureFile = Atomic<Int32>(-1)
    private static let originalStderr = Atomic<Int32>(-1)
    private static let chunk = 4096
    nonisolated(unsafe) private static let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: chunk)

    /// Sends standard error to a memory file; leaves it alone when none can be made.
    static func begin() {
        _ = buffer  // made here, never first in a handler
        guard captureFile.load(ordering: .acquiring) < 0 else { return }
        let file = wl_memory_file("wonderland-stderr")
        guard file >= 0 else { return }
        let original = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3)
        guard original >= 0, dup2(file, STDERR_FILENO) >= 0 else {
            close(file)
            if original >= 0 { close(original) }
            return
        }
        originalStderr.store(original, ordering: .releasing)
        captureFile.store(file, ordering: .releasing)
    }

    /// Gives standard error back and writes the end of what was captured to it, with its
    /// control bytes shown as "?" (it may quote input). Async-signal-safe: fstat, lseek, read,
    /// write, dup2 and close, on a buffer made in `begin`.
    static func end() {
        let file = captureFile.exchange(-1, ordering: .acquiringAndReleasing)
        guard file >= 0 else { return }
        let original = originalStderr.exchange(-1, ordering: .acquiringAndReleasing)
        _ = dup2(original, STDERR_FILENO)
        _ = close(original)
        var info = stat()
        if fstat(file, &info) == 0, info.st_size > 0 {
            _ = lseek(file, off_t(max(0, Int(info.st_size) - keptBytes)), SEEK_SET)
            var previous: UInt8 = 0
            while true {
                let count = read(file, buffer, chunk)
                if count <= 0 { break }
                for index in 0..<count {
                    let byte = buffer[index]
                    // C0 but tab and line feed, DEL, and C1 (U+0080–U+009F is C2 80–C2 9F in UTF-8).
                    if (byte < 0x20 && byte != 0x09 && byte != 0x0A) || byte == 0x7F || (previous == 0xC2 && byte >= 0x80 && byte < 0xA0) {
                        buffer[index] = 0x3F
                        if previous == 0xC2 && index > 0 { buffer[index - 1] = 0x3F }
                    }
                    previous = byte
                }
                _ = write(STDERR_FILENO, buffer, count)
            }
        }
        _ = close(file)
    }

    /// Empties the memory file once it is past `trimBytes`; called from the run loop.
    static func trim() {
        let file = captureFile.load(ordering: .acquiring)
        guard file >= 0 else { return }
        var info = stat()
        guard fstat(file, &info) == 0, Int(info.st_size) > trimBytes else { return }
        _ = ftruncate(file, 0)
        _ = lseek(file, 0, SEEK_SET)  // standard error shares this offset: writes go on at the start
    }
}
