import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A book file's bytes: small files are read into memory (a file truncated while it is open
/// cannot hurt them), big ones are mapped so a 1 GB text costs only the pages being looked at.
enum BookFile {
    /// Above this size the file is mapped instead of read.
    static let mapThreshold = 32 << 20

    /// Opens `path` as a regular, non-empty file and returns its text bytes.
    static func open(path: String) throws -> BookText {
        try withRegularFile(path) { descriptor, size in
            if size > mapThreshold {
                return try map(descriptor: descriptor, size: size, path: path)
            }
            return BookText(bytes: try read(descriptor: descriptor, size: size, path: path))
        }
    }

    /// The first `count` bytes of `path` (a regular, non-empty file), to tell what it is
    /// before reading it all: an EPUB is never read whole.
    static func head(path: String, count: Int) throws -> Data {
        try withRegularFile(path) { descriptor, size in
            try read(descriptor: descriptor, size: min(size, count), path: path)
        }
    }

    private static func withRegularFile<Result>(_ path: String, _ body: (Int32, Int) throws -> Result) throws -> Result {
        let descriptor = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw openError(path: path, errno: errno) }
        defer { close(descriptor) }

        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw openError(path: path, errno: errno) }
        let kind = status.st_mode & S_IFMT
        if kind == S_IFDIR { throw BookLoadError(path: path, reason: "is a folder, not a book") }
        guard kind == S_IFREG else { throw BookLoadError(path: path, reason: "is not a regular file") }
        let size = Int(status.st_size)
        guard size > 0 else { throw BookLoadError(path: path, reason: "is empty") }
        return try body(descriptor, size)
    }

    private static func read(descriptor: Int32, size: Int, path: String) throws -> Data {
        // Straight into fresh memory: Data(count:) would zero 10 MB only to overwrite it.
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        var filled = 0
        while filled < size {
            let got = Glibc.read(descriptor, buffer + filled, size - filled)
            if got < 0 {
                if errno == EINTR { continue }
                let code = errno
                buffer.deallocate()
                throw openError(path: path, errno: code)
            }
            if got == 0 { break }  // shrank while we read: keep what is there
            filled += got
        }
        guard filled > 0 else {
            buffer.deallocate()
            throw BookLoadError(path: path, reason: "is empty")
        }
        return Data(bytesNoCopy: buffer, count: filled, deallocator: .custom({ pointer, _ in pointer.deallocate() }))
    }

    private static func map(descriptor: Int32, size: Int, path: String) throws -> BookText {
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else {
            throw openError(path: path, errno: errno)
        }
        let data = Data(bytesNoCopy: address, count: size, deallocator: .custom({ pointer, count in
            _ = munmap(pointer, count)
        }))
        return BookText(bytes: data, isMapped: true)
    }

    static func openError(path: String, errno code: Int32) -> BookLoadError {
        switch code {
        case ENOENT, ENOTDIR: return BookLoadError(path: path, reason: "not found")
        case EACCES, EPERM: return BookLoadError(path: path, reason: "cannot be read: permission denied")
        case EISDIR: return BookLoadError(path: path, reason: "is a folder, not a book")
        default: return BookLoadError(path: path, reason: "cannot be read: \(String(cString: strerror(code)))")
        }
    }
}

extension BookText {
    /// Runs `body` over the text's bytes without copying them.
    public func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try bytes.withUnsafeBytes(body)
    }

    /// Gives back the resident pages of a mapped text in `range` (they are read again from the
    /// file when touched), so a scan of a mapped 1 GB book keeps memory bounded. Does nothing
    /// for texts held in memory.
    public func releaseResidentPages(_ range: Range<Int>) {
        guard isMapped else { return }
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            let page = Int(sysconf(Int32(_SC_PAGESIZE)))
            // Rounded outwards: a page dropped by mistake is only read again.
            let start = max(0, range.lowerBound) / page * page
            let end = min((range.upperBound + page - 1) / page * page, (buffer.count + page - 1) / page * page)
            guard end > start else { return }
            _ = madvise(UnsafeMutableRawPointer(mutating: base + start), end - start, MADV_DONTNEED)
        }
    }
}

/// Scans call `passed(offset)` as they go; every `window` bytes the pages behind the scan are
/// given back, so only one window of a mapped text is resident at a time.
struct PageReleaser {
    static let window = 8 << 20
    let text: BookText
    private var released = 0

    init(text: BookText) { self.text = text }

    mutating func passed(_ offset: Int) {
        guard text.isMapped, offset - released >= PageReleaser.window else { return }
        text.releaseResidentPages(released..<offset)
        released = offset
    }

    mutating func finish() {
        guard text.isMapped else { return }
        text.releaseResidentPages(released..<text.count)
        released = 0
    }
}
