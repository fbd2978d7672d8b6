import FileSafety
import PropertyList
import FoundationEssentials
import Platform
import TextSafety
#if canImport(Glibc)
import Glibc
#endif

/// The restoration archive and its companions in `$XDG_STATE_HOME/wonderland`: the archive,
/// the crash marker (present while a restore is under way) and a log of why restores did or
/// did not happen, which `wonderland state show` prints.
public struct RestorationFiles: Sendable {
    // Paths are kept as strings, and URLs made only when asked for: a launch reads and writes
    // these files before its first frame, and a URL's first use costs more than the reads.
    /// The path of the folder holding the archive, the marker and the log.
    public let folderPath: String
    /// The saved tree's path.
    public var archivePath: String { FilePaths.join(folderPath, "restoration.archive") }
    /// The marker's path: present while a restore runs, found at launch it means the last
    /// restore crashed.
    public var markerPath: String { FilePaths.join(folderPath, "restoration.restoring") }
    /// The log's path: why each restore and save did what it did, stamped, newest last.
    public var logPath: String { FilePaths.join(folderPath, "restoration.log") }
    /// Where `state reset` keeps the archive it replaces, so one reset can be undone by hand.
    public var previousPath: String { FilePaths.join(folderPath, "restoration.archive.previous") }

    /// The folder holding the archive, the marker and the log.
    public var folder: URL { URL(fileURLWithPath: folderPath, isDirectory: true) }
    /// The saved tree.
    public var archive: URL { URL(fileURLWithPath: archivePath) }
    /// Present while a restore runs.
    public var marker: URL { URL(fileURLWithPath: markerPath) }
    /// The log of restores and saves.
    public var log: URL { URL(fileURLWithPath: logPath) }
    /// The archive `state reset` replaced.
    public var previous: URL { URL(fileURLWithPath: previousPath) }

    /// The files in `folder` (made when first written, 0700).
    public init(folder: URL) { self.init(folderPath: folder.path) }

    /// The files in the folder at `folderPath` (made when first written, 0700).
    public init(folderPath: String) { self.folderPath = folderPath }

    /// `$XDG_STATE_HOME/wonderland`, or `~/.local/state/wonderland`.
    public static func standard(environment: [String: String]) -> RestorationFiles {
        RestorationFiles(folderPath: FilePaths.join(UserFolders(environment: environment).stateHome, "wonderland"))
    }

    /// Writes the archive atomically (a crash leaves the old one or the new one, never half of
    /// each), creating the folder when needed.
    ///
    /// - Throws: ``ArchiveTooLarge`` for an archive over its read limit, which the next launch
    ///   would only move aside; an `AtomicFile.Failure` when the file system refuses.
    public func writeArchive(_ data: Data) throws {
        let limit = FileLimit.restorationArchive
        guard data.count <= limit.bytes else {
            throw ArchiveTooLarge(size: data.count, limit: limit)
        }
        try AtomicFile.write(data, toPath: archivePath)
    }

    /// An archive bigger than the reader would accept, refused before it is written.
    public struct ArchiveTooLarge: Error, CustomStringConvertible {
        /// The archive's size in bytes.
        public let size: Int
        /// The limit it went over.
        public let limit: FileLimit
        /// Both sizes in words, for a message.
        public var description: String {
            "the saved place would take \(ByteCountText.describe(Int64(size))), more than the \(ByteCountText.describe(Int64(limit.bytes))) allowed for \(limit.name)"
        }
    }

    /// The saved archive, or nil when there is none. Anything but a regular file within
    /// `FileLimit.restorationArchive` is refused unread.
    public func readArchive() throws(BoundedFile.Failure) -> Data? {
        do { return try BoundedFile.read(path: archivePath, limit: .restorationArchive) } catch {
            if case .missing = error { return nil }
            throw error
        }
    }

    /// Moves an archive that cannot be read to `restoration.archive.corrupt-<time>`.
    @discardableResult
    public func moveArchiveAside(now: Date = Date()) throws -> URL {
        try AtomicFile.moveAside(archive, label: "corrupt", now: now)
    }

    /// Moves an archive a newer version of the app wrote to `restoration.archive.newer-<time>`,
    /// byte for byte (a rename), where no save of this version will replace it.
    @discardableResult
    public func moveNewerArchiveAside(now: Date = Date()) throws -> URL {
        try AtomicFile.moveAside(archive, label: "newer", now: now)
    }

    // MARK: archives kept for another version

    static let keptPrefix = "restoration.archive.for-"

    /// Where the archive of `version` is kept when this one could not read it whole: beside
    /// this version's, for that version to take back (`version` made safe first).
    public func keptArchivePath(forVersion version: String) -> String? {
        ArchiveVersions.safe(version).map { FilePaths.join(folderPath, Self.keptPrefix + $0) }
    }

    /// The versions an archive is kept for.
    public func keptVersions() -> [String] {
        guard let names = folderNames(folderPath, limit: 4_096) else { return [] }
        return names.filter { $0.hasPrefix(Self.keptPrefix) }.compactMap { ArchiveVersions.safe(String($0.dropFirst(Self.keptPrefix.count))) }.sorted()
    }

    /// Renames the archive to the place kept for `version`, byte for byte, replacing an older
    /// archive kept there (that version's own, older save).
    public func keepArchive(forVersion version: String) throws {
        guard let path = keptArchivePath(forVersion: version) else { throw KeptArchiveError(version: version) }
        guard rename(archivePath, path) == 0 else {
            if errno == ENOENT { return }  // nothing saved to keep
            throw KeptArchiveError(version: version, reason: String(cString: strerror(errno)))
        }
        AtomicFile.syncFolder(atPath: folderPath)
    }

    /// The archive kept for `version`, or nil when there is none.
    public func readKeptArchive(forVersion version: String) throws(BoundedFile.Failure) -> Data? {
        guard let path = keptArchivePath(forVersion: version) else { return nil }
        do { return try BoundedFile.read(path: path, limit: .restorationArchive) } catch {
            if case .missing = error { return nil }
            throw error
        }
    }

    /// Removes the archive kept for `version`, once it is restored and saved again as the archive.
    public func removeKeptArchive(forVersion version: String) {
        if let path = keptArchivePath(forVersion: version) { unlink(path) }
    }

    /// The archive could not be kept for another version: no file may be named after what
    /// it calls its version, or the rename failed.
    public struct KeptArchiveError: Error, CustomStringConvertible {
        /// The version named in the archive.
        public let version: String
        /// Why it was not kept.
        public var reason = "not a version a file can be named after"
        /// Both, for the log.
        public var description: String { "could not keep the archive of \(version): \(reason)" }
    }

    /// Removes what interrupted writes of the archive, marker or log left (see
    /// `AtomicFile.removeStaleTemporaries`); returns the names removed.
    @discardableResult
    public func removeStaleTemporaries() -> [String] { AtomicFile.removeStaleTemporaries(inFolder: folderPath) }

    /// Whether a restore was under way when the last process ended.
    public var hasMarker: Bool { access(markerPath, F_OK) == 0 }

    // Time stamps are the property lists' own ISO 8601 arithmetic (the same text as
    // Date.ISO8601FormatStyle): the format style's first use instantiates its generic machinery,
    // about 5% of the main thread's work before the first frame; ISO8601DateFormatter loads
    // time-zone data besides.
    /// A moment as ISO 8601 text in UTC, as the log and the launch summary write it.
    public static func stamp(_ date: Date) -> String { ISO8601Date.format(date) ?? date.formatted(.iso8601) }

    /// Not fsynced: the marker guards against a process that dies while restoring, and what
    /// a process wrote before dying is in the page cache for the next one. A power loss during
    /// a restore only costs one restore attempt.
    public func writeMarker(now: Date = Date()) throws {
        try AtomicFile.write(Data("restoring since \(Self.stamp(now)), pid \(getpid())\n".utf8), toPath: markerPath, durable: false)
    }

    /// Removes the marker once restoring is over.
    public func removeMarker() { unlink(markerPath) }

    /// Appends lines to the log, each stamped, with one O_APPEND write (no fsync: a log line is
    /// not worth milliseconds of every launch). Past about 64 KB the oldest half is dropped.
    /// Lines quote archives and errors, so each is bounded and made visible first: a 1 MB
    /// class name stays one short line, and a line break or escape in it cannot forge another
    /// entry or reach the terminal of whoever reads the log.
    public func appendLog(_ lines: [String], now: Date = Date()) {
        guard !lines.isEmpty, (try? AtomicFile.makeFolder(atPath: folderPath)) != nil else { return }
        let stamp = Self.stamp(now)
        var entry = ""
        for line in lines { entry += "\(stamp) \(SafeText.visible(SafeText.bounded(line, to: SafeText.lineLimit)))\n" }
        var size = stat()
        if stat(logPath, &size) == 0, size.st_size > 64 * 1024 {
            // A log too big to read (or not a file at all) is started again rather than kept.
            let text = (try? BoundedFile.read(path: logPath, limit: .restorationLog)).map { String(decoding: $0, as: UTF8.self) } ?? ""
            let kept = text.split(separator: "\n", omittingEmptySubsequences: false)
            try? AtomicFile.write(Data((kept.suffix(kept.count / 2).joined(separator: "\n") + entry).utf8), toPath: logPath, durable: false)
            return
        }
        // Non-blocking: a FIFO in the log's place with no reader fails at once instead of
        // hanging the launch; anything but a regular file is not written to.
        let fd = open(logPath, O_WRONLY | O_APPEND | O_CREAT | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, FileKind(mode: status.st_mode) == .regular else { return }
        var bytes = entry
        bytes.withUTF8 { buffer in _ = Glibc.write(fd, buffer.baseAddress, buffer.count) }
    }

    /// The log's lines; none when there is no log. One that cannot be read (too big, not a
    /// file) gives one line saying why, so `state show` does not hide it.
    public func readLog() -> [String] {
        do {
            return String(decoding: try BoundedFile.read(path: logPath, limit: .restorationLog), as: UTF8.self)
                .split(separator: "\n").map(String.init)
        } catch {
            if case .missing = error { return [] }
            return ["(the log could not be read: \(error.reason))"]
        }
    }

    /// Moves the archive to `previous` (replacing an older one) so the next launch starts
    /// fresh. Returns false when there was nothing to reset.
    public func reset() throws -> Bool {
        removeMarker()
        guard access(archivePath, F_OK) == 0 else { return false }
        guard rename(archivePath, previousPath) == 0 else {
            throw AtomicFile.Failure(operation: "reset", path: archivePath, code: errno)
        }
        AtomicFile.syncFolder(atPath: folderPath)
        return true
    }
}
