import PropertyList

/// What a screen needs from a defaults store: the merged value of a key, a way to write one,
/// and word of changes, whether made here or by another process. `DefaultsStore` is the real
/// one; tests may use any other.
public protocol PreferenceStore: AnyObject {
    /// The value from the first domain that has the key (argument, persistent, registration);
    /// nil when no domain has it.
    func object(forKey key: String) -> PropertyListValue?
    /// Writes to the persistent domain; nil removes the key there.
    func set(_ value: PropertyListValue?, forKey key: String)
    /// Adds defaults to the registration domain, which is never saved.
    func register(defaults: [String: PropertyListValue])
    /// Calls `handler` with the keys whose merged value changed, after local writes and after
    /// external ones are noticed. The handler stays subscribed while the token lives.
    func addChangeObserver(_ handler: @escaping (Set<String>) -> Void) -> PreferenceObservation
    /// Declares `key` a dictionary that several processes edit entry by entry: each entry this
    /// process changes is saved by itself, and `rule` settles an entry two processes changed.
    func mergesPerEntry(_ key: String, rule: EntryMerge)
    /// Writes what is unsaved to disk before returning (a store with no file does nothing).
    func saveNow() throws
    /// One entry of a dictionary-valued key: a store that keeps such keys entry by entry reads
    /// only that entry.
    func object(forKey key: String, entry name: String) -> PropertyListValue?
    /// Sets one entry of a dictionary-valued key (nil removes it): a store that keeps such keys
    /// entry by entry saves only that entry.
    func set(_ value: PropertyListValue?, forKey key: String, entry name: String)
}

extension PreferenceStore {
    /// A store that only one process uses has nothing to merge.
    public func mergesPerEntry(_ key: String, rule: EntryMerge) {}
    public func saveNow() throws {}

    public func object(forKey key: String, entry name: String) -> PropertyListValue? {
        guard case .dictionary(let entries)? = object(forKey: key) else { return nil }
        return entries[name]
    }

    public func set(_ value: PropertyListValue?, forKey key: String, entry name: String) {
        var entries: [String: PropertyListValue] = [:]
        if case .dictionary(let current)? = object(forKey: key) { entries = current }
        guard entries[name] != value else { return }
        entries[name] = value
        set(entries.isEmpty ? nil : .dictionary(entries), forKey: key)
    }
}

/// Keeps a change handler subscribed; cancelled when released.
public final class PreferenceObservation {
    private var cancelHandler: (() -> Void)?
    public init(cancel: @escaping () -> Void) { cancelHandler = cancel }
    public func cancel() {
        cancelHandler?()
        cancelHandler = nil
    }
    deinit { cancel() }
}
