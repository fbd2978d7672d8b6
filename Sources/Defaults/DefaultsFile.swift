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
            guard case .dictionary(let values) = try PropertyListReader.value(from: bytes) else {
                return .corrupt("it does not hold a dictionary")
            }
            return .values(values)
        } catch {
            return .corrupt("\(error)")
        }
    }

    /// Creates the folder (and its parents) as 0700 when missing.
    func makeFolder() throws {
        var missing: [URL] = []
        var current = folder
        while !FileManager.default.fileExists(atPath: current.path), current.path != "/" {
            missing.append(current)
            current = current.deletingLastPathComponent()
        }
        for directory in missing.reversed() {
            if mkdir(directory.path, 0o700) != 0 && errno != EEXIST {
                throw FileError(description: "cannot create \(directory.path): \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Runs `body` holding the lock: shared for reading, exclusive for read-merge-write.
    func withLock<T>(exclusive: Bool, _ body: () throws -> T) throws -> T {
        try makeFolder()
        let descriptor = open(lockURL.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
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

    /// Replaces the file with `values` as an XML plist: a temporary file in the same folder,
    /// written and fsynced, renamed over the old one, then the folder fsynced so the rename
    /// survives a crash. Returns the new file's stamp.
    @discardableResult
    func write(_ values: [String: PropertyListValue]) throws -> Stamp? {
        let bytes = try PropertyListSerializer.data(from: .dictionary(values), format: .xml)
        try makeFolder()
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0 ... .max)).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("cannot create \(temporary.path)") }
        var written = 0
        let ok: Bool = bytes.withUnsafeBytes { buffer in
            while written < buffer.count {
                let count = Glibc.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if count < 0 { if errno == EINTR { continue }; return false }
                written += count
            }
            return fsync(descriptor) == 0
        }
        let reason = ok ? "" : String(cString: strerror(errno))
        close(descriptor)
        guard ok else {
            unlink(temporary.path)
            throw FileError(description: "cannot write \(temporary.path): \(reason)")
        }
        guard rename(temporary.path, url.path) == 0 else {
            let error = failure("cannot replace \(url.path)")
            unlink(temporary.path)
            throw error
        }
        let directory = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
        return stamp()
    }

    /// Moves a file that cannot be read to `defaults.plist.corrupt-<timestamp>` (never deleting
    /// it) and returns the message to show the user.
    func moveAside(reason: String, now: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        var aside = url.path + ".corrupt-" + formatter.string(from: now)
        var suffix = 1
        while FileManager.default.fileExists(atPath: aside) {
            suffix += 1
            aside = url.path + ".corrupt-" + formatter.string(from: now) + "-\(suffix)"
        }
        if rename(url.path, aside) == 0 {
            return "The settings file \(url.path) could not be read (\(reason)). It was moved to \(aside) and the settings were reset to their defaults."
        }
        return "The settings file \(url.path) could not be read (\(reason)) nor moved aside (\(String(cString: strerror(errno)))); the settings start from their defaults."
    }

    private func failure(_ what: String) -> FileError {
        FileError(description: "\(what): \(String(cString: strerror(errno)))")
    }
}
