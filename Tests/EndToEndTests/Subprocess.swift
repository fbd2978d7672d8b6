import Foundation

/// Runs a command and waits for it with posix_spawn and waitpid. Foundation's Process waits
/// through Dispatch, which the test runner's busy threads can starve on a two-core machine;
/// plain waitpid cannot be starved.
enum Subprocess {
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        // Output goes to a file, not a pipe: a tmux server forked by new-session inherits the
        // descriptor and would keep a pipe open for ever.
        let outputPath = NSTemporaryDirectory() + "wl-e2e-\(getpid())-\(UUID().uuidString).out"
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        // The child starts with no blocked signals and default handlers, like a login shell's
        // children would, whatever this test thread had blocked.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), all = sigset_t()
        sigemptyset(&empty)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments[0], &actions, &attributes, &argv, environ)
        guard spawned == 0 else { throw E2EError("cannot start \(arguments[0]): error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (exitStatus, output)
    }
}
