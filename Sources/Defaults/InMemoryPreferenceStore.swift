import PropertyList

/// A `PreferenceStore` that keeps everything in memory and saves nothing: a registration domain
/// and a values domain, with change notifications. For tests, previews and anything that needs a
/// store without files.
public final class InMemoryPreferenceStore: PreferenceStore {
    /// The registration domain: defaults, never saved.
    public private(set) var registration: [String: PropertyListValue]
    /// The values domain: what `set` writes (the persistent domain of a real store).
    public private(set) var values: [String: PropertyListValue]
    /// Every `set` call, in order: lets a test check what was written, and how often.
    public private(set) var writes: [(key: String, value: PropertyListValue?)] = []
    /// How many times `saveNow()` was called, with the number of writes made before each: lets
    /// a test check that a change was saved at once, before anything else happened.
    public private(set) var saves: [Int] = []

    private var observers: [Int: (Set<String>) -> Void] = [:]
    private var nextObserverID = 0

    public init(values: [String: PropertyListValue] = [:], registration: [String: PropertyListValue] = [:]) {
        self.values = values
        self.registration = registration
    }

    public func object(forKey key: String) -> PropertyListValue? {
        values[key] ?? registration[key]
    }

    public func set(_ value: PropertyListValue?, forKey key: String) {
        writes.append((key, value))
        change { $0.values[key] = value }
    }

    public func saveNow() throws { saves.append(writes.count) }

    public func register(defaults: [String: PropertyListValue]) {
        change { store in store.registration.merge(defaults) { _, new in new } }
    }

    public func addChangeObserver(_ handler: @escaping (Set<String>) -> Void) -> PreferenceObservation {
        let id = nextObserverID
        nextObserverID += 1
        observers[id] = handler
        return PreferenceObservation { [weak self] in self?.observers[id] = nil }
    }

    /// How many observers are subscribed (a test can check that a screen let go of its token).
    public var observerCount: Int { observers.count }

    /// Applies values as another process would have written them (nil removes a key), then
    /// notifies observers of the keys whose merged value changed — what a real store does when
    /// it notices its file changed.
    public func simulateExternalChange(_ changes: [String: PropertyListValue?]) {
        change { store in
            for (key, value) in changes { store.values[key] = value }
        }
    }

    /// Removes every value and registration, notifying the keys that changed.
    public func reset() {
        change { store in
            store.values = [:]
            store.registration = [:]
        }
    }

    private func change(_ body: (InMemoryPreferenceStore) -> Void) {
        let before = merged
        body(self)
        let after = merged
        let keys = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }
        guard !keys.isEmpty else { return }
        // Observers may add or cancel observers while being told; tell the ones there now.
        for id in observers.keys.sorted() {
            observers[id]?(keys)
        }
    }

    private var merged: [String: PropertyListValue] {
        registration.merging(values) { _, value in value }
    }
}
