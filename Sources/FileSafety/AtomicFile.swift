import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import Platform

/// File writes that never leave a half-written file under the real name: a temporary file in
/// the same folder, fsync, rename over the old one, fsync of the folder (so the rename itself
/// survives a power loss). Files are 0600 unless the caller says otherwise, folders 0700.
public enum AtomicFile {
    public struct Failure: Error, CustomStringConvertible {
        public let operation: String
        public let path: String
        public let code: Int32
        public var description: String { "\(operation) \(path): \(String(cString: strerror(code)))" }
        public init(operation: String, path: String, code: Int32) {
            self.operation = operation
            self.path = path
            self.code = code
        }
    }

    /// `durable: false` skips the fsyncs: still never torn (the rename is atomic), but a power
    /// loss may lose it. For files that only need to survive a process crash, where an fsync
    /// (milliseconds, sometimes tens) would be paid on every launch.
    ///
    /// A file the user names on a command line is theirs: `permissions: 0o666` leaves it to
    /// their umask, and `makingFolder: false` leaves a missing folder an error, as it is for
    /// a folder that must never be made (a sync folder that may be an unmounted share).
    public static func write(_ data: Data, to url: URL, durable: Bool = true, permissions: mode_t = 0o600, makingFolder: Bool = true) throws {
        try write(data, toPath: url.path, durable: durable, permissions: permissions, makingFolder: makingFolder)
    }

    /// `write(_:to:…)` for a file named by its path. With `keeping`, the new file gets the
    /// mode and owner of the file it replaces instead of `permissions`; it is made owner-only
    /// until then, so its bytes are never readable by more people than the old file's were.
    public static func write(_ data: Data, toPath path: String, durable: Bool = true, permissions: mode_t = 0o600,
                             makingFolder: Bool = true, keeping replaced: ReplacedFileAttributes? = nil) throws {
        let folder = FilePaths.parent(of: path)
        if makingFolder { try makeFolder(atPath: folder) }
        // The pid lets a later launch tell a dead writer's leftover from a live one's; the
        // random part keeps two writers in one process apart.
        let temporary = FilePaths.join(folder, ".\(FilePaths.lastComponent(of: path)).tmp-\(getpid())-\(UInt32.random(in: 0 ... .max))")
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, replaced == nil ? permissions : 0o600)
        guard fd >= 0 else { throw Failure(operation: "create", path: temporary, code: errno) }
        do {
            try data.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        throw Failure(operation: "write", path: temporary, code: errno)
                    }
                    offset += written
                }
            }
            try replaced?.apply(to: fd, path: temporary)
            if durable, fsync(fd) != 0 { throw Failure(operation: "fsync", path: temporary, code: errno) }
            guard close(fd) == 0 else { throw Failure(operation: "close", path: temporary, code: errno) }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw Failure(operation: "rename", path: path, code: code)
        }
        if durable { syncFolder(atPath: folder) }
    }

    /// Removes the temporary files (`.<name>.tmp-<pid>`) that writes in `folder` left behind
    /// when their process died between creating and renaming them (`kill -9`, a power cut).
    /// A file whose process is still running is left alone: it may be mid-write. Returns the
    /// names removed.
    @discardableResult
    public static func removeStaleTemporaries(in folder: URL) -> [String] {
        removeStaleTemporaries(inFolder: folder.path)
    }

    /// `removeStaleTemporaries(in:)` for a folder named by its path.
    @discardableResult
    public static func removeStaleTemporaries(inFolder folder: String) -> [String] {
        guard let names = folderNames(folder) else { return [] }
        var removed: [String] = []
        for name in names where name.hasPrefix(".") {
            guard let marker = name.ranges(of: ".tmp-").last,
                  let pid = pid_t(name[marker.upperBound...].prefix { $0 != "-" }), pid > 0, pid != getpid() else { continue }
            if kill(pid, 0) == 0 || errno == EPERM { continue }
            if unlink(FilePaths.join(folder, name)) == 0 { removed.append(name) }
        }
        return removed.sorted()
    }

    /// Creates the folder (and its parents) 0700 when missing.
    public static func makeFolder(_ folder: URL) throws { try makeFolder(atPath: folder.path) }

    /// `makeFolder(_:)` for a folder named by its path.
    public static func makeFolder(atPath folder: String) throws {
        var status = stat()
        if stat(folder, &status) == 0, FileKind(mode: status.st_mode) == .directory { return }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw Failure(operation: "create folder", path: folder, code: errno == 0 ? EIO : errno)
        }
    }

    public static func syncFolder(_ folder: URL) { syncFolder(atPath: folder.path) }

    /// Makes a rename in `folder` survive a power loss.
    public static func syncFolder(atPath folder: String) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    /// Renames a damaged file to `<name>.<label>-<timestamp>` beside it, never deleting it;
    /// returns the new location. A file already under that name (one moved aside in the same
    /// second, by this process or another) is never replaced: the new one gets `-2`, `-3`, ….
    /// The same file's older copies past `MovedAside.KeepRule.standard` are removed then, as
    /// this is when their number grows.
    @discardableResult
    public static func moveAside(_ url: URL, label: String, now: Date = Date()) throws -> URL {
        let moved = try linkAside(url, label: label, now: now)
        MovedAside.prune(inFolder: url.deletingLastPathComponent().path, original: url.lastPathComponent, now: now)
        return moved
    }

    private static func linkAside(_ url: URL, label: String, now: Date) throws -> URL {
        let stem = "\(url.lastPathComponent).\(label)-\(compactUTCStamp(now))"
        let folder = url.deletingLastPathComponent()
        for suffix in 1 ... 1000 {
            let target = folder.appendingPathComponent(suffix == 1 ? stem : "\(stem)-\(suffix)")
            // link() fails with EEXIST instead of replacing, which rename() would do between a
            // check for the name and the rename: two processes moving files aside at once
            // would otherwise lose one of them.
            if link(url.path, target.path) == 0 {
                guard unlink(url.path) == 0 else { throw Failure(operation: "move aside", path: url.path, code: errno) }
                syncFolder(folder)
                return target
            }
            switch errno {
            case EEXIST:
                continue
            case EPERM, EMLINK, ENOTSUP, EOPNOTSUPP:
                // A file system without hard links: checking first is the best it allows.
                if FileManager.default.fileExists(atPath: target.path) { continue }
                guard rename(url.path, target.path) == 0 else { throw Failure(operation: "move aside", path: url.path, code: errno) }
                syncFolder(folder)
                return target
            default:
                throw Failure(operation: "move aside", path: url.path, code: errno)
            }
        }
        throw Failure(operation: "move aside", path: url.path, code: EEXIST)
    }

    /// `now` as "20270115T080000Z": UTC, whole seconds rounded down, a four-digit year.
    static func compactUTCStamp(_ now: Date) -> String {
        // Bounded so gmtime_r can always place it (a million years either way).
        let interval = now.timeIntervalSince1970.rounded(.down)
        var seconds = time_t(interval.isFinite ? min(max(interval, -3e13), 3e13) : 0)
        var parts = tm()
        _ = gmtime_r(&seconds, &parts)
        return cFormat("%04d%02d%02dT%02d%02d%02dZ", Int32(parts.tm_year) + 1900, parts.tm_mon + 1, parts.tm_mday,
                       parts.tm_hour, parts.tm_min, parts.tm_sec)
    }
}
