import PropertyList

/// The three domains a lookup searches, in order, and the per-key bookkeeping that lets a
/// process merge its own changes into whatever other processes wrote meanwhile.
struct DefaultsDomains {
    /// `-Key value` pairs from the command line: this run only, never written.
    var argument: [String: PropertyListValue] = [:]
    /// The app's own values: the file as last read, with this process's unsaved changes on top.
    var persistent: [String: PropertyListValue] = [:]
    /// `register(defaults:)`: fallbacks, never written.
    var registration: [String: PropertyListValue] = [:]

    func value(forKey key: String) -> PropertyListValue? {
        argument[key] ?? persistent[key] ?? registration[key]
    }

    /// Every key any domain has, with its winning value.
    var merged: [String: PropertyListValue] {
        var result = registration
        result.merge(persistent) { _, new in new }
        result.merge(argument) { _, new in new }
        return result
    }

    /// The keys whose winning value differs between two states.
    static func changedKeys(from old: DefaultsDomains, to new: DefaultsDomains, among keys: Set<String>? = nil) -> Set<String> {
        let candidates = keys ?? Set(old.argument.keys).union(old.persistent.keys).union(old.registration.keys)
            .union(new.argument.keys).union(new.persistent.keys).union(new.registration.keys)
        return candidates.filter { old.value(forKey: $0) != new.value(forKey: $0) }
    }
}

/// This process's changes to the persistent domain not yet written: per key, the new value or a
/// removal; for keys saved entry by entry (`EntryMerge`), per entry. Writing applies exactly
/// these to the file's current contents, so keys and entries other processes wrote meanwhile
/// survive; for a key both changed the last writer wins, for an entry the key's merge decides.
struct PendingChanges {
    /// One entry's change: what it was when this process changed it, and what it is now.
    struct EntryChange: Equatable {
        var base: PropertyListValue?
        var mine: PropertyListValue?
    }

    private(set) var changes: [String: PropertyListValue?] = [:]
    private(set) var entryChanges: [String: [String: EntryChange]] = [:]
    /// When the first and the latest unsaved change were made (monotonic seconds).
    private(set) var firstChange: Double?
    private(set) var lastChange: Double?

    var isEmpty: Bool { changes.isEmpty && entryChanges.isEmpty }

    mutating func record(_ value: PropertyListValue?, forKey key: String, at now: Double) {
        changes[key] = .some(value)
        entryChanges[key] = nil
        noteChange(at: now)
    }

    /// Records the entries that differ between `old` and `new` (the key's dictionary before and
    /// after); an entry changed twice keeps its first base. False when the change cannot be
    /// taken entry by entry (a value that is not a dictionary, or a whole-key change pending).
    mutating func recordEntries(from old: PropertyListValue?, to new: PropertyListValue?, forKey key: String, at now: Double) -> Bool {
        guard changes[key] == nil, let before = Self.entries(old), let after = Self.entries(new) else { return false }
        var pending = entryChanges[key] ?? [:]
        for name in Set(before.keys).union(after.keys) where before[name] != after[name] {
            pending[name] = EntryChange(base: pending[name].map(\.base) ?? before[name], mine: after[name])
        }
        if !pending.isEmpty { entryChanges[key] = pending }
        noteChange(at: now)
        return true
    }

    /// A dictionary's entries, no value as none; nil for anything else.
    private static func entries(_ value: PropertyListValue?) -> [String: PropertyListValue]? {
        switch value {
        case nil: return [:]
        case .dictionary(let entries)?: return entries
        default: return nil
        }
    }

    private mutating func noteChange(at now: Double) {
        if firstChange == nil { firstChange = now }
        lastChange = now
    }

    /// `base` with these changes applied; entries settled by their key's merge.
    func applied(to base: [String: PropertyListValue], merges: [String: EntryMerge] = [:]) -> [String: PropertyListValue] {
        var result = base
        for (key, value) in changes {
            result[key] = value
        }
        for (key, entries) in entryChanges {
            var dictionary: [String: PropertyListValue] = [:]
            if case .dictionary(let current)? = result[key] { dictionary = current }
            let merge = merges[key] ?? .lastWriterWins
            for (name, change) in entries {
                dictionary[name] = merge.settle(base: change.base, mine: change.mine, theirs: dictionary[name])
            }
            result[key] = dictionary.isEmpty ? nil : .dictionary(dictionary)
        }
        return result
    }

    /// After a failed write: try again once `now` has settled like a fresh change.
    mutating func postpone(to now: Double) {
        firstChange = now
        lastChange = now
    }

    mutating func removeAll() {
        changes = [:]
        entryChanges = [:]
        firstChange = nil
        lastChange = nil
    }
}
