import Cloud
import Foundation

/// Every change record a writer's store made, one JSON object a line:
/// `{"key": …, "payload": hex of the binary plist or null, "clock": raw clock, "device": …}`.
/// The server keeps only each key's winning row, so the reference merge of ALL writes
/// (scripts/cloud-reference-merge.py --journals) is made from the writers' journals.
/// Written with one write(2) per line, so a writer killed mid-run leaves whole lines behind.
final class Journal: @unchecked Sendable {
    private let handle: FileHandle
    private let lock = NSLock()
    /// A record is written once, whether seen after the write or when it is sent.
    private var written = Set<ChangeRecord>()

    init(path: String) throws {
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
            }
        }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
    }

    func record(_ record: ChangeRecord) {
        lock.withLock {
            guard written.insert(record).inserted else { return }
            let payload: Any = record.payload.map { $0.map { String(format: "%02x", $0) }.joined() } ?? NSNull()
            let object: [String: Any] = ["key": record.key, "payload": payload,
                                         "clock": record.stamp.clock.rawValue, "device": record.stamp.device.rawValue]
            guard var line = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
            line.append(0x0a)
            handle.write(line)
        }
    }
}

/// A backend that journals every record the store hands it before passing it on: what may have
/// reached the shared store, even when the append then failed half-way.
final class JournalingBackend: KeyValueBackend, @unchecked Sendable {
    let inner: KeyValueBackend
    let journal: Journal

    init(_ inner: KeyValueBackend, journal: Journal) {
        self.inner = inner
        self.journal = journal
    }

    var displayName: String { inner.displayName }

    func append(_ records: [ChangeRecord]) throws {
        for record in records { journal.record(record) }
        try inner.append(records)
    }

    func fetchChanges() throws -> [ChangeRecord] { try inner.fetchChanges() }
    func waitForChanges(timeout: Double) { inner.waitForChanges(timeout: timeout) }
    func wake() { inner.wake() }
    func compact(latest: MergedChanges) { inner.compact(latest: latest) }
}
