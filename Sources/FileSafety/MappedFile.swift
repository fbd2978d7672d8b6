#if canImport(Glibc)
import Glibc
#endif

/// A regular file mapped read-only into memory, for data read in place rather than copied: only
/// the pages a reader touches are ever read, and processes mapping one file share its pages.
/// Opened as `BoundedFile` opens (no blocking on a FIFO, a kind and size check); unmapped when
/// the last reference goes.
///
/// The bytes are the file's as they are now: whoever maps a file must never shrink it in place
/// (a page past a new end would fault). The app's own files are replaced by rename, which leaves
/// a mapped copy whole.
public final class MappedFile: @unchecked Sendable {
    public let bytes: UnsafeRawBufferPointer

    private init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Maps `path`, refusing anything but a regular file of at most `limit` bytes (and, without
    /// `followingLinks`, a symbolic link in its place). An empty file maps to no bytes.
    public static func map(path: String, limit: FileLimit, followingLinks: Bool = true) throws(BoundedFile.Failure) -> MappedFile {
        let (descriptor, size) = try BoundedFile.openRegularFile(path: path, limit: limit, followingLinks: followingLinks)
        defer { close(descriptor) }
        guard size > 0 else { return MappedFile(bytes: UnsafeRawBufferPointer(start: nil, count: 0)) }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else {
            throw .unreadable(path: path, code: errno)
        }
        return MappedFile(bytes: UnsafeRawBufferPointer(start: address, count: size))
    }

    deinit {
        if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
    }
}
