import FileSafety
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import Platform

/// The crash-loop guard for changes from elsewhere, as restoration has one for the saved place.
/// Before a change is applied (checked, decoded, merged) its identity is written to a marker
/// beside this machine's copy (`<copy>.applying-<pid>-<n>`); the marker goes when the pass is
/// done. A marker whose process is gone, found when a store opens, means that process died
/// applying that change: the change goes into quarantine (`<copy>.quarantine`), is skipped from
/// then on, and the user is told once. The rest of the changes are applied as usual.
///
/// The marker is rewritten in place for each change and never fsynced, as restoration's is
/// not: what a dying process wrote is in the page cache for the next one, and a power cut
/// while applying is no fault of the change. The quarantine list is written durably: it is the
/// only memory of a change that kills the app.
final class ApplyGuard: @unchecked Sendable {
    let quarantineFile: URL
    let marker: URL
    private let folder: URL
    private let markerPrefix: String
    private var descriptor: Int32 = -1
    private var quarantined: Set<ChangeIdentity> = []
    /// The quarantine is a short list: a peer that kills the app with every change it writes
    /// needs fixing, not a long memory.
    static let maximumQuarantined = 64
    private static let instances = Counter()

    init(copy: URL) {
        folder = copy.deletingLastPathComponent()
        markerPrefix = copy.lastPathComponent + ".applying-"
        marker = folder.appendingPathComponent("\(markerPrefix)\(getpid())-\(Self.instances.next())")
        quarantineFile = folder.appendingPathComponent(copy.lastPathComponent + ".quarantine")
        quarantined = Set(Self.readEntries(quarantineFile, limit: 64 * 1024).map(\.identity))
    }

    deinit { finished() }

    func isQuarantined(_ record: ChangeRecord) -> Bool {
        !quarantined.isEmpty && quarantined.contains(ChangeIdentity(record))
    }

    /// Markers left by processes that are gone: each names the change its process died
    /// applying. Those changes are quarantined and returned; the markers are removed.
    func recover() -> [SkippedChange] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        var found: [SkippedChange] = []
        for name in names where name.hasPrefix(markerPrefix) {
            let pidText = name.dropFirst(markerPrefix.count).prefix { $0 != "-" }
            guard let pid = Int32(pidText), !Self.isRunning(pid) else { continue }
            let path = folder.appendingPathComponent(name)
            if let entry = Self.readEntries(path, limit: 4096).first, !quarantined.contains(entry.identity) {
                found.append(SkippedChange(key: entry.identity.key, stamp: entry.identity.stamp, origin: entry.origin, reason: .stoppedTheLastLaunch))
            }
            unlink(path.path)
        }
        guard !found.isEmpty else { return [] }
        var entries = Self.readEntries(quarantineFile, limit: 64 * 1024)
        entries += found.map { Entry(identity: $0.identity, origin: $0.origin) }
        entries = Array(entries.suffix(Self.maximumQuarantined))
        quarantined = Set(entries.map(\.identity))
        try? AtomicFile.write(Data(entries.map(\.line).joined().utf8), to: quarantineFile)
        return found
    }

    /// Writes the marker naming `record`, before it is applied.
    func willApply(_ record: ChangeRecord) {
        if descriptor < 0 {
            try? AtomicFile.makeFolder(folder)
            descriptor = open(marker.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard descriptor >= 0 else { return }
        }
        // One line at the start; a longer line left from the change before may follow it, and
        // the reader takes the first line only.
        let line = Array(Entry(identity: ChangeIdentity(record), origin: record.origin).line.utf8)
        _ = line.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }

    /// The pass is over: nothing is being applied.
    func finished() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
        unlink(marker.path)
    }

    private static func isRunning(_ pid: Int32) -> Bool {
        pid > 0 && (kill(pid, 0) == 0 || errno == EPERM)
    }

    // MARK: entries

    /// "<clock> <device> <key, hex> <origin, hex>\n": hex, so no key can break the line.
    struct Entry {
        let identity: ChangeIdentity
        let origin: String?

        var line: String {
            "\(identity.stamp.clock.rawValue) \(identity.stamp.device.rawValue) \(Self.hex(identity.key)) \(Self.hex(origin ?? ""))\n"
        }

        init(identity: ChangeIdentity, origin: String?) {
            self.identity = identity
            self.origin = origin
        }

        init?(line: Substring) {
            let fields = line.split(separator: " ", omittingEmptySubsequences: false)
            guard fields.count == 4, let clock = UInt64(fields[0]), let device = DeviceIdentifier(String(fields[1])),
                  let key = Self.unhex(fields[2]), let origin = Self.unhex(fields[3]) else { return nil }
            identity = ChangeIdentity(key: key, stamp: ChangeStamp(clock: HybridTimestamp(rawValue: clock), device: device))
            self.origin = origin.isEmpty ? nil : origin
        }

        private static func hex(_ text: String) -> String {
            text.utf8.map { cFormat("%02x", $0) }.joined()
        }

        private static func unhex(_ text: Substring) -> String? {
            let digits = Array(text.utf8)
            guard digits.count % 2 == 0 else { return nil }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(digits.count / 2)
            var index = 0
            while index < digits.count {
                guard let byte = UInt8(String(decoding: digits[index ..< index + 2], as: UTF8.self), radix: 16) else { return nil }
                bytes.append(byte)
                index += 2
            }
            return String(validating: bytes, as: UTF8.self)
        }
    }

    /// The entries of a marker or quarantine file, reading at most `limit` bytes; lines that do
    /// not parse are left out.
    private static func readEntries(_ url: URL, limit: Int) -> [Entry] {
        guard let bytes = try? BoundedFile.readHead(path: url.path, count: limit, followingLinks: false) else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap(Entry.init(line:))
    }

    private final class Counter: @unchecked Sendable {
        private let lock = Lock()
        private var value = 0
        func next() -> Int { lock.withLock { value += 1; return value } }
    }
}
