import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Reads every change file in the folder incrementally: per file name, which file it was (device
/// and inode) and how far it has been consumed. A file replaced under the same name (a sync
/// tool renames a fresh copy over it) or grown shorter is read again from the start; records
/// are idempotent, so reading one twice changes nothing.
///
/// Whatever is in the folder, a read ends and its memory is bounded: only regular files are
/// opened (never a FIFO, a device, or through a link), a file larger than any device writes is
/// left unread, and the rest is read in pieces of `pieceSize`. A file in a newer format is left
/// unread and untouched. Files left unread are named in `problems`.
struct FolderReader {
    /// A change file larger than this is not one a device wrote: compaction keeps a device's
    /// files near twice its live records, and the store holds 1 MB.
    static let maximumFileSize = 64 << 20
    /// Twice the largest record, so a record that starts in a piece always ends in the next.
    static let pieceSize = 2 * (ChangeFileFormat.frameSize + ChangeFileFormat.maximumBodySize)

    struct Cursor {
        var identity: FolderSystemCalls.Identity
        var consumed: Int
        /// Records read from this file so far (for compaction's "many more records than keys").
        var records: Int
        /// A newer format: not read again while it is the same file.
        var leftAlone = false
    }

    let folder: String
    let device: DeviceIdentifier
    private(set) var cursors: [String: Cursor] = [:]
    private var scanner = ChangeFileScanner()
    /// Keys this device has written, as seen in its own files.
    private(set) var ownKeys = Set<String>()
    private(set) var damagedRegions = 0
    /// Files left unread, by name, with why; kept while the file stays as it is.
    private(set) var unreadFiles: [String: String] = [:]

    init(folder: String, device: DeviceIdentifier) {
        self.folder = folder
        self.device = device
    }

    /// Records this device's own generations hold, as far as they have been read.
    var ownRecordCount: Int {
        cursors.reduce(0) { total, entry in
            ChangeFileName(parsing: entry.key)?.device == device ? total + entry.value.records : total
        }
    }

    /// Files this device deleted itself (compacted generations): their records no longer count.
    mutating func forget(_ names: [String]) {
        for name in names { cursors[name] = nil }
    }

    /// The new records of every change file in `names`. Files that vanish or cannot be opened
    /// are skipped this time (another device compacted, a sync tool is replacing one).
    mutating func read(names: [String]) -> [ChangeRecord] {
        var records: [ChangeRecord] = []
        let present = Set(names.filter(ChangeFileName.isChangeFile))
        for name in cursors.keys where !present.contains(name) { cursors[name] = nil }
        for name in unreadFiles.keys where !present.contains(name) { unreadFiles[name] = nil }
        // Sorted so a run is reproducible; the merge does not depend on the order.
        for name in present.sorted() {
            readFile(named: name, into: &records)
        }
        return records
    }

    private mutating func readFile(named name: String, into records: inout [ChangeRecord]) {
        let path = folder + "/" + name
        guard let (descriptor, status) = FolderSystemCalls.openRegularFile(path) else {
            // Gone (compacted), being replaced, or not a file at all: nothing to read now.
            if let status = FolderSystemCalls.linkStatus(of: path), !status.isRegularFile {
                unreadFiles[name] = "not a regular file"
            }
            return
        }
        defer { close(descriptor) }
        guard status.size <= Self.maximumFileSize else {
            unreadFiles[name] = "\(status.size) bytes, more than the \(Self.maximumFileSize >> 20) MB a device writes"
            cursors[name] = nil
            return
        }
        if cursors[name]?.leftAlone != true { unreadFiles[name] = nil }
        var cursor = cursors[name] ?? Cursor(identity: status.identity, consumed: 0, records: 0)
        if cursor.identity != status.identity || status.size < cursor.consumed {
            cursor = Cursor(identity: status.identity, consumed: 0, records: 0)
        }
        guard !cursor.leftAlone else { return }
        scanner.fileName = name
        var found: [ChangeRecord] = []
        while status.size > cursor.consumed {
            let count = min(Self.pieceSize, status.size - cursor.consumed)
            let moreFollows = cursor.consumed + count < status.size
            guard let bytes = FolderSystemCalls.read(descriptor, from: cursor.consumed, count: count) else { break }
            let result = bytes.withUnsafeBytes { scanner.scan($0, fileOffset: cursor.consumed, moreFollows: moreFollows) }
            if let version = result.newerFormat {
                unreadFiles[name] = "written in format \(version), newer than this Wonderland reads; it is left as it is"
                cursor.leftAlone = true
                break
            }
            let progressed = result.consumedTo > cursor.consumed
            cursor.consumed = result.consumedTo
            cursor.records += result.records.count
            damagedRegions += result.damagedRegions
            found += result.records
            // No progress: the end of what has arrived (a record still being written).
            if !progressed || bytes.count < count { break }
        }
        cursors[name] = cursor
        if ChangeFileName(parsing: name)?.device == device {
            for record in found where record.stamp.device == device { ownKeys.insert(record.key) }
        }
        records += found
    }

    /// Why files were left unread, one line each, sorted by name.
    var problems: [String] {
        unreadFiles.keys.sorted().map { "\($0): \(unreadFiles[$0]!)" }
    }

    /// Whether the file's header names a format newer than this build's.
    static func isNewerFormat(path: String) -> Bool {
        guard let (descriptor, _) = FolderSystemCalls.openRegularFile(path) else { return false }
        defer { close(descriptor) }
        guard let header = FolderSystemCalls.read(descriptor, from: 0, count: ChangeFileFormat.header.count) else { return false }
        return header.withUnsafeBytes { ChangeFileFormat.newerVersion(in: $0) } != nil
    }

    /// Every record of one file, read whole (compaction reads this device's generations); nil
    /// when it cannot be read, or is not ours to rewrite (a newer format, too large).
    static func readWhole(path: String) -> [ChangeRecord]? {
        guard let (descriptor, status) = FolderSystemCalls.openRegularFile(path) else { return nil }
        defer { close(descriptor) }
        guard status.size <= maximumFileSize,
              let bytes = FolderSystemCalls.read(descriptor, from: 0, count: status.size) else { return nil }
        var scanner = ChangeFileScanner()
        let result = bytes.withUnsafeBytes { scanner.scan($0, fileOffset: 0) }
        return result.newerFormat == nil ? result.records : nil
    }
}
