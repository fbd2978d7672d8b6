import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Reading a file that anyone may have put in the way: a FIFO would block the reader forever, a
/// symlink to /dev/zero would fill memory, a 3 GB sparse file would be read whole. Every file
/// the app and its commands read goes through here, under one of the `FileLimit`s.
///
/// The file is opened without blocking (a FIFO with no writer opens at once) and without
/// becoming the controlling terminal; what was opened (symlinks followed) must then be a
/// regular file no larger than the limit, and at most `limit + 1` bytes are ever read, so a
/// file growing while it is read is still caught.
public enum BoundedFile {
    /// Why a file was not read; `reason` is for a sentence about the file, `description` names it.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case missing(path: String)
        case notRegularFile(path: String, kind: FileKind)
        /// `size` is nil when the file grew past the limit while it was read.
        case tooLarge(path: String, size: Int64?, limit: FileLimit)
        case unreadable(path: String, code: Int32)

        public var path: String {
            switch self {
            case .missing(let path), .notRegularFile(let path, _), .tooLarge(let path, _, _), .unreadable(let path, _): path
            }
        }

        /// What is wrong, as the rest of a sentence about the file: "is a FIFO (named pipe), not
        /// a regular file".
        public var predicate: String {
            switch self {
            case .missing: "does not exist"
            case .notRegularFile(_, let kind): "is \(kind.description), not a regular file"
            case .tooLarge(_, let size?, let limit):
                "is \(ByteCountText.describe(size)), more than the \(ByteCountText.describe(Int64(limit.bytes))) allowed for \(limit.name)"
            case .tooLarge(_, nil, let limit):
                "grew past the \(ByteCountText.describe(Int64(limit.bytes))) allowed for \(limit.name) while being read"
            case .unreadable(_, let code): "cannot be read: \(String(cString: strerror(code)))"
            }
        }

        /// The same for a sentence that has already named the file: "it is a FIFO (named pipe), …".
        public var reason: String { "it " + predicate }

        public var description: String { "\(path) \(predicate)" }
    }

    /// Reads the whole of `path`, refusing anything but a regular file of at most `limit` bytes.
    /// Without `followingLinks`, a symbolic link in its place is refused too (files of the app's
    /// own that nothing should have replaced).
    public static func read(path: String, limit: FileLimit, followingLinks: Bool = true) throws(Failure) -> Data {
        let (descriptor, size) = try openRegularFile(path: path, limit: limit, followingLinks: followingLinks)
        defer { close(descriptor) }
        return try readAll(descriptor: descriptor, path: path, limit: limit, expectedSize: size)
    }

    /// The first `count` bytes of a regular file of any size (all of it when shorter).
    public static func readHead(path: String, count: Int, followingLinks: Bool = true) throws(Failure) -> Data {
        let (descriptor, size) = try openRegularFile(path: path, limit: nil, followingLinks: followingLinks)
        defer { close(descriptor) }
        return try readPrefix(descriptor: descriptor, count: count, path: path, expectedSize: min(size, count))
    }

    /// Opens `path`, checks it is a regular file within `limit`, and runs `body` with the open
    /// descriptor and its size (for callers that map the file or read only its head); closes it
    /// after.
    public static func withRegularFile<Result>(path: String, limit: FileLimit,
                                               _ body: (_ descriptor: Int32, _ size: Int) throws -> Result) throws -> Result {
        let (descriptor, size) = try openRegularFile(path: path, limit: limit, followingLinks: true)
        defer { close(descriptor) }
        return try body(descriptor, size)
    }

    /// Reads an already open descriptor (a pipe on stdin, say) to its end, refusing more than
    /// `limit` bytes; `path` only names it in the error.
    public static func readAll(descriptor: Int32, path: String, limit: FileLimit, expectedSize: Int? = nil) throws(Failure) -> Data {
        let data = try readPrefix(descriptor: descriptor, count: limit.bytes + 1, path: path, expectedSize: expectedSize)
        guard data.count <= limit.bytes else { throw .tooLarge(path: path, size: nil, limit: limit) }
        return data
    }

    /// Up to `count` bytes from the descriptor's current position: fewer only at the end of the
    /// file. With `expectedSize` (the size fstat gave) the bytes go straight into one buffer of
    /// that size plus one, the one telling a file that grew; without it, the buffer doubles as
    /// bytes arrive, so a limit of hundreds of MB costs nothing for a file of a few KB.
    public static func readPrefix(descriptor: Int32, count: Int, path: String, expectedSize: Int? = nil) throws(Failure) -> Data {
        guard count > 0 else { return Data() }
        var capacity = max(1, min(count, expectedSize.map { $0 + 1 } ?? 65_536))
        var buffer = malloc(capacity)!
        var filled = 0
        while filled < count {
            if filled == capacity {
                capacity = min(count, capacity * 2)
                buffer = realloc(buffer, capacity)!
            }
            let got = Glibc.read(descriptor, buffer + filled, capacity - filled)
            if got < 0 {
                if errno == EINTR { continue }
                // A descriptor handed over non-blocking (a shell's stdin can be): the caller
                // chose to read it to its end, so wait for the bytes rather than fail.
                let code = errno
                if code == EAGAIN, waitUntilReadable(descriptor) { continue }
                free(buffer)
                throw .unreadable(path: path, code: code)
            }
            if got == 0 { break }
            filled += got
        }
        if filled < capacity { buffer = realloc(buffer, max(filled, 1))! }
        return Data(bytesNoCopy: buffer, count: filled, deallocator: .free)
    }

    /// False when poll itself fails: the read's EAGAIN is then reported as it is.
    private static func waitUntilReadable(_ descriptor: Int32) -> Bool {
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            if poll(&request, 1, -1) >= 0 { return true }
            if errno != EINTR { return false }
        }
    }

    /// `limit` nil: any size.
    static func openRegularFile(path: String, limit: FileLimit?, followingLinks: Bool) throws(Failure) -> (descriptor: Int32, size: Int) {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (followingLinks ? 0 : O_NOFOLLOW))
        guard descriptor >= 0 else {
            let code = errno
            if code == ELOOP, !followingLinks { throw .notRegularFile(path: path, kind: .symbolicLink) }
            throw openFailure(path: path, code: code)
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            throw .unreadable(path: path, code: code)
        }
        let kind = FileKind(mode: status.st_mode)
        guard kind == .regular else {
            close(descriptor)
            throw .notRegularFile(path: path, kind: kind)
        }
        if let limit, Int64(status.st_size) > Int64(limit.bytes) {
            close(descriptor)
            throw .tooLarge(path: path, size: Int64(status.st_size), limit: limit)
        }
        return (descriptor, Int(status.st_size))
    }

    /// Some kinds fail at open rather than at the check (a socket gives ENXIO): say what it is
    /// when stat can tell.
    private static func openFailure(path: String, code: Int32) -> Failure {
        if code == ENOENT { return .missing(path: path) }
        var status = stat()
        if code == ENXIO || code == ENODEV || code == EOPNOTSUPP, stat(path, &status) == 0 {
            let kind = FileKind(mode: status.st_mode)
            if kind != .regular { return .notRegularFile(path: path, kind: kind) }
        }
        return .unreadable(path: path, code: code)
    }
}

/// What a path names, as the messages say it.
public enum FileKind: Equatable, Sendable, CustomStringConvertible {
    case regular, directory, fifo, characterDevice, blockDevice, socket, symbolicLink, unknown

    public init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFIFO: self = .fifo
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFSOCK: self = .socket
        case S_IFLNK: self = .symbolicLink
        default: self = .unknown
        }
    }

    public var description: String {
        switch self {
        case .regular: "a regular file"
        case .directory: "a folder"
        case .fifo: "a FIFO (named pipe)"
        case .characterDevice: "a character device"
        case .blockDevice: "a block device"
        case .socket: "a socket"
        case .symbolicLink: "a symbolic link"
        case .unknown: "of an unknown kind"
        }
    }
}
