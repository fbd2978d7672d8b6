#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Restores the terminal when the process dies from a crash (a Swift trap is SIGILL or SIGTRAP,
/// a bad pointer SIGSEGV), so a crash never leaves the user's shell in raw mode on the
/// alternate screen. Only async-signal-safe calls are made: tcsetattr and write.
enum CrashGuard {
    nonisolated(unsafe) private static var savedModes = termios()
    nonisolated(unsafe) private static var armed = false

    static let resetSequence: [UInt8] = Array("\u{1B}[?1000l\u{1B}[?1002l\u{1B}[?1003l\u{1B}[?1006l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l\r\n".utf8)

    /// Call once, before curses changes the terminal modes.
    static func arm() {
        guard !armed, tcgetattr(STDIN_FILENO, &savedModes) == 0 else { return }
        armed = true
        for number in [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                CrashGuard.restoreModes()
                signal(number, SIG_DFL)
                raise(number)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(number, &action, nil)
        }
    }

    static func restoreModes() {
        guard armed else { return }
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &savedModes)
        resetSequence.withUnsafeBufferPointer { _ = write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    }
}
