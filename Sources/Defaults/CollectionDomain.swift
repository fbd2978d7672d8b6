import SavedCollections
import FoundationEssentials
import PropertyList

/// The keys a defaults store keeps in the collections database rather than in its file: every
/// dictionary an owner declares with `mergesPerEntry` (notes, bookmarks, reading places,
/// favourites). Each entry is a row; reading one entry reads one row, and a save writes the
/// entries this process changed, settled under the database's write lock by the key's
/// `EntryMerge` against what is on disk then.
///
/// Collections are read lazily: an entry when first asked for, a whole collection only when
/// someone asks for all of it (a list, the sync mirror). This process's unsaved changes stay on
/// top of whatever other processes save meanwhile, as the file's keys do.
final class CollectionDomain {
    let database: CollectionDatabase
    private(set) var merges: [String: EntryMerge] = [:]
    /// Collections read whole, as on disk (without this process's unsaved changes).
    private var wholes: [String: [String: PropertyListValue]] = [:]
    /// Entries read one by one from collections not read whole; nil is no entry.
    private var singles: [String: [String: PropertyListValue?]] = [:]
    private var pending: [String: [String: PendingChanges.EntryChange]] = [:]
    private(set) var firstChange: Double?
    private(set) var lastChange: Double?

    init(database: CollectionDatabase) {
        self.database = database
    }

    func declares(_ key: String) -> Bool { merges[key] != nil }

    func declare(_ key: String, rule: EntryMerge) { merges[key] = rule }

    var hasUnsavedChanges: Bool { !pending.isEmpty }

    /// The entries with changes waiting for `flush()`, by key.
    var unsavedEntries: [String: Set<String>] { pending.mapValues { Set($0.keys) } }

    // MARK: Reading

    /// The whole collection with this process's changes on top; nil when it has no entry.
    func value(forKey key: String) -> PropertyListValue? {
        var entries = saved(key)
        for (name, change) in pending[key] ?? [:] { entries[name] = change.mine }
        return entries.isEmpty ? nil : .dictionary(entries)
    }

    func value(forKey key: String, entry name: String) -> PropertyListValue? {
        if let change = pending[key]?[name] { return change.mine }
        return savedEntry(name, key)
    }

    private func saved(_ key: String) -> [String: PropertyListValue] {
        if let whole = wholes[key] { return whole }
        let whole = (try? database.entries(in: key)) ?? [:]
        wholes[key] = whole
        singles[key] = nil
        return whole
    }

    private func savedEntry(_ name: String, _ key: String) -> PropertyListValue? {
        if let whole = wholes[key] { return whole[name] }
        if let known = singles[key]?[name] { return known }
        let value = try? database.entry(name, in: key)
        singles[key, default: [:]][name] = .some(value)
        return value
    }

    // MARK: Changing

    /// Records the whole collection's new value as the entries that differ; true when any did.
    @discardableResult
    func set(_ value: PropertyListValue?, forKey key: String, at now: Double) -> Bool {
        let after: [String: PropertyListValue]
        switch value {
        case nil: after = [:]
        case .dictionary(let entries)?: after = entries
        default: return false  // a collection is a dictionary; anything else is refused
        }
        var before: [String: PropertyListValue] = [:]
        if case .dictionary(let entries)? = self.value(forKey: key) { before = entries }
        var changed = false
        for name in Set(before.keys).union(after.keys) where before[name] != after[name] {
            changed = record(after[name], forKey: key, entry: name, at: now) || changed
        }
        return changed
    }

    /// Records one entry's new value; true when it differs from what this process knew.
    @discardableResult
    func record(_ value: PropertyListValue?, forKey key: String, entry name: String, at now: Double) -> Bool {
        let current = self.value(forKey: key, entry: name)
        guard current != value else { return false }
        let base = pending[key]?[name].map(\.base) ?? savedEntry(name, key)
        pending[key, default: [:]][name] = PendingChanges.EntryChange(base: base, mine: value)
        if firstChange == nil { firstChange = now }
        lastChange = now
        return true
    }

    /// Writes every unsaved entry, one transaction per collection, each settled against the
    /// disk by its key's merge. Returns the keys whose value came out other than this process
    /// had it (another process's change merged in). A failure keeps what is still unsaved.
    func flush() throws -> Set<String> {
        var merged: Set<String> = []
        for key in pending.keys.sorted() {
            guard let changes = pending[key], let rule = merges[key] else { continue }
            let stored = try database.save(in: key, names: changes.keys.sorted()) { name, theirs in
                let change = changes[name]!
                return rule.settle(base: change.base, mine: change.mine, theirs: theirs)
            }
            pending[key] = nil
            for (name, value) in stored {
                remember(value, name, key)
                if value != changes[name]?.mine { merged.insert(key) }
            }
        }
        firstChange = nil
        lastChange = nil
        return merged
    }

    /// After a failed save: try again once `now` has settled like a fresh change.
    func postpone(to now: Double) {
        guard hasUnsavedChanges else { return }
        firstChange = now
        lastChange = now
    }

    private func remember(_ value: PropertyListValue?, _ name: String, _ key: String) {
        if wholes[key] != nil {
            wholes[key]![name] = value
        } else {
            singles[key, default: [:]][name] = .some(value)
        }
    }

    // MARK: Other processes

    /// Takes what other processes saved since the last look; returns the declared keys whose
    /// value, as this process sees it, changed. Unsaved entries here stay on top.
    func takeOthersChanges() -> Set<String> {
        guard database.othersSaved(), let changes = try? database.changesSinceLastLook() else { return [] }
        var keys: Set<String> = []
        for change in changes where declares(change.collection) {
            let key = change.collection, name = change.name
            let known: PropertyListValue??
            if let whole = wholes[key] { known = .some(whole[name]) } else { known = singles[key]?[name] }
            // An entry nobody here has read is not news to anyone here.
            guard let known, known != change.value else { continue }
            remember(change.value, name, key)
            if pending[key]?[name] == nil { keys.insert(key) }
        }
        return keys
    }

    // MARK: Moving in

    /// Moves a collection the defaults file held (written by an older version, or imported)
    /// into the database: each entry the file changed since it was last moved is settled
    /// against the database's by the key's merge, as a save from another process would be, and
    /// then read back and compared. Only then may the caller remove the key from the file.
    /// Returns the keys' entries that changed.
    func moveIn(_ entries: [String: PropertyListValue], forKey key: String, changedAt: Double) throws -> [String: PropertyListValue?] {
        guard let rule = merges[key], !entries.isEmpty else { return [:] }
        let copy = rule.olderReleaseCopy
        let stored = try database.moveIn(entries, into: key) { _, base, mine, theirs in
            guard let copy else { return rule.settle(base: base, mine: mine, theirs: theirs) }
            // The copy of what the database holds (another process of this release wrote it
            // and has yet to remember it): nothing changed.
            if let theirs, copy.down(theirs) == mine { return theirs }
            // An entry of the copy an older release changed, in that release's shape.
            guard let changed = copy.up(mine, changedAt) else { return theirs }
            // The database unchanged since the copy the older release was shown: its edit stands,
            // as the same edit made here would (a note's other versions, shown under it there,
            // are settled by it).
            if let theirs, let base, copy.down(theirs) == base { return changed }
            let before = base.flatMap { copy.up($0, 0) }
            return rule.settle(base: before, mine: changed, theirs: theirs)
        }
        for (name, value) in stored {
            guard try database.entry(name, in: key) == value else {
                throw MoveInFailure(key: key, entry: name)
            }
            remember(value, name, key)
        }
        return stored
    }

    /// The database's salt for the copies' marks; 0 when it cannot be had (every mark then
    /// differs from what another store wrote, and the copy moves in again: harmless).
    var salt: UInt64 { (try? database.salt()) ?? 0 }

    /// Whether the collection has any entry.
    func hasEntries(_ key: String) -> Bool {
        if case .dictionary(let entries)? = value(forKey: key) { return !entries.isEmpty }
        return false
    }

    /// Whether the key keeps a copy in the file for releases before the database.
    func keepsCopy(_ key: String) -> Bool { merges[key]?.olderReleaseCopy != nil }

    /// The copy of `key` for older releases: its entries in their shape, the most recently
    /// saved first while they fit `OlderReleaseCopy.maximumBytes`; nil when it keeps none.
    func copyForOlderReleases(_ key: String) -> [String: PropertyListValue]? {
        guard let copy = merges[key]?.olderReleaseCopy else { return nil }
        guard case .dictionary(let entries)? = value(forKey: key) else { return [:] }
        let recent = (try? database.namesNewestFirst(in: key)) ?? []
        let unsaved = entries.keys.filter { pending[key]?[$0] != nil }.sorted()
        var seen = Set<String>()
        var result: [String: PropertyListValue] = [:]
        var bytes = 0
        for name in unsaved + recent + entries.keys.sorted() where seen.insert(name).inserted {
            guard let value = entries[name], let older = copy.down(value),
                  let size = try? BinaryPropertyListWriter.data(from: older).count else { continue }
            guard result.count < OlderReleaseCopy.maximumEntries else { break }
            guard bytes + size + name.utf8.count <= OlderReleaseCopy.maximumBytes else { continue }
            bytes += size + name.utf8.count
            result[name] = older
        }
        return result
    }

    /// One entry as the copy for older releases holds it; nil when there is none (or the key
    /// keeps no copy).
    func olderReleaseValue(_ key: String, entry name: String) -> PropertyListValue? {
        guard let copy = merges[key]?.olderReleaseCopy, let value = value(forKey: key, entry: name) else { return nil }
        return copy.down(value)
    }

    /// The copy is in the file: only what changes there from now on is moved in.
    func rememberCopy(_ entries: [String: PropertyListValue], of key: String) throws {
        try database.rememberCopy(entries, of: key)
    }

    /// The file no longer holds `key`: what was moved from it need not be remembered.
    func forgetMovedIn(_ key: String) {
        try? database.forgetMovedIn(key)
    }

    struct MoveInFailure: Error, CustomStringConvertible {
        let key: String
        let entry: String
        var description: String { "the entry \(entry) of \(key) did not read back as it was written" }
    }
}

/// A save of the collections that did not reach the database: what the user is told names
/// notes, bookmarks and places, not the settings.
public struct CollectionsSaveFailure: Error, CustomStringConvertible {
    public let path: String
    public let reason: String
    public var description: String { "cannot save \(path): \(reason)" }
}
