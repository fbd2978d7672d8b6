import FileSafety
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A book file's bytes: small files are read into memory (a file truncated while it is open
/// cannot hurt them), big ones are mapped so a 10 MB or 1 GB text costs only the pages being
/// looked at.
/// Opening goes through `BoundedFile`: a FIFO, a device or a folder is refused without
/// blocking, and a file over the kind's `FileLimit` unread.
enum BookFile {
    /// Above this size the file is mapped instead of read: reading a 10 MB book would make all
    /// of it resident to show one page.
    static let mapThreshold = 1 << 20

    /// The limit for a book at `path`, by its extension; an EPUB found by its contents is
    /// checked again against `FileLimit.epubBook` before it is opened as one.
    static func limit(forPath path: String) -> FileLimit {
        switch PathText.pathExtension(path).lowercased() {
        case "md", "markdown": .markdownBook
        case "epub": .epubBook
        default: .textBook
        }
    }

    /// Opens `path` as a regular, non-empty file within `limit` and returns its text bytes.
    static func open(path: String, limit: FileLimit) throws -> BookText {
        try withRegularFile(path, limit: limit) { descriptor, size in
            if size > mapThreshold {
                return try map(descriptor: descriptor, size: size, path: path)
            }
            return BookText(bytes: try read(descriptor: descriptor, size: size, path: path))
        }
    }

    /// `open(path:limit:)`, and the file's identity as it was opened (nil when it changed size
    /// meanwhile), to look its index up with.
    static func openWithIdentity(path: String, limit: FileLimit) throws -> (text: BookText, identity: FileIdentity?) {
        try withRegularFile(path, limit: limit) { descriptor, size in
            let text = size > mapThreshold ? try map(descriptor: descriptor, size: size, path: path)
                                            : BookText(bytes: try read(descriptor: descriptor, size: size, path: path))
            return (text, text.withBytes { FileIdentity.of(descriptor: descriptor, bytes: $0) })
        }
    }

    /// The first `count` bytes of `path` (a regular, non-empty file within `limit`), to tell
    /// what it is before reading it all: an EPUB is never read whole.
    static func head(path: String, count: Int, limit: FileLimit) throws -> Data {
        try withRegularFile(path, limit: limit) { descriptor, size in
            try read(descriptor: descriptor, size: min(size, count), path: path)
        }
    }

    /// The identity of `path` (a regular, non-empty file within `limit`) from its status and
    /// sampled blocks, for a book whose reader opens the file itself; nil when it cannot be read.
    static func identity(path: String, limit: FileLimit) throws -> FileIdentity? {
        try withRegularFile(path, limit: limit) { descriptor, _ in FileIdentity.of(descriptor: descriptor) }
    }

    /// Opens `path` as a regular, non-empty file within `limit` and hands over a descriptor of
    /// its own (the caller closes it) and the file's size, for the zip reader of an EPUB, which
    /// reads the file as it goes: the file that passed the check is the one read.
    static func openDescriptor(path: String, limit: FileLimit) throws -> (descriptor: Int32, size: Int) {
        try withRegularFile(path, limit: limit) { descriptor, size in
            let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
            guard copy >= 0 else { throw openError(path: path, errno: errno) }
            return (copy, size)
        }
    }

    private static func withRegularFile<Result>(_ path: String, limit: FileLimit, _ body: (Int32, Int) throws -> Result) throws -> Result {
        do {
            return try BoundedFile.withRegularFile(path: path, limit: limit) { descriptor, size in
                guard size > 0 else { throw BookLoadError(path: path, reason: "is empty") }
                return try body(descriptor, size)
            }
        } catch let failure as BoundedFile.Failure {
            throw loadError(failure)
        }
    }

    private static func read(descriptor: Int32, size: Int, path: String) throws -> Data {
        let data: Data
        do { data = try BoundedFile.readPrefix(descriptor: descriptor, count: size, path: path, expectedSize: size) } catch {
            throw loadError(error)
        }
        // It shrank to nothing while it was read; what did arrive is kept otherwise.
        guard !data.isEmpty else { throw BookLoadError(path: path, reason: "is empty") }
        return data
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

    /// The reason in the words the Book tab uses ("not found", "is a folder, not a book").
    static func loadError(_ failure: BoundedFile.Failure) -> BookLoadError {
        let path = failure.path
        switch failure {
        case .missing: return BookLoadError(path: path, reason: "not found")
        case .notRegularFile(_, .directory): return BookLoadError(path: path, reason: "is a folder, not a book")
        case .unreadable(_, let code): return openError(path: path, errno: code)
        case .notRegularFile, .tooLarge: return BookLoadError(path: path, reason: failure.predicate)
        }
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
