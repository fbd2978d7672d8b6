import Foundation
import Testing

// Running `wonderland plist` with what a shell would give it: a pipe or a file on standard
// input, a process substitution, another user.

/// `wonderland plist ARGUMENTS` with `input` arriving through a pipe, written from another
/// thread so that a large input cannot fill the pipe while the command is not reading yet.
func wonderland(_ arguments: [String], stdin input: Data) throws -> PlistRun {
    // A command that stops reading (the input passed its limit) must fail the write, not kill
    // the test process with SIGPIPE.
    signal(SIGPIPE, SIG_IGN)
    let pipe = Pipe()
    let writer = Thread {
        try? pipe.fileHandleForWriting.write(contentsOf: input)
        try? pipe.fileHandleForWriting.close()
    }
    return try run(try wonderlandBinary(), ["plist"] + arguments) { process in
        process.standardInput = pipe
        writer.start()
    }
}

/// `wonderland plist ARGUMENTS` with the file at `path` as standard input, as `< path` gives it.
func wonderland(_ arguments: [String], stdinFrom path: String) throws -> PlistRun {
    let handle = try #require(FileHandle(forReadingAtPath: path))
    defer { try? handle.close() }
    return try run(try wonderlandBinary(), ["plist"] + arguments) { $0.standardInput = handle }
}

/// `script` run by bash, with `$WONDERLAND` the binary and `$1`, `$2`, … the `arguments`.
func bash(_ script: String, _ arguments: String...) throws -> PlistRun {
    let bash = URL(fileURLWithPath: "/bin/bash")
    return try run(bash, ["-c", "WONDERLAND=\"$0\"; " + script, try wonderlandBinary().path] + arguments)
}

/// The file type bits of `path` itself (a link is a link).
func fileType(_ path: String) -> mode_t {
    var status = stat()
    return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : 0
}

/// Mode, owner and group of `path` (links followed).
func attributes(_ path: String) -> (mode: mode_t, owner: uid_t, group: gid_t)? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return (status.st_mode & 0o7777, status.st_uid, status.st_gid)
}
