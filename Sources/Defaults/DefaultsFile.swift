import FileSafety
import Foundation
import PropertyList
#if canImport(Glibc)
import Glibc
#endif

/// The defaults file on disk: reading it, replacing it atomically, and the advisory lock that
/// lets several processes read, merge and write it without losing each other's keys.
///
/// The lock is `flock` on a separate file beside the plist (`defaults.plist.lock`), because the
/// plist itself is replaced by rename on every write and a lock on it would stay with the old
/// inode.
struct DefaultsFile {
    let url: URL
    var folder: URL { url.deletingLastPathComponent() }
    var lockURL: URL { url.appendingPathExtension("lock") }

    /// Identifies one version of the file; a write by anyone gives a new stamp (the rename makes
    /// a new inode and a new change time).
    struct Stamp: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: timespec
        var changed: timespec

        static func == (a: Stamp, b: Stamp) -> Bool {
            a.device == b.device && a.inode == b.inode && a.size == b.size
                && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
                && a.changed.tv_sec == b.changed.tv_sec && a.changed.tv_nsec == b.changed.tv_nsec
        }
    }

    enum Contents {
        case missing
        case values([String: PropertyListValue])
        /// The file exists but is not a property-list dictionary; the reason is for the user.
        case corrupt(String)
    }

    struct FileError: Error, CustomStringConvertible {
        let description: String
    }

    /// The current file's stamp, or nil when there is none.
    func stamp() -> Stamp? {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        return Stamp(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                     modified: info.st_mtim, changed: info.st_ctim)
    }

    func read() -> Contents {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            return errno == ENOENT ? .missing : .corrupt("it cannot be opened: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var bytes = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .corrupt("it cannot be read: \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            bytes.append(contentsOf: buffer[0 ..< count])
        }
        if bytes.isEmpty { return .corrupt("it is empty") }
        do {
            guard case .dictionary(let values) = try PropertyListReader.value(from: bytes, limits: .defaults) else {
                return .corrupt("it does not hold a dictionary")
            }
            return .values(values)
        } catch {
            return .corrupt("\(error)")
        }
    }

    /// Creates the folder (and its parents) as 0700 when missing.
    func makeFolder() throws {
        do { try AtomicFile.makeFolder(folder) } catch { throw FileError(description: "\(error)") }
    }

    /// Runs `body` holding the lock: shared for reading, exclusive for read-merge-write.
    func withLock<T>(exclusive: Bool, _ body: () throws -> T) throws -> T {
        try makeFolder()
        var descriptor = open(lockURL.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        if descriptor < 0, !exclusive, errno == EROFS || errno == EACCES {
            // A folder we cannot write to (a read-only mount, another user's folder) must still
            // let the settings be read. flock works on a read-only descriptor; with no lock file
            // at all, no writer has ever locked here, and a writer's rename is atomic anyway.
            descriptor = open(lockURL.path, O_RDONLY | O_CLOEXEC)
            if descriptor < 0 { return try body() }
        }
        guard descriptor >= 0 else {
            throw FileError(description: "cannot open \(lockURL.path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }  // closing releases the lock
        while flock(descriptor, exclusive ? LOCK_EX : LOCK_SH) != 0 {
            guard errno == EINTR else {
                throw FileError(description: "cannot lock \(lockURL.path): \(String(cString: strerror(errno)))")
            }
        }
        return try body()
    }

    /// Replaces the file with `values` as an XML plist, atomically and durably (see
    /// `AtomicFile.write`). Returns the new file's stamp.
    @discardableResult
    func write(_ values: [String: PropertyListValue]) throws -> Stamp? {
        let bytes = try PropertyListSerializer.data(from: .dictionary(values), format: .xml)
        do { try AtomicFile.write(bytes, to: url) } catch { throw FileError(description: "cannot save \(url.path): \(error)") }
        return stamp()
    }

    /// Moves a file that cannot be read to `defaults.plist.corrupt-<timestamp>` (never deleting
    /// it) and returns the message to show the user.
    func moveAside(reason: String, now: Date = Date()) -> String {
        do {
            let aside = try AtomicFile.moveAside(url, label: "corrupt", now: now)
            return "The settings file \(url.path) could not be read (\(reason)). It was moved to \(aside.path) and the settings were reset to their defaults."
        } catch {
            return "The settings file \(url.path) could not be read (\(reason)) nor moved aside (\(error)); the settings start from their defaults."
        }
    }

    private func failure(_ what: String) -> FileError {
        FileError(description: "\(what): \(String(cString: strerror(errno)))")
    }
}
