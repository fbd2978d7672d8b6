import FileSafety
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import WonderlandApp

/// Where `wonderland plist convert` puts its result. A regular file is replaced whole (written
/// beside it, then renamed over it) keeping its mode and owner; anything else that is already
/// there (standard output, /dev/null, a terminal, a FIFO, or a link to one) is written into,
/// never replaced, as a shell's `>` would.
enum PlistOutput {
    /// `-o NAME`: `-` is standard output.
    static func write(_ data: Data, to name: String) throws {
        switch PlistPath.resolve(name, dash: STDOUT_FILENO) {
        case .descriptor(let descriptor):
            guard fcntl(descriptor, F_GETFD) >= 0 else {
                throw PlistFile.FileError(description: "cannot write \(name): descriptor \(descriptor) is not open")
            }
            try writeAll(data, to: descriptor, name: name)
        case .path(let path):
            try write(data, toResolved: path, name: name)
        }
    }

    /// No `-o`: the file that was read, when it was a regular file; a stream has no file to
    /// rewrite, so the result goes to standard output.
    static func rewrite(_ data: Data, readFrom input: PlistInput) throws {
        guard let file = input.regularFile else { return try writeAll(data, to: STDOUT_FILENO, name: "standard output") }
        try replace(file, with: data)
    }

    private static func write(_ data: Data, toResolved path: String, name: String) throws {
        var status = stat()
        guard stat(path, &status) == 0 else {
            // Nothing there yet: a new file (whose write names a missing folder). Anything else,
            // such as a loop of links, is not to be replaced by a file.
            guard errno == ENOENT else { throw failure(writing: name, errno) }
            return try replace(path, with: data)
        }
        let kind = FileKind(mode: status.st_mode)
        switch kind {
        case .regular:
            try replace(path, with: data)
        case .fifo, .characterDevice:
            // Without O_CREAT, so a device or FIFO that vanished meanwhile is an error rather
            // than a new regular file; opening a FIFO waits for its reader, as `>` does.
            let descriptor = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC)
            guard descriptor >= 0 else { throw failure(writing: name, errno) }
            defer { close(descriptor) }
            try writeAll(data, to: descriptor, name: name)
        case .directory:
            throw PlistFile.FileError(description: "cannot write \(name): it is a folder; -o names the file to write")
        default:
            throw PlistFile.FileError(description: "cannot write \(name): it is \(kind); only a file, a pipe or a terminal is written")
        }
    }

    /// A regular file, new or replaced; a replaced one keeps its mode and owner.
    private static func replace(_ path: String, with data: Data) throws {
        try PlistFile.writeAtomically(data, to: path, keeping: ReplacedFileAttributes.of(path: path))
    }

    private static func writeAll(_ data: Data, to descriptor: Int32, name: String) throws {
        if let code = StandardStream.writeAll(data, to: descriptor, waitingWhenFull: true) {
            throw failure(writing: name, code)
        }
    }

    private static func failure(writing name: String, _ code: Int32) -> PlistFile.FileError {
        PlistFile.FileError(description: "cannot write \(name): \(String(cString: strerror(code)))")
    }
}
