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
/// removal. Writing applies exactly these keys to the file's current contents, so keys other
/// processes wrote meanwhile survive, and for a key both changed the last writer wins.
struct PendingChanges {
    private(set) var changes: [String: PropertyListValue?] = [:]
    /// When the first and the latest unsaved change were made (monotonic seconds).
    private(set) var firstChange: Double?
    private(set) var lastChange: Double?

    var isEmpty: Bool { changes.isEmpty }

    mutating func record(_ value: PropertyListValue?, forKey key: String, at now: Double) {
        changes[key] = .some(value)
        if firstChange == nil { firstChange = now }
        lastChange = now
    }

    /// `base` with these changes applied.
    func applied(to base: [String: PropertyListValue]) -> [String: PropertyListValue] {
        var result = base
        for (key, value) in changes {
            result[key] = value
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
        firstChange = nil
        lastChange = nil
    }
}
