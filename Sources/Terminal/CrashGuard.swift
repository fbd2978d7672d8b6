import CNcursesw
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Gives the terminal back when the process is ended by a signal the run loop never gets to
/// see: a crash (a Swift trap is SIGILL or SIGTRAP, a failed precondition too; abort SIGABRT;
/// a bad pointer SIGSEGV or SIGBUS) or a signal whose default action ends the process and
/// that the app does not turn into "save and quit" (SIGUSR1, SIGQUIT, SIGALRM, …).
///
/// The handler puts the tty back in the modes the shell had, writes the bytes that leave the
/// alternate screen and show the cursor, then ends the process with the signal's own default
/// action, so the exit status (and a core dump, where the signal makes one) stays honest.
/// It also writes back what standard error said meanwhile (`StderrCapture`), so a trap's
/// "Fatal error" line shows. Everything it touches is made beforehand; it allocates nothing
/// and only makes async-signal-safe calls (tcsetattr, write, read, lseek, fstat, dup2, close,
/// signal, raise).
enum CrashGuard {
    /// Every catchable signal whose default action ends the process, except SIGINT, SIGTERM
    /// and SIGHUP (the run loop saves and quits on those) and SIGPIPE (ignored: a write to a
    /// closed terminal or socket fails with EPIPE instead, and the loop saves and quits).
    static var guardedSignals: [Int32] {
        var numbers = [SIGQUIT, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV, SIGSYS,
                       SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ]
        #if os(Linux)
        numbers += [SIGSTKFLT, SIGIO, SIGPWR]
        #endif
        return numbers
    }

    // Constants and atomics only: the handler must not touch a Swift `var` global, whose
    // access checks may set up per-thread state (and allocate) on the thread a signal lands on.
    static let resetCapacity = 256
    nonisolated(unsafe) private static let savedModes = UnsafeMutablePointer<termios>.allocate(capacity: 1)
    nonisolated(unsafe) private static let resetBytes = UnsafeMutablePointer<UInt8>.allocate(capacity: resetCapacity)
    private static let resetCount = Atomic<Int>(0)
    private static let armed = Atomic<Bool>(false)
    /// True while curses owns the screen: only then does a dying process have anything to
    /// give back (after `restore`, or while suspended, the shell has the terminal).
    private static let ownsScreen = Atomic<Bool>(false)

    /// Call once, before curses changes the terminal modes, with the bytes that give the
    /// terminal back (`wl_terminal_problem` makes them; at most `resetCapacity` are kept).
    static func arm(resetSequence: [UInt8]) {
        guard !armed.load(ordering: .acquiring), tcgetattr(STDIN_FILENO, savedModes) == 0 else { return }
        let count = min(resetSequence.count, resetCapacity)
        for index in 0..<count { resetBytes[index] = resetSequence[index] }
        resetCount.store(count, ordering: .releasing)
        _ = ownsScreen.load(ordering: .relaxed)  // made before any handler can run
        armed.store(true, ordering: .releasing)
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for number in guardedSignals {
            var previous = sigaction()
            sigaction(number, nil, &previous)
            // A signal the parent chose to ignore (nohup, a background job's SIGQUIT) stays
            // ignored; a crash cannot be ignored, so those are always guarded.
            if isIgnored(previous) && !isCrash(number) { continue }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                CrashGuard.giveTerminalBack()
                StderrCapture.end()  // after the reset, so the last words land on the main screen
                signal(number, SIG_DFL)
                raise(number)  // delivered when the handler returns, with the default action
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(number, &action, nil)
            sigaddset(&unblock, number)
        }
        // A parent may have left some blocked; a blocked SIGUSR1 would wait unseen and end the
        // process at the worst moment, once something unblocks it.
        sigprocmask(SIG_UNBLOCK, &unblock, nil)
    }

    /// Curses is about to take the screen, or has it again after a suspend.
    static func cursesTookScreen() { ownsScreen.store(true, ordering: .releasing) }
    /// Curses gave the screen back in order (endwin).
    static func cursesGaveScreenBack() { ownsScreen.store(false, ordering: .releasing) }

    /// Restores the tty modes and the screen if curses has them. Async-signal-safe.
    static func giveTerminalBack() {
        guard armed.load(ordering: .acquiring), ownsScreen.exchange(false, ordering: .acquiringAndReleasing) else { return }
        _ = tcsetattr(STDIN_FILENO, TCSANOW, savedModes)
        _ = write(STDOUT_FILENO, resetBytes, resetCount.load(ordering: .acquiring))
    }

    private static func isIgnored(_ action: sigaction) -> Bool {
        unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    private static func isCrash(_ number: Int32) -> Bool {
        [SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV, SIGSYS].contains(number)
    }
}
