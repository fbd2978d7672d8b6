import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads every change file in the folder incrementally: per file name, which file it was (device
/// and inode) and how far it has been consumed. A file replaced under the same name (a sync
/// tool renames a fresh copy over it) or grown shorter is read again from the start; records
/// are idempotent, so reading one twice changes nothing.
struct FolderReader {
    struct Cursor {
        var identity: FolderSystemCalls.Identity
        var consumed: Int
        /// Records read from this file so far (for compaction's "many more records than keys").
        var records: Int
    }

    let folder: String
    let device: DeviceIdentifier
    private(set) var cursors: [String: Cursor] = [:]
    private var scanner = ChangeFileScanner()
    /// Keys this device has written, as seen in its own files.
    private(set) var ownKeys = Set<String>()
    private(set) var damagedRegions = 0

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
        // Sorted so a run is reproducible; the merge does not depend on the order.
        for name in present.sorted() {
            readFile(named: name, into: &records)
        }
        return records
    }

    private mutating func readFile(named name: String, into records: inout [ChangeRecord]) {
        let path = folder + "/" + name
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        guard let status = FolderSystemCalls.status(of: descriptor), status.size >= 0 else { return }
        var cursor = cursors[name] ?? Cursor(identity: status.identity, consumed: 0, records: 0)
        if cursor.identity != status.identity || status.size < cursor.consumed {
            cursor = Cursor(identity: status.identity, consumed: 0, records: 0)
        }
        guard status.size > cursor.consumed,
              let bytes = FolderSystemCalls.read(descriptor, from: cursor.consumed, count: status.size - cursor.consumed) else {
            cursors[name] = cursor
            return
        }
        let result = bytes.withUnsafeBytes { scanner.scan($0, fileOffset: cursor.consumed) }
        cursor.consumed = result.consumedTo
        cursor.records += result.records.count
        damagedRegions += result.damagedRegions
        cursors[name] = cursor
        if ChangeFileName(parsing: name)?.device == device {
            for record in result.records where record.stamp.device == device { ownKeys.insert(record.key) }
        }
        records += result.records
    }

    /// Every record of one file, read whole (compaction reads this device's generations).
    static func readWhole(path: String) -> [ChangeRecord]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard let status = FolderSystemCalls.status(of: descriptor),
              let bytes = FolderSystemCalls.read(descriptor, from: 0, count: status.size) else { return nil }
        var scanner = ChangeFileScanner()
        return bytes.withUnsafeBytes { scanner.scan($0, fileOffset: 0) }.records
    }
}
