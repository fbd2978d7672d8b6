import FoundationEssentials
import Platform
#if canImport(Glibc)
import Glibc
#endif

/// One running sync helper and the two pipes to it: requests go to its stdin, answers come from
/// its stdout. Its stderr is the app's. It gets the app's environment without the variables
/// that may hold a password (PG*, WONDERLAND_*): it needs none of them, the password comes
/// through the pipe.
final class SyncHelperProcess: @unchecked Sendable {
    let pid: pid_t
    /// Our end of its stdin; does not block, so a helper that stops reading cannot hold us.
    let input: Int32
    /// Our end of its stdout.
    let output: Int32
    let path: String
    private let lock = Lock()
    private var ending: String?

    private init(pid: pid_t, input: Int32, output: Int32, path: String) {
        self.pid = pid
        self.input = input
        self.output = output
        self.path = path
    }

    static func start(path: String) throws -> SyncHelperProcess {
        guard access(path, X_OK) == 0 else {
            throw SyncHelperFailure("the sync helper \(path) cannot be run (\(String(cString: strerror(errno)))); it is installed beside wonderland or in libexec/wonderland/ of its prefix")
        }
        // A helper that died must make our next write fail with EPIPE, not end this process.
        // The app ignores SIGPIPE already; the helper inherits the same.
        signal(SIGPIPE, SIG_IGN)
        guard let toHelper = closingPipe() else { throw failure("make a pipe") }
        guard let fromHelper = closingPipe() else {
            close(toHelper.read)
            close(toHelper.write)
            throw failure("make a pipe")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toHelper.read, 0)
        posix_spawn_file_actions_adddup2(&actions, fromHelper.write, 1)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The worker thread that starts it may block signals the helper must still obey (a
        // SIGTERM, a SIGTSTP from the terminal), and the app catches some the helper should not.
        var none = sigset_t(), caught = sigset_t()
        sigemptyset(&none)
        sigemptyset(&caught)
        for number in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP, SIGCONT, SIGWINCH, SIGCHLD, SIGALRM, SIGUSR1, SIGUSR2] { sigaddset(&caught, number) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &caught)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let arguments = [path]
        let environment = ProcessInfo.processInfo.environment
            .filter { !$0.key.hasPrefix("PG") && !$0.key.hasPrefix("WONDERLAND_") }
            .map { "\($0.key)=\($0.value)" }
        var cArguments = arguments.map { strdup($0) } + [nil]
        var cEnvironment = environment.map { strdup($0) } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, &attributes, &cArguments, &cEnvironment)
        close(toHelper.read)
        close(fromHelper.write)
        guard spawned == 0 else {
            close(toHelper.write)
            close(fromHelper.read)
            throw SyncHelperFailure("the sync helper \(path) cannot be started: \(String(cString: strerror(spawned)))")
        }
        _ = fcntl(toHelper.write, F_SETFL, fcntl(toHelper.write, F_GETFL) | O_NONBLOCK)
        return SyncHelperProcess(pid: pid, input: toHelper.write, output: fromHelper.read, path: path)
    }

    /// Ends the helper if it still runs and says how it ended: "exited with status 1", "killed
    /// by signal 9". `afterItsOutputEnded`: its stdout closed, so it is most likely exiting on
    /// its own, and is given a tenth of a second to, so its own status can be told. Closing its
    /// stdin is what a healthy helper waits for; the kill is for one that does not listen.
    /// Called again, it returns the same words.
    @discardableResult
    func end(afterItsOutputEnded: Bool = false) -> String {
        lock.withLock {
            if let ending { return ending }
            close(input)
            close(output)
            var status: Int32 = 0
            var reaped = waitpid(pid, &status, WNOHANG)
            var graceLeft = afterItsOutputEnded ? 20 : 0
            while reaped == 0 && graceLeft > 0 {
                usleep(5_000)
                graceLeft -= 1
                reaped = waitpid(pid, &status, WNOHANG)
            }
            if reaped == 0 {
                kill(pid, SIGKILL)
                repeat { reaped = waitpid(pid, &status, 0) } while reaped == -1 && errno == EINTR
            }
            let words: String
            if reaped != pid {
                words = "its end could not be seen"
            } else if status & 0x7f == 0 {
                words = "exited with status \((status >> 8) & 0xff)"
            } else {
                words = "killed by signal \(status & 0x7f)"
            }
            ending = words
            return words
        }
    }

    private static func failure(_ what: String) -> SyncHelperFailure {
        SyncHelperFailure("cannot \(what) for the sync helper: \(String(cString: strerror(errno)))")
    }
}
