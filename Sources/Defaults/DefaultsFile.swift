import FileSafety
import FoundationEssentials
import PropertyList
import Platform
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
    let path: String
    /// Replaces the file atomically (AtomicFile.write, unless a test fakes a failing disk).
    var writeFile: (Data, URL) throws -> Void = { try AtomicFile.write($0, to: $1) }
    var url: URL { URL(fileURLWithPath: path) }
    var folderPath: String { FilePaths.parent(of: path) }
    var lockPath: String { path + ".lock" }

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
        /// A dictionary, some of whose values the file's XML form cannot write back (a NaN date
        /// from another tool): `kept` is the rest; `problems` says what was left out, per key.
        case unstorable(kept: [String: PropertyListValue], problems: [String])
        /// The file exists but is not a property-list dictionary; the reason is for the user.
        case corrupt(String)
    }

    struct FileError: Error, CustomStringConvertible {
        let description: String
        /// The system call's failure underneath, when there is one.
        var cause: AtomicFile.Failure? = nil
    }

    /// The current file's stamp, or nil when there is none.
    func stamp() -> Stamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Stamp(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                     modified: info.st_mtim, changed: info.st_ctim)
    }

    func read() -> Contents {
        let bytes: Data
        do { bytes = try BoundedFile.read(path: path, limit: .defaults) } catch {
            if case .missing = error { return .missing }
            return .corrupt(error.reason)
        }
        if bytes.isEmpty { return .corrupt("it is empty") }
        do {
            guard case .dictionary(let values) = try PropertyListReader.value(from: bytes, limits: .defaults) else {
                return .corrupt("it does not hold a dictionary")
            }
            let (kept, problems) = DefaultsStorability.partition(values)
            return problems.isEmpty ? .values(values) : .unstorable(kept: kept, problems: problems)
        } catch {
            return .corrupt("\(error)")
        }
    }

    /// Creates the folder (and its parents) as 0700 when missing.
    func makeFolder() throws {
        do { try AtomicFile.makeFolder(atPath: folderPath) } catch { throw FileError(description: "\(error)") }
    }

    /// Runs `body` holding the lock: shared for reading, exclusive for read-merge-write.
    func withLock<T>(exclusive: Bool, _ body: () throws -> T) throws -> T {
        try makeFolder()
        // Never blocking, never a controlling terminal: the lock file could be anything.
        var descriptor = open(lockPath, O_RDWR | O_CREAT | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0o600)
        if descriptor < 0, !exclusive, errno == EROFS || errno == EACCES {
            // A folder we cannot write to (a read-only mount, another user's folder) must still
            // let the settings be read. flock works on a read-only descriptor; with no lock file
            // at all, no writer has ever locked here, and a writer's rename is atomic anyway.
            descriptor = open(lockPath, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
            if descriptor < 0 { return try body() }
        }
        guard descriptor >= 0 else {
            throw FileError(description: "cannot open \(lockPath): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }  // closing releases the lock
        while flock(descriptor, exclusive ? LOCK_EX : LOCK_SH) != 0 {
            guard errno == EINTR else {
                throw FileError(description: "cannot lock \(lockPath): \(String(cString: strerror(errno)))")
            }
        }
        return try body()
    }

    /// Replaces the file with `values` as an XML plist, atomically and durably (see
    /// `AtomicFile.write`). Returns the new file's stamp.
    @discardableResult
    func write(_ values: [String: PropertyListValue]) throws -> Stamp? {
        // What the next read would refuse is not written: it would be moved aside as unreadable.
        do { try PropertyListLimits.defaults.check(.dictionary(values)) } catch {
            throw FileError(description: "cannot save \(path): the settings would be too big to read back (\(error))")
        }
        let bytes = try PropertyListSerializer.data(from: .dictionary(values), format: .xml)
        // A file over the limit would be refused, and moved aside, by the next read.
        guard bytes.count <= FileLimit.defaults.bytes else {
            throw FileError(description: "cannot save \(path): the settings would take \(ByteCountText.describe(Int64(bytes.count))), more than the \(ByteCountText.describe(Int64(FileLimit.defaults.bytes))) a settings file may hold")
        }
        do { try writeFile(bytes, url) } catch {
            throw FileError(description: "cannot save \(path): \(error)", cause: error as? AtomicFile.Failure)
        }
        return stamp()
    }

    /// Moves a file that cannot be read to `defaults.plist.corrupt-<timestamp>` (never deleting
    /// it) and returns the message to show the user.
    func moveAside(reason: String, now: Date = Date()) -> String {
        do {
            let aside = try AtomicFile.moveAside(url, label: "corrupt", now: now)
            return "The settings file \(path) could not be read (\(reason)). It was moved to \(aside.path) and the settings were reset to their defaults."
        } catch {
            return "The settings file \(path) could not be read (\(reason)) nor moved aside (\(error)); the settings start from their defaults."
        }
    }

    /// What `setAside` managed: the rest written back in place of the original, the original
    /// moved aside but nothing written in its place, or the original left where it was.
    enum SetAsideOutcome {
        case replaced(Stamp?)
        case movedAsideOnly
        case notMoved
    }

    /// Keeps a file holding values that cannot be saved as `defaults.plist.corrupt-<timestamp>`
    /// and writes the rest back in its place, so the next save succeeds and the original is
    /// not lost. Returns the message for the user and what was done.
    func setAside(keeping kept: [String: PropertyListValue], problems: [String], now: Date = Date()) -> (message: String, outcome: SetAsideOutcome) {
        let leftOut = "held values that cannot be saved, which were left out (\(problems.joined(separator: "; ")))"
        let aside: URL
        do { aside = try AtomicFile.moveAside(url, label: "corrupt", now: now) } catch {
            return ("The settings file \(path) holds values that cannot be saved (\(problems.joined(separator: "; "))) and could not be moved aside (\(error)): they are left out of this run's settings, and the file is left as it is.", .notMoved)
        }
        do {
            let stamp = try write(kept)
            return ("The settings file \(path) \(leftOut). The original was kept as \(aside.path); every other setting was kept.", .replaced(stamp))
        } catch {
            return ("The settings file \(path) \(leftOut). The original was kept as \(aside.path); the other settings could not be written back yet (\(error)).", .movedAsideOnly)
        }
    }

    private func failure(_ what: String) -> FileError {
        FileError(description: "\(what): \(String(cString: strerror(errno)))")
    }
}
