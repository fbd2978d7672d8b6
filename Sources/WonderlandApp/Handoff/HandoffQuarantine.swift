import FileSafety
import FoundationEssentials
import Platform
#if canImport(Glibc)
import Glibc
#endif
import PropertyList

/// The activity being taken, on disk while it is, and the ones whose taking stopped the app:
/// an activity that crashes wonderland is offered once, never again (until a newer one comes).
/// Beside the restoration archive, in `$XDG_STATE_HOME/wonderland`.
public struct HandoffQuarantine: Sendable {
    public struct Entry: Hashable, Sendable {
        public var key: String
        public var when: Date
        public init(key: String, when: Date) {
            self.key = key
            self.when = when
        }
    }

    public let folderPath: String
    var markerPath: String { FilePaths.join(folderPath, "handoff.taking") }
    var quarantinePath: String { FilePaths.join(folderPath, "handoff.quarantine") }
    static let kept = 32
    static let limit = FileLimit(bytes: 64 * 1_024, name: "the Handoff quarantine")

    public init(folderPath: String) { self.folderPath = folderPath }

    /// Written, and on disk, before an activity is restored.
    func markTaking(_ entry: Entry) throws {
        try AtomicFile.write(try Self.encode([entry]), toPath: markerPath)
    }

    /// The activity restored without stopping the app.
    func taken() { unlink(markerPath) }

    /// At launch: an activity whose taking never finished goes into the quarantine. Returns it.
    func quarantineUnfinished() -> Entry? {
        guard let data = try? BoundedFile.read(path: markerPath, limit: Self.limit, followingLinks: false) else { return nil }
        let unfinished = Self.decode(data).first
        if let unfinished {
            let entries = (Array(entries()) + [unfinished]).suffix(Self.kept)
            try? AtomicFile.write(try Self.encode(Array(entries)), toPath: quarantinePath)
        }
        unlink(markerPath)
        return unfinished
    }

    func entries() -> Set<Entry> {
        guard let data = try? BoundedFile.read(path: quarantinePath, limit: Self.limit, followingLinks: false) else { return [] }
        return Set(Self.decode(data))
    }

    static func encode(_ entries: [Entry]) throws -> Data {
        try BinaryPropertyListWriter.data(from: .array(entries.map { .dictionary(["Key": .string($0.key), "When": .date($0.when)]) }))
    }

    static func decode(_ data: Data) -> [Entry] {
        guard case .array(let items)? = try? PropertyListReader.value(from: data, limits: .restorationState) else { return [] }
        return items.prefix(kept).compactMap { item in
            guard case .dictionary(let fields) = item, case .string(let key)? = fields["Key"], case .date(let when)? = fields["When"],
                  key.hasPrefix(HandoffSettings.storePrefix), key.utf8.count <= 64 else { return nil }
            return Entry(key: key, when: when)
        }
    }
}
