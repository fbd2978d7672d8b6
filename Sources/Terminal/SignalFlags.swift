#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Platform
import Synchronization

/// Signals the app reacts to. The handlers only record them and wake the run loop through a
/// pipe; everything that matters (saving, redrawing, leaving curses mode) happens in the loop.
enum SignalFlags {
    static let interrupt: UInt32 = 1 << 0
    static let terminate: UInt32 = 1 << 1
    static let hangup: UInt32 = 1 << 2
    static let suspend: UInt32 = 1 << 3
    static let resume: UInt32 = 1 << 4
    static let resize: UInt32 = 1 << 5
    static let wake: UInt32 = 1 << 6

    /// Bits of the signals seen and not yet taken. Atomic, because a handler may write it while
    /// the loop reads it.
    static let pending = Atomic<UInt32>(0)
    /// Written by handlers so that the loop's `poll` returns at once. Made by `install()`, on
    /// the main thread, before any handler can run.
    static let wakes = WakePipe()
    /// The pipe's write end as a handler reads it: an atomic, so a handler never touches
    /// Swift's lazy globals machinery. -1 until `install()`.
    static let wakeWrite = Atomic<Int32>(-1)

    static func take() -> UInt32 { pending.exchange(0, ordering: .acquiringAndReleasing) }

    /// Records a signal's bit as its handler would, for what the loop learns another way.
    static func record(_ bit: UInt32) { pending.bitwiseOr(bit, ordering: .acquiringAndReleasing) }

    static func install() {
        wakeWrite.store(wakes.writeEnd, ordering: .releasing)
        // A parent may have left these blocked (test runners, some supervisors do); a blocked
        // SIGTERM would never reach the handler and the app could not end in order.
        var handled = sigset_t()
        sigemptyset(&handled)
        for number in [SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGCONT, SIGWINCH] { sigaddset(&handled, number) }
        sigprocmask(SIG_UNBLOCK, &handled, nil)
        handle(SIGINT, flag: interrupt)
        handle(SIGTERM, flag: terminate)
        handle(SIGHUP, flag: hangup)
        handle(SIGTSTP, flag: suspend)
        handle(SIGCONT, flag: resume)
        handle(SIGWINCH, flag: resize)
        // A closed terminal or socket must give EPIPE, not end the app before it saves (see
        // CrashGuard for the other signals that would end it).
        signal(SIGPIPE, SIG_IGN)
    }

    static func handle(_ signalNumber: Int32, flag: UInt32) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { number in
            let bit: UInt32
            switch number {
            case SIGINT: bit = SignalFlags.interrupt
            case SIGTERM: bit = SignalFlags.terminate
            case SIGHUP: bit = SignalFlags.hangup
            case SIGTSTP: bit = SignalFlags.suspend
            case SIGCONT: bit = SignalFlags.resume
            default: bit = SignalFlags.resize
            }
            SignalFlags.pending.bitwiseOr(bit, ordering: .acquiringAndReleasing)
            WakePipe.wake(writeEnd: SignalFlags.wakeWrite.load(ordering: .relaxed))
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0  // no SA_RESTART: a blocking poll must return so the loop sees the flag
        sigaction(signalNumber, &action, nil)
    }

    /// Lets SIGTSTP do its default job for one moment, then takes it back: it stops the whole
    /// process group, as vim does, so a wrapper script that started the app without `exec`
    /// stops with it and the shell's `fg` continues both.
    static func stopProcessGroup() {
        // The Ctrl-Z stopped a wrapper script at once, and a quick `fg` may have continued the
        // group before the app got here: that SIGCONT already asked for the foreground.
        if pending.load(ordering: .acquiring) & resume != 0 {
            pending.bitwiseAnd(~resume, ordering: .acquiringAndReleasing)
            return
        }
        signal(SIGTSTP, SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTSTP)
        sigprocmask(SIG_UNBLOCK, &set, nil)
        kill(0, SIGTSTP)
        // Execution continues here after SIGCONT, which the return from the stop itself
        // accounts for: it is not a stop from outside.
        handle(SIGTSTP, flag: suspend)
        pending.bitwiseAnd(~resume, ordering: .acquiringAndReleasing)
    }

    /// Runs `body` with SIGTTOU ignored, so changing the tty's modes from the background (the
    /// shell took the terminal first) succeeds instead of stopping the process.
    static func ignoringTerminalStops(_ body: () -> Void) {
        let previous = signal(SIGTTOU, SIG_IGN)
        body()
        signal(SIGTTOU, previous)
    }
}
