import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads a small file of this machine's (the local copy, the quarantine list, a marker) that
/// anything may have replaced: only a regular file, never through a link, and never more than
/// the caller allows, so a FIFO, a device or a huge file cannot hang or flood the store.
enum BoundedFileRead {
    enum Outcome: Equatable {
        case missing
        /// Not a regular file (a FIFO, a device, a folder) or a symbolic link.
        case notRegularFile
        case tooLarge(bytes: Int, limit: Int)
        case unreadable(String)
        case bytes([UInt8])
    }

    /// With `truncating`, a longer file gives its first `limit` bytes instead of `tooLarge`.
    static func read(_ path: String, limit: Int, truncating: Bool = false) -> Outcome {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else {
            switch errno {
            case ENOENT: return .missing
            case ELOOP: return .notRegularFile
            default: return .unreadable(String(cString: strerror(errno)))
            }
        }
        defer { close(descriptor) }
        guard let status = FolderSystemCalls.status(of: descriptor), status.isRegularFile else { return .notRegularFile }
        guard status.size <= limit || truncating else { return .tooLarge(bytes: status.size, limit: limit) }
        // One byte more than the size said: a file still growing past the limit is caught too.
        guard let bytes = FolderSystemCalls.read(descriptor, from: 0, count: min(status.size + 1, limit + 1)) else {
            return .unreadable(String(cString: strerror(errno)))
        }
        guard bytes.count <= limit else {
            return truncating ? .bytes(Array(bytes.prefix(limit))) : .tooLarge(bytes: bytes.count, limit: limit)
        }
        return .bytes(bytes)
    }

    /// The bytes of a regular file, or nil; with `truncating`, a longer file gives its first
    /// `limit` bytes instead of nil.
    static func regularFile(_ path: String, limit: Int, truncating: Bool = false) -> [UInt8]? {
        switch read(path, limit: limit, truncating: truncating) {
        case .bytes(let bytes): return bytes
        default: return nil
        }
    }
}
