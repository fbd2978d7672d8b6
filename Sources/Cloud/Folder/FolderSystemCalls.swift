import FileSafety
import FoundationEssentials
import Platform
#if canImport(Glibc)
import Glibc
#endif

/// The few system calls the folder backend makes, with errno turned into clear reasons.
enum FolderSystemCalls {
    static func reason(_ operation: String, _ path: String, _ code: Int32) -> String {
        "cannot \(operation) \(path): \(String(cString: strerror(code)))"
    }

    /// The names in a folder; throws `BackendUnavailable` when it cannot be read (missing, not
    /// mounted, not a folder).
    static func names(in folder: String) throws -> [String] {
        guard let names = folderNames(folder) else { throw BackendUnavailable(reason: reason("read", folder, errno)) }
        return names
    }

    struct Identity: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    struct FileStatus: Hashable {
        let identity: Identity
        let size: Int
        let modified: Int
        let links: Int
        let isRegularFile: Bool

        init(_ info: stat) {
            isRegularFile = info.st_mode & S_IFMT == S_IFREG
            identity = Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
            size = Int(info.st_size)
            modified = Int(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int(info.st_mtim.tv_nsec)
            links = Int(info.st_nlink)
        }
    }

    static func status(of path: String) -> FileStatus? {
        var info = stat()
        return stat(path, &info) == 0 ? FileStatus(info) : nil
    }

    /// What `path` names, a symbolic link followed; nil when nothing is there.
    static func kind(of path: String) -> FileKind? {
        var info = stat()
        return stat(path, &info) == 0 ? FileKind(mode: info.st_mode) : nil
    }

    /// The status of the name itself, a symbolic link not followed.
    static func linkStatus(of path: String) -> FileStatus? {
        var info = stat()
        return lstat(path, &info) == 0 ? FileStatus(info) : nil
    }

    static func status(of descriptor: Int32) -> FileStatus? {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? FileStatus(info) : nil
    }

    /// A regular file opened for reading, or nil. O_NONBLOCK, so a FIFO someone left in the
    /// folder cannot block the open (it waits for a writer otherwise), and the fstat check turns
    /// away FIFOs, devices and sockets before a byte is read; O_NOFOLLOW, so a symbolic link
    /// cannot point the reader at /dev/zero or another user's file.
    static func openRegularFile(_ path: String) -> (descriptor: Int32, status: FileStatus)? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        guard let status = status(of: descriptor), status.isRegularFile, status.size >= 0 else {
            close(descriptor)
            return nil
        }
        return (descriptor, status)
    }

    /// Bytes `offset ..< offset + count` (fewer at the end of the file).
    static func read(_ descriptor: Int32, from offset: Int, count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + filled, count - filled, off_t(offset + filled)) }
            if got < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if got == 0 { break }
            filled += got
        }
        bytes.removeLast(count - filled)
        return bytes
    }

    /// The whole buffer in as few writes as the kernel allows (one, for a local file).
    static func writeAll(_ descriptor: Int32, _ bytes: [UInt8], path: String) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw BackendUnavailable(reason: reason("write", path, errno))
            }
            offset += written
        }
    }

    static func lock(_ descriptor: Int32, _ operation: Int32) {
        while flock(descriptor, operation) != 0 && errno == EINTR {}
    }

    static func syncFolder(_ folder: String) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}
