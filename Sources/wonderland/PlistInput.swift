import FileSafety
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The bytes of a file named on the `plist` command line, read within a size limit whatever it
/// is: a regular file, standard input (`-`, /dev/stdin), a pipe, a FIFO or a device. A stream
/// is read to its end or to one byte past the limit, so /dev/zero is refused by its size rather
/// than read for ever.
struct PlistInput {
    /// The file's bytes.
    let data: Data
    /// The regular file they came from, its links followed, which `convert` can rewrite in
    /// place; nil for a stream, which has nothing to rewrite.
    let regularFile: String?

    /// How the file is named in messages: standard input has no name of its own.
    static func displayName(_ name: String) -> String { name == "-" ? "<stdin>" : name }

    static func read(_ name: String, limit: FileLimit) throws -> PlistInput {
        switch PlistPath.resolve(name, dash: STDIN_FILENO) {
        case .descriptor(let descriptor):
            return PlistInput(data: try readOpen(descriptor, limit: limit), regularFile: nil)
        case .path(let path):
            let descriptor = try open(path)
            defer { close(descriptor) }
            var status = stat()
            guard fstat(descriptor, &status) == 0 else { throw unreadable(errno) }
            let isRegular = FileKind(mode: status.st_mode) == .regular
            return PlistInput(data: try readOpen(descriptor, limit: limit), regularFile: isRegular ? path : nil)
        }
    }

    /// Never blocks: a FIFO opens at once without a writer (and is then waited on when read),
    /// a terminal does not become the controlling one.
    private static func open(_ path: String) throws -> Int32 {
        let descriptor = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { throw PlistFile.FileError(description: "cannot read: no such file") }
            var status = stat()
            // A socket will not open; say what it is rather than "no such device or address".
            if stat(path, &status) == 0, FileKind(mode: status.st_mode) != .regular {
                throw PlistFile.FileError(description: "is \(FileKind(mode: status.st_mode)), not a property list")
            }
            throw unreadable(code)
        }
        return descriptor
    }

    private static func readOpen(_ descriptor: Int32, limit: FileLimit) throws -> Data {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw unreadable(errno) }
        let kind = FileKind(mode: status.st_mode)
        switch kind {
        case .regular:
            // Standard input may be a file the shell has read from already: what is left is
            // what counts.
            let position = max(0, Int64(lseek(descriptor, 0, SEEK_CUR)))
            let size = max(0, Int64(status.st_size) - position)
            guard size <= Int64(limit.bytes) else { throw PlistFile.FileError(description: tooLarge(size, limit)) }
            return try bounded(descriptor, limit: limit, expectedSize: Int(size))
        case .fifo, .characterDevice, .socket:
            if kind == .fifo { waitForWriter(descriptor) }
            return try bounded(descriptor, limit: limit, expectedSize: nil)
        default:
            throw PlistFile.FileError(description: "is \(kind), not a property list")
        }
    }

    private static func bounded(_ descriptor: Int32, limit: FileLimit, expectedSize: Int?) throws -> Data {
        do { return try BoundedFile.readAll(descriptor: descriptor, path: "", limit: limit, expectedSize: expectedSize) } catch {
            switch error {
            case .tooLarge: throw PlistFile.FileError(description: tooLarge(nil, limit))
            case .unreadable(_, let code): throw unreadable(code)
            default: throw PlistFile.FileError(description: error.predicate)
            }
        }
    }

    /// A FIFO opened without blocking reads as empty until a writer opens it; on Linux, poll
    /// waits for that writer (to write, or to open and close), as a blocking open would, and
    /// then reading sees the end only when the writer has gone.
    private static func waitForWriter(_ descriptor: Int32) {
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while poll(&request, 1, -1) < 0, errno == EINTR {}
    }

    static func tooLarge(_ size: Int64?, _ limit: FileLimit) -> String {
        let allowed = "the \(ByteCountText.describe(Int64(limit.bytes))) allowed for \(limit.name) (--max-size raises it)"
        guard let size else { return "is more than \(allowed)" }
        return "is \(ByteCountText.describe(size)), more than \(allowed)"
    }

    private static func unreadable(_ code: Int32) -> PlistFile.FileError {
        PlistFile.FileError(description: "cannot be read: \(String(cString: strerror(code)))")
    }
}
