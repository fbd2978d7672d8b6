import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// This device's newest generation, open and locked for writing. Two processes of the same
/// device (two app instances on one machine) share these files, so every write happens under
/// an exclusive `flock` on the newest generation, and creating a newer generation (compaction,
/// or moving past a torn tail) happens only while holding that lock: whoever then takes the
/// lock finds that its file is no longer the newest, or no longer there, and starts over.
final class OwnChangeFile {
    let name: ChangeFileName
    let path: String
    let descriptor: Int32
    /// How far the file is known to hold whole, valid records (checked under the lock).
    private var verifiedEnd = 0

    private init(name: ChangeFileName, path: String, descriptor: Int32) {
        self.name = name
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// The generations of `device` in `folder`, oldest first.
    static func generations(in folder: String, of device: DeviceIdentifier) throws -> [ChangeFileName] {
        try FolderSystemCalls.names(in: folder).compactMap(ChangeFileName.init(parsing:))
            .filter { $0.device == device }.sorted { $0.generation < $1.generation }
    }

    static func open(_ name: ChangeFileName, in folder: String) throws -> OwnChangeFile {
        let path = folder + "/" + name.fileName
        // O_NONBLOCK: a FIFO under this name must fail the open, not wait for a reader.
        let descriptor = Glibc.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        guard descriptor >= 0 else { throw BackendUnavailable(reason: FolderSystemCalls.reason("open", path, errno)) }
        guard FolderSystemCalls.status(of: descriptor)?.isRegularFile == true else {
            close(descriptor)
            throw BackendUnavailable(reason: "cannot write \(path): it is not a regular file")
        }
        return OwnChangeFile(name: name, path: path, descriptor: descriptor)
    }

    /// Locks the file; false (and unlocked) when it is no longer this device's newest generation
    /// under its name, so the caller must look again.
    func lockIfCurrent(folder: String) throws -> Bool {
        FolderSystemCalls.lock(descriptor, LOCK_EX)
        guard let mine = FolderSystemCalls.status(of: descriptor), mine.links > 0,
              FolderSystemCalls.status(of: path)?.identity == mine.identity,
              try Self.generations(in: folder, of: name.device).last == name else {
            unlock()
            return false
        }
        return true
    }

    func unlock() { FolderSystemCalls.lock(descriptor, LOCK_UN) }

    /// Under the lock: whether new records can go at the end, i.e. the file ends after a whole
    /// record (or is empty). A tail left torn by a writer that died must not be followed by
    /// good records, or readers would wait on it forever.
    func endsCleanly() -> Bool {
        guard let status = FolderSystemCalls.status(of: descriptor) else { return false }
        if status.size == verifiedEnd { return true }
        guard let (reader, _) = FolderSystemCalls.openRegularFile(path) else { return false }
        defer { close(reader) }
        let start = status.size > verifiedEnd ? verifiedEnd : 0
        // Too much to check is as good as a torn tail: the next generation starts clean.
        guard status.size - start <= FolderReader.maximumFileSize,
              let bytes = FolderSystemCalls.read(reader, from: start, count: status.size - start) else { return false }
        var scanner = ChangeFileScanner()
        let result = bytes.withUnsafeBytes { scanner.scan($0, fileOffset: start) }
        guard result.damagedRegions == 0, result.consumedTo == status.size else { return false }
        verifiedEnd = status.size
        return true
    }

    /// Under the lock: one write of the whole batch, then fsync.
    func write(_ records: [ChangeRecord]) throws {
        guard let status = FolderSystemCalls.status(of: descriptor) else {
            throw BackendUnavailable(reason: FolderSystemCalls.reason("stat", path, errno))
        }
        var buffer = status.size == 0 ? ChangeFileFormat.header : []
        for record in records { ChangeFileFormat.append(record, to: &buffer) }
        try FolderSystemCalls.writeAll(descriptor, buffer, path: path)
        guard fsync(descriptor) == 0 else { throw BackendUnavailable(reason: FolderSystemCalls.reason("fsync", path, errno)) }
        verifiedEnd = status.size + buffer.count
    }
}
