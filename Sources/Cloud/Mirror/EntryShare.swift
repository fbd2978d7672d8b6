import Defaults
import PropertyList

/// How much of the store a per-entry rule may take. The store's 1,024 keys and 1 MB are shared
/// by every rule and every device; a dictionary that only grows (a place per book read) would
/// fill them and leave no room for anything else, the pin included. A rule with a share keeps
/// only its newest entries in the store, by the entries' `EditStamp`; the others stay in the
/// local defaults and come back when they are newest again.
public struct EntryShare: Sendable, Equatable {
    /// Entries kept in the store at most.
    public var maximumEntries: Int
    /// Bytes of their keys and values at most (as the store counts them).
    public var maximumBytes: Int

    public init(maximumEntries: Int, maximumBytes: Int) {
        self.maximumEntries = maximumEntries
        self.maximumBytes = maximumBytes
    }

    /// The names of the entries the store should hold: the newest first, while they fit. Ties
    /// are broken by name, so every device that knows the same entries chooses the same ones.
    /// `cloudKey` gives an entry's store key, nil for one that cannot be synced at all.
    func chosen(from entries: [String: PropertyListValue], cloudKey: (String) -> String?) -> Set<String> {
        let ranked = entries.map { (name: $0.key, stamp: Self.stamp(of: $0.value)) }
            .sorted { $0.stamp != $1.stamp ? $0.stamp > $1.stamp : $0.name < $1.name }
        var kept = Set<String>()
        var bytes = 0
        for entry in ranked {
            guard kept.count < maximumEntries else { break }
            guard let key = cloudKey(entry.name), let value = entries[entry.name],
                  let payload = try? BinaryPropertyListWriter.data(from: value) else { continue }
            let size = key.utf8.count + payload.count
            // A larger entry that does not fit may leave room for a smaller, older one, but
            // skipping it would keep an older place over a newer one: the share stops here.
            guard bytes + size <= maximumBytes else { break }
            bytes += size
            kept.insert(entry.name)
        }
        return kept
    }

    /// A value without a stamp is older than any with one.
    static func stamp(of value: PropertyListValue) -> EditStamp {
        guard case .dictionary(let fields) = value else { return .zero }
        return EditStamp(fields: fields) ?? .zero
    }
}

/// What a rule with a share holds: for `wonderland cloud status` and the tab bar.
public struct EntryShareSummary: Sendable, Equatable {
    /// The defaults key the rule mirrors.
    public var localKey: String
    /// Entries known on this machine (the defaults' and the store's together).
    public var known: Int
    /// Entries in the store now.
    public var synced: Int
    public var share: EntryShare

    public init(localKey: String, known: Int, synced: Int, share: EntryShare) {
        self.localKey = localKey
        self.known = known
        self.synced = synced
        self.share = share
    }

    /// Entries that stay on this machine only.
    public var leftOut: Int { max(0, known - synced) }

    /// The summary of every rule with a share, from the defaults and the store as they are.
    public static func summaries(rules: [SyncRule], defaults: PreferenceStore, store: UbiquitousKeyValueStore) -> [EntryShareSummary] {
        let stored = store.dictionaryRepresentation
        return rules.compactMap { rule in
            guard let share = rule.share, case .perEntry(let localKey, let prefix) = rule.shape else { return nil }
            var names = Set<String>()
            if case .dictionary(let local)? = defaults.object(forKey: localKey) { names.formUnion(local.keys) }
            var synced = 0
            for key in stored.keys where key.hasPrefix(prefix) && key.count > prefix.count {
                synced += 1
                names.insert(String(key.dropFirst(prefix.count)))
            }
            return EntryShareSummary(localKey: localKey, known: names.count, synced: synced, share: share)
        }
    }
}
