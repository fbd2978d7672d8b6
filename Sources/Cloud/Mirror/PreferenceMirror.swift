import Defaults
import PropertyList

/// Keeps chosen defaults keys and the synced store in step, as Pigeon's iOS app does with
/// NSUserDefaults and NSUbiquitousKeyValueStore: a local change is written to both; a change
/// from another device is copied into the defaults at once, so screens follow it through their
/// defaults observers; the defaults always hold the latest known values, so the app works the
/// same offline.
///
/// Each rule has a toggle in the defaults, read live: turning one on opens the store if needed
/// and reconciles that rule's keys (the store wins where it has a record, a value or a removal;
/// elsewhere the local value is pushed); turning the last one off closes the store, as Pigeon sets
/// `cloudStore = nil`. A per-entry rule with a share (`EntryShare`) keeps only its newest
/// entries in the store and evicts the others, so the store never fills and whole keys (the
/// pin) always find room. Every key is written by itself: one refused never holds back the
/// others. Used on the app's thread only.
public final class PreferenceMirror {
    public typealias StoreOpener = () -> UbiquitousKeyValueStore

    public let rules: [SyncRule]
    private let defaults: PreferenceStore
    private let openStore: StoreOpener
    /// The open store; nil while every toggle is off.
    public private(set) var store: UbiquitousKeyValueStore?
    /// Rules whose toggle is on.
    public private(set) var enabledRules: [SyncRule] = []
    /// After Ctrl-Z: the store stays open but its worker is stopped.
    public private(set) var isSuspended = false

    private var defaultsObservation: PreferenceObservation?
    private var storeObservation: PreferenceObservation?
    /// Rules whose keys the store has no record of yet wait for its first sync before the local
    /// value is pushed: pushing earlier would let a stale local value overwrite, by being the
    /// newest write, what the other devices hold.
    private var awaitingFirstSync: [SyncRule] = []
    /// The last dictionary seen per per-entry rule: a local removal is an entry that was there.
    private var entrySnapshots: [String: [String: PropertyListValue]] = [:]
    /// Set while the mirror writes into the defaults, so its own writes are not sent back.
    private var writingDefaults = false
    private var notices: [MirrorNotice] = []
    private var toldAboutQuota = false
    private var toldAboutLongKeys = Set<String>()
    private var summaries: [EntryShareSummary]?
    private let maximumKeyBytes: Int
    /// False leaves syncing to whoever calls the store's `synchronize()` (deterministic tests).
    private let startsWorker: Bool
    /// Toggles of the store's other users (Handoff): they keep the store open without a rule.
    public var alsoOpenedBy: [String] = []
    /// Called with the store just before it is closed, while a last write still gets sent.
    public var willClose: ((UbiquitousKeyValueStore) -> Void)?

    public init(defaults: PreferenceStore, rules: [SyncRule], maximumKeyBytes: Int = KeyValueStoreLimits.apple.maximumKeyBytes,
                startsWorker: Bool = true, openStore: @escaping StoreOpener) {
        self.defaults = defaults
        self.rules = rules
        self.openStore = openStore
        self.maximumKeyBytes = maximumKeyBytes
        self.startsWorker = startsWorker
    }

    /// Starts following the defaults: opens the store now if a toggle is on.
    public func activate() {
        guard defaultsObservation == nil else { return }
        defaultsObservation = defaults.addChangeObserver { [weak self] keys in self?.defaultsChanged(keys) }
        applyToggles()
    }

    /// Stops following the defaults and closes the store (sending what is queued).
    public func deactivate() {
        defaultsObservation = nil
        closeStore()
        enabledRules = []
    }

    // MARK: the store's life

    /// Ctrl-Z: sends what is queued and stops the worker; the store stays open.
    public func suspend() {
        isSuspended = true
        store?.stop()
    }

    /// `fg`: the worker runs again and fetches what changed meanwhile.
    public func resume() {
        isSuspended = false
        if startsWorker { store?.start() }
    }

    /// The store's backend changed (another folder): closes the store and opens it again, and
    /// reconciles every rule against the new one.
    public func reopen() {
        closeStore()
        enabledRules = []
        applyToggles()
    }

    private func closeStore() {
        if let store { willClose?(store) }
        storeObservation = nil
        store?.stop()
        if let store { notices += store.takeWarnings().map(MirrorNotice.storeWarning) }
        store = nil
        awaitingFirstSync = []
        toldAboutQuota = false
    }

    private func openStoreIfNeeded() -> UbiquitousKeyValueStore {
        if let store { return store }
        let opened = openStore()
        // Observe before the first sync, or a change arriving during it could be missed.
        storeObservation = opened.addObserver { [weak self] change in self?.storeChanged(change) }
        store = opened
        notices += opened.takeWarnings().map(MirrorNotice.storeWarning)
        if !isSuspended, startsWorker { opened.start() }
        return opened
    }

    private func isOn(_ rule: SyncRule) -> Bool {
        defaults.object(forKey: rule.enabledBy).flatMap(DefaultsConversion.bool) ?? false
    }

    /// Reads the toggles: opens or closes the store, and reconciles rules that just turned on.
    private func applyToggles() {
        summaries = nil
        let now = rules.filter(isOn)
        let turnedOn = now.filter { !enabledRules.contains($0) }
        enabledRules = now
        awaitingFirstSync.removeAll { !now.contains($0) }
        let otherUserOn = alsoOpenedBy.contains { defaults.object(forKey: $0).flatMap(DefaultsConversion.bool) ?? false }
        guard !now.isEmpty || otherUserOn else {
            closeStore()
            return
        }
        let store = openStoreIfNeeded()
        for rule in turnedOn { reconcile(rule, with: store) }
    }

    // MARK: news from the store

    /// Delivers the store's queued changes (call on wake-ups and idle moments, on the app's
    /// thread); the defaults, and through them the screens, follow. True when anything changed.
    @discardableResult
    public func processExternalChanges() -> Bool {
        guard let store else { return false }
        let changes = store.processExternalChanges()
        if !awaitingFirstSync.isEmpty, store.status.lastSync != nil {
            let waiting = awaitingFirstSync
            awaitingFirstSync = []
            for rule in waiting { reconcile(rule, with: store) }
        }
        notices += store.takeWarnings().map(MirrorNotice.storeWarning)
        return !changes.isEmpty
    }

    /// How much of their share the rules with one hold, for the status lines; counted again
    /// only after a change, as the app asks at every idle moment.
    public func shareSummaries() -> [EntryShareSummary] {
        guard let store else { return [] }
        if let summaries { return summaries }
        let counted = EntryShareSummary.summaries(rules: enabledRules, defaults: defaults, store: store)
        summaries = counted
        return counted
    }

    /// What to tell the user, each once.
    public func takeNotices() -> [MirrorNotice] {
        defer { notices = [] }
        return notices
    }

    private func storeChanged(_ change: KeyValueStoreChange) {
        summaries = nil
        guard let store else { return }
        switch change.reason {
        case .serverChange, .initialSyncChange:
            for rule in enabledRules {
                let names = change.changedKeys.compactMap { rule.entryName(forCloudKey: $0) }
                guard !names.isEmpty else { continue }
                copyToDefaults(rule, entries: names.compactMap { $0 }, from: store)
            }
        case .accountChange:
            // Another backend: its values are the ones to have; what it lacks is pushed.
            for rule in enabledRules { reconcile(rule, with: store) }
        case .quotaViolationChange:
            reportQuota(change.refusal.map { "\($0)" } ?? "the store is full")
        }
    }

    // MARK: reconciling

    /// Per key: a record in the store (value or removal) wins; a key the store never saw gets
    /// the local value, once the store has synced.
    private func reconcile(_ rule: SyncRule, with store: UbiquitousKeyValueStore) {
        let synced = store.status.lastSync != nil
        var pushLater = false
        switch rule.shape {
        case .wholeKey(let key):
            if store.record(forKey: key) != nil {
                let local = defaults.object(forKey: key)
                if rule.keepsLocal(local, over: storedValue(key, rule, in: store), storedAt: storedAt(key, in: store)) {
                    if synced { write([key: local], to: store) } else { pushLater = true }
                } else if writeDefaults(storedValue(key, rule, in: store), forKey: key) {
                    saveDefaults()
                }
            } else if let local = defaults.object(forKey: key) {
                if synced { write([key: local], to: store) } else { pushLater = true }
            }
        case .perEntry(let localKey, let prefix) where rule.share != nil:
            let merged = mergedEntries(rule, localKey: localKey, prefix: prefix, from: store)
            if writeDefaults(.dictionary(merged), forKey: localKey, emptyMeansRemoved: true) { saveDefaults() }
            entrySnapshots[localKey] = merged
            if synced { fitShare(rule, entries: merged, in: store) } else { pushLater = true }
        case .perEntry(let localKey, let prefix):
            let local = localDictionary(localKey)
            var merged = local
            var toPush: [String: PropertyListValue?] = [:]
            for (name, value) in storedEntries(prefix, rule, in: store) {
                let cloudKey = prefix + name
                if !rule.keepsLocal(local[name], over: value, storedAt: storedAt(cloudKey, in: store)) { merged[name] = value }
            }
            for (name, value) in local {
                guard let cloudKey = cloudKey(prefix, name) else { continue }
                if let record = store.record(forKey: cloudKey) {
                    if record.payload == nil { merged[name] = nil }
                    if rule.keepsLocal(value, over: storedValue(cloudKey, rule, in: store), storedAt: storedAt(cloudKey, in: store)) {
                        if synced { toPush[cloudKey] = value } else { pushLater = true }
                    }
                } else if synced {
                    toPush[cloudKey] = value
                } else {
                    pushLater = true
                }
            }
            if writeDefaults(.dictionary(merged), forKey: localKey, emptyMeansRemoved: true) { saveDefaults() }
            entrySnapshots[localKey] = merged
            if !toPush.isEmpty { write(toPush, to: store) }
        }
        if pushLater, !awaitingFirstSync.contains(rule) { awaitingFirstSync.append(rule) }
    }

    /// Copies the store's current values for the changed keys into the defaults. The store's
    /// value now is used, not the one in the notice: a newer change may already be merged.
    /// A local value newer than the store's (by the rule's stamps) stays, and is sent again.
    /// What is copied is written to disk at once: the user sees the other device's value, and a
    /// crash right after must not bring back the older one.
    private func copyToDefaults(_ rule: SyncRule, entries names: [String], from store: UbiquitousKeyValueStore) {
        var changed = false
        switch rule.shape {
        case .wholeKey(let key):
            let local = defaults.object(forKey: key)
            if rule.keepsLocal(local, over: storedValue(key, rule, in: store), storedAt: storedAt(key, in: store)) {
                write([key: local], to: store)
            } else {
                changed = writeDefaults(storedValue(key, rule, in: store), forKey: key)
            }
        case .perEntry(let localKey, let prefix):
            var dictionary = localDictionary(localKey)
            var toPush: [String: PropertyListValue?] = [:]
            for name in names {
                let stored = storedValue(prefix + name, rule, in: store)
                // Evicted from the store by a device that had newer entries: kept here.
                if stored == nil, rule.share != nil { continue }
                if rule.keepsLocal(dictionary[name], over: stored, storedAt: storedAt(prefix + name, in: store)) {
                    toPush[prefix + name] = dictionary[name]
                } else {
                    dictionary[name] = stored
                }
            }
            changed = writeDefaults(.dictionary(dictionary), forKey: localKey, emptyMeansRemoved: true)
            entrySnapshots[localKey] = dictionary
            if rule.share != nil {
                // Another device's entry may push one out, or one evicted there may be among
                // the newest here.
                fitShare(rule, entries: dictionary, in: store)
            } else if !toPush.isEmpty {
                write(toPush, to: store)
            }
        }
        if changed { saveDefaults() }
    }

    /// When the store's record of `key` was written, by the store's clock: the time of a value
    /// from a release that stamped none.
    private func storedAt(_ key: String, in store: UbiquitousKeyValueStore) -> Double? {
        guard let clock = store.record(forKey: key)?.stamp.clock, clock != .zero, HybridLogicalClock.isHonest(clock) else { return nil }
        return Double(clock.milliseconds) / 1000
    }

    private func saveDefaults() {
        do { try defaults.saveNow() } catch { notices.append(.storeWarning("A change from another device could not be saved here yet: \(error)")) }
    }

    // MARK: local changes

    private func defaultsChanged(_ keys: Set<String>) {
        if rules.contains(where: { $0.share != nil && keys.contains($0.localKey) }) { summaries = nil }
        guard !writingDefaults else { return }
        if rules.contains(where: { keys.contains($0.enabledBy) }) || alsoOpenedBy.contains(where: keys.contains) { applyToggles() }
        guard let store else { return }
        for rule in enabledRules where keys.contains(rule.localKey) { push(rule, to: store) }
    }

    /// Writes a local change to the store, skipping values the store already has, so a value
    /// that came from the store is not sent back.
    private func push(_ rule: SyncRule, to store: UbiquitousKeyValueStore) {
        switch rule.shape {
        case .wholeKey(let key):
            let local = defaults.object(forKey: key)
            let stored = storedValue(key, rule, in: store)
            if rule.keepsStored(stored, storedAt: storedAt(key, in: store), over: local) {
                // An older value written here (a restored copy): the store's newer one stands.
                if writeDefaults(stored, forKey: key) { saveDefaults() }
            } else if stored != local {
                write([key: local], to: store)
            }
        case .perEntry(let localKey, let prefix) where rule.share != nil:
            pushShared(rule, localKey: localKey, prefix: prefix, to: store)
        case .perEntry(let localKey, let prefix):
            var now = localDictionary(localKey)
            let before = entrySnapshots[localKey] ?? [:]
            var changes: [String: PropertyListValue?] = [:]
            var overruled = false
            for (name, value) in now {
                guard let cloudKey = cloudKey(prefix, name) else { continue }
                let stored = storedValue(cloudKey, rule, in: store)
                if rule.keepsStored(stored, storedAt: storedAt(cloudKey, in: store), over: value) {
                    now[name] = stored
                    overruled = true
                } else if stored != value {
                    changes[cloudKey] = value
                }
            }
            entrySnapshots[localKey] = now
            if overruled, writeDefaults(.dictionary(now), forKey: localKey) { saveDefaults() }
            // Only entries that were here and went: an entry the store has and the defaults do
            // not may be another device's news, not yet copied over.
            for name in before.keys where now[name] == nil {
                guard let cloudKey = cloudKey(prefix, name), store.object(forKey: cloudKey) != nil else { continue }
                changes[cloudKey] = .some(nil)
            }
            if !changes.isEmpty { write(changes, to: store) }
        }
    }

    /// Writes each key by itself; a refusal is told once. A whole key refused for room gets
    /// the room the shares hold beyond their newest entries, and is tried again.
    private func write(_ changes: [String: PropertyListValue?], to store: UbiquitousKeyValueStore) {
        summaries = nil
        var changes = changes
        for (key, value) in changes {
            guard let value = value else { continue }
            if let written = inStoredForm(value, forKey: key, in: store) { changes[key] = written } else { changes[key] = nil }
        }
        guard !changes.isEmpty else { return }
        var refusals = store.setEach(changes)
        let forRoom = refusals.compactMap { key, refusal -> String? in
            switch refusal {
            case .tooManyKeys, .tooLarge: return isSharedKey(key) ? nil : key
            default: return nil
            }
        }
        if !forRoom.isEmpty, makeRoom(in: store) {
            let again = store.setEach(changes.filter { forRoom.contains($0.key) })
            for key in forRoom { refusals[key] = again[key] }
        }
        if let first = refusals.min(by: { $0.key < $1.key }) { reportQuota("\(first.value)") }
    }

    // MARK: shares

    /// The local entries with the store's newer ones (by the rule's stamps) taken in. A
    /// removal in the store takes nothing away: for a rule with a share it is an eviction.
    private func mergedEntries(_ rule: SyncRule, localKey: String, prefix: String, from store: UbiquitousKeyValueStore) -> [String: PropertyListValue] {
        var merged = localDictionary(localKey)
        for (name, value) in storedEntries(prefix, rule, in: store) where !rule.keepsLocal(merged[name], over: value, storedAt: storedAt(prefix + name, in: store)) {
            merged[name] = value
        }
        return merged
    }

    private func storedEntries(_ prefix: String, _ rule: SyncRule, in store: UbiquitousKeyValueStore) -> [String: PropertyListValue] {
        var entries: [String: PropertyListValue] = [:]
        for key in store.dictionaryRepresentation.keys where key.hasPrefix(prefix) && key.count > prefix.count {
            if let value = storedValue(key, rule, in: store) { entries[String(key.dropFirst(prefix.count))] = value }
        }
        return entries
    }

    /// The store's value for `key` as this release reads it: one written by a release that
    /// stamped none is stamped with the store's record of it (when and by which device it was
    /// written), so it is ordered against stamped values and followed when it is the newer.
    private func storedValue(_ key: String, _ rule: SyncRule, in store: UbiquitousKeyValueStore) -> PropertyListValue? {
        guard let raw = store.object(forKey: key) else { return nil }
        guard let form = rule.unstamped, form.holds(raw), let record = store.record(forKey: key),
              record.stamp.clock != .zero, HybridLogicalClock.isHonest(record.stamp.clock) else { return raw }
        let stamp = EditStamp(time: Double(record.stamp.clock.milliseconds) / 1000, device: record.stamp.device.rawValue)
        return form.stamped(raw, stamp) ?? raw
    }

    /// A value to write under `key`, in the form the store holds there: where a release that
    /// stamps nothing wrote the key, it is written without its stamp, so that release reads it;
    /// nil when the store already holds it.
    private func inStoredForm(_ value: PropertyListValue, forKey key: String, in store: UbiquitousKeyValueStore) -> PropertyListValue? {
        guard let raw = store.object(forKey: key) else { return value }
        guard let rule = rules.first(where: { $0.entryName(forCloudKey: key) != nil }), let form = rule.unstamped, form.holds(raw) else {
            return raw == value ? nil : value
        }
        if storedValue(key, rule, in: store) == value { return nil }
        let older = form.withoutStamp(value)
        return older == raw ? nil : older
    }

    /// A local change to a rule with a share. Only the entries that changed are looked at: a
    /// page turn in a book whose place the store holds only makes that place newer, so it stays
    /// among the newest and is written alone; anything else ranks the entries again.
    private func pushShared(_ rule: SyncRule, localKey: String, prefix: String, to store: UbiquitousKeyValueStore) {
        var now = localDictionary(localKey)
        let before = entrySnapshots[localKey] ?? [:]
        var changed: [String: PropertyListValue] = [:]
        var overruled = false
        for (name, value) in now where before[name] != value {
            guard let cloudKey = cloudKey(prefix, name) else { continue }
            if let stored = storedValue(cloudKey, rule, in: store), rule.keepsStored(stored, storedAt: storedAt(cloudKey, in: store), over: value) {
                // An older value written here (a restored copy): the store's newer one stands.
                now[name] = stored
                overruled = true
            } else {
                changed[name] = value
            }
        }
        entrySnapshots[localKey] = now
        if overruled, writeDefaults(.dictionary(now), forKey: localKey) { saveDefaults() }
        var removed: [String: PropertyListValue?] = [:]
        for name in before.keys where now[name] == nil {
            guard let cloudKey = cloudKey(prefix, name), store.object(forKey: cloudKey) != nil else { continue }
            removed[cloudKey] = .some(nil)
        }
        let staysAmongTheNewest = removed.isEmpty && changed.allSatisfy { name, value in
            guard let stored = storedValue(prefix + name, rule, in: store) else { return false }
            return EntryShare.stamp(of: value) >= SyncRule.stamp(of: stored, writtenAt: storedAt(prefix + name, in: store))
        }
        if staysAmongTheNewest {
            var writes: [String: PropertyListValue?] = [:]
            for (name, value) in changed where storedValue(prefix + name, rule, in: store) != value { writes[prefix + name] = value }
            if !writes.isEmpty { write(writes, to: store) }
        } else {
            fitShare(rule, entries: now, in: store, pushing: removed, leavingOut: Set(removed.keys))
        }
    }

    /// Brings the store to the newest entries that fit the rule's share: those it lacks, or
    /// holds older, are written; the others it holds are evicted (removed from the store, kept
    /// in the defaults). `entries` are this machine's; the store's own count in the ranking
    /// too, so every device chooses the same. Names in `leavingOut` were removed here.
    private func fitShare(_ rule: SyncRule, entries: [String: PropertyListValue], in store: UbiquitousKeyValueStore,
                          pushing extra: [String: PropertyListValue?] = [:], leavingOut removedKeys: Set<String> = []) {
        guard let share = rule.share, case .perEntry(_, let prefix) = rule.shape else { return }
        let stored = storedEntries(prefix, rule, in: store)
        var candidates = entries
        for (name, value) in stored where candidates[name] == nil && !removedKeys.contains(prefix + name) { candidates[name] = value }
        let chosen = share.chosen(from: candidates) { self.cloudKey(prefix, $0) }
        var changes = extra
        // The callers have settled which copy stands where both differ: `entries` holds it.
        for name in chosen where stored[name] != candidates[name] { changes[prefix + name] = candidates[name] }
        for name in stored.keys where !chosen.contains(name) { changes[prefix + name] = .some(nil) }
        if !changes.isEmpty { write(changes, to: store) }
    }

    /// Evicts what every share holds beyond its newest entries; true when anything went.
    private func makeRoom(in store: UbiquitousKeyValueStore) -> Bool {
        let before = store.dictionaryRepresentation.count
        for rule in enabledRules where rule.share != nil {
            guard case .perEntry(let localKey, let prefix) = rule.shape else { continue }
            fitShare(rule, entries: mergedEntries(rule, localKey: localKey, prefix: prefix, from: store), in: store)
        }
        return store.dictionaryRepresentation.count < before
    }

    private func isSharedKey(_ key: String) -> Bool {
        enabledRules.contains { rule in
            guard rule.share != nil, case .perEntry(_, let prefix) = rule.shape else { return false }
            return key.hasPrefix(prefix)
        }
    }

    // MARK: helpers

    private func reportQuota(_ why: String) {
        guard !toldAboutQuota else { return }
        toldAboutQuota = true
        notices.append(.quotaViolation(why))
    }

    /// The store key for an entry; nil (and the user told once) when it would be too long.
    private func cloudKey(_ prefix: String, _ name: String) -> String? {
        let key = prefix + name
        guard key.utf8.count <= maximumKeyBytes else {
            if toldAboutLongKeys.insert(prefix).inserted {
                notices.append(.entryNotSynced("\"\(name.prefix(24))\" is not synced: its key would be \(key.utf8.count) bytes; the store allows \(maximumKeyBytes)."))
            }
            return nil
        }
        return key
    }

    private func localDictionary(_ key: String) -> [String: PropertyListValue] {
        if case .dictionary(let values)? = defaults.object(forKey: key) { return values }
        return [:]
    }

    /// True when the defaults changed.
    @discardableResult
    private func writeDefaults(_ value: PropertyListValue?, forKey key: String, emptyMeansRemoved: Bool = false) -> Bool {
        var value = value
        if emptyMeansRemoved, case .dictionary(let entries)? = value, entries.isEmpty, defaults.object(forKey: key) == nil { value = nil }
        guard defaults.object(forKey: key) != value else { return false }
        writingDefaults = true
        defer { writingDefaults = false }
        defaults.set(value, forKey: key)
        return true
    }
}
