import SavedCollections
import FileSafety
import FoundationEssentials
import Platform
import PropertyList
#if canImport(Glibc)
import Glibc
#endif

/// Wonderland's defaults: NSUserDefaults' model on a property-list file that several processes
/// share.
///
/// Lookups search the argument domain (`-Key value` on the command line), then the persistent
/// domain (saved in `defaults.plist`), then the registration domain (`register(defaults:)`).
/// Writes go to the persistent domain and are saved a little later, coalesced, or at once by
/// `flush()`. Saving merges per key under a file lock, so other processes' keys survive — and,
/// for dictionaries declared with `mergesPerEntry`, per entry of the dictionary; their
/// changes are noticed by `processExternalChanges()` and reported to change observers.
///
/// Single-threaded by design: the app's loop calls `processExternalChanges()` and
/// `flushIfDue(now:)` when it wakes, and observers run synchronously on that thread.
public final class DefaultsStore: PreferenceStore {
    /// Beside a collection's copy for older releases, the key of its marks (`OlderReleaseCopies`).
    public static let copyMarksPrefix = OlderReleaseCopies.marksPrefix

    /// The keys of the file that are copies of collections for older releases, and their marks.
    public static func copiesForOlderReleases(in domain: [String: PropertyListValue]) -> Set<String> {
        let marks = domain.keys.filter { $0.hasPrefix(copyMarksPrefix) && $0.count > copyMarksPrefix.count }
        return Set(marks + marks.map { String($0.dropFirst(copyMarksPrefix.count)) })
    }

    /// The key the file names the version that last saved it under (`Options.writtenBy`).
    public static let writtenByKey = "WLWrittenBy"

    public struct Options {
        /// How long changes must have settled before `flushIfDue` writes them.
        public var coalescingDelay: Double
        /// Changes that keep coming are still written at least this often.
        public var maximumDelay: Double
        /// Watch the file for other processes' writes (inotify, or polling without it).
        public var watchesForChanges: Bool
        /// False forces the polling fallback (for tests, or file systems inotify cannot see).
        public var usesInotify: Bool
        /// Where inotify cannot see every write (a network file system, no inotify), compare the
        /// file's stamp at least this often.
        public var safetyPollInterval: Double
        /// Monotonic seconds; tests may substitute their own.
        public var clock: () -> Double
        /// Replaces the file with the given bytes; tests may substitute a disk that fails.
        public var writeFile: (Data, URL) throws -> Void
        /// Where the keys declared with `mergesPerEntry` are kept, one row per entry (see
        /// `CollectionDomain`); nil keeps them in the file, as stores other than the app's do.
        /// Opened at the first declaration, so a store nobody declares a collection in never
        /// touches it.
        public var collectionsPath: String?
        /// The app's version, written into the file (`WLWrittenBy`) with each save that changes
        /// it, and into the collections database: which version saved them last. Nil writes none.
        public var writtenBy: String?

        public init(
            coalescingDelay: Double = 0.3, maximumDelay: Double = 2, watchesForChanges: Bool = true,
            usesInotify: Bool = true, safetyPollInterval: Double = 2, clock: @escaping () -> Double = DefaultsStore.monotonicNow,
            writeFile: @escaping (Data, URL) throws -> Void = { try AtomicFile.write($0, to: $1) },
            collectionsPath: String? = nil
        ) {
            self.collectionsPath = collectionsPath
            self.coalescingDelay = coalescingDelay
            self.maximumDelay = maximumDelay
            self.watchesForChanges = watchesForChanges
            self.usesInotify = usesInotify
            self.safetyPollInterval = safetyPollInterval
            self.clock = clock
            self.writeFile = writeFile
        }
    }

    /// The defaults file's path.
    public let filePath: String
    /// The defaults file.
    public var fileURL: URL { URL(fileURLWithPath: filePath) }
    private let file: DefaultsFile
    private let options: Options
    private var domains = DefaultsDomains()
    private var pending = PendingChanges()
    /// The file version the persistent domain was last read from or written as.
    private var knownStamp: DefaultsFile.Stamp?
    private var watcher: DefaultsWatcher?
    private var lastStampCheck: Double
    /// Set when the file turned out corrupt while running: the next write restores every key
    /// this process knows, so the moved-aside file loses nothing.
    private var needsFullRewrite = false
    private var warnings: [String] = []
    /// The failure of the last save, while saves fail: the same one is not reported again.
    private var lastWriteError: WriteFailure?
    private var observers: [Int: (Set<String>) -> Void] = [:]
    private var nextObserverID = 0
    /// Keys saved entry by entry, and how each settles an entry two processes changed.
    private var entryMerges: [String: EntryMerge] = [:]
    /// The collections database, once a collection is declared; nil before, or when it cannot
    /// be used (the collections then stay in the file).
    private var collections: CollectionDomain?
    private var collectionsUnavailable = false

    /// A store on `fileURL`. `argumentDomain` is usually `ArgumentDomain.split(…).domain`.
    public convenience init(fileURL: URL, argumentDomain: [String: PropertyListValue] = [:], options: Options = Options()) {
        self.init(filePath: fileURL.path, argumentDomain: argumentDomain, options: options)
    }

    /// A store on the file at `filePath`.
    public init(filePath: String, argumentDomain: [String: PropertyListValue] = [:], options: Options = Options()) {
        self.filePath = filePath
        self.file = DefaultsFile(path: filePath, writeFile: options.writeFile)
        self.options = options
        self.lastStampCheck = options.clock()
        domains.argument = argumentDomain
        if options.watchesForChanges {
            try? file.makeFolder()
            watcher = DefaultsWatcher(folder: file.folderPath, useInotify: options.usesInotify)
        }
        // A writer killed between creating its temporary file and renaming it leaves the file
        // behind; without this, a crash loop would fill the folder.
        _ = AtomicFile.removeStaleTemporaries(inFolder: file.folderPath)
        do {
            domains.persistent = try readFile().values
        } catch {
            warnings.append("The settings in \(filePath) could not be read (\(error)); the settings start from their defaults.")
        }
    }

    /// The store at `$XDG_CONFIG_HOME/wonderland/defaults.plist` (default `~/.config/…`).
    public static func standard(
        environment: [String: String], argumentDomain: [String: PropertyListValue] = [:], options: Options = Options()
    ) -> DefaultsStore {
        DefaultsStore(filePath: standardFilePath(environment: environment), argumentDomain: argumentDomain, options: options)
    }

    /// Where the app keeps its collections: `$XDG_DATA_HOME/wonderland/collections/collections.sqlite`.
    public static func standardCollectionsPath(environment: [String: String]) -> String {
        CollectionDatabase.standardPath(environment: environment)
    }

    /// `$XDG_CONFIG_HOME/wonderland/defaults.plist` (default `~/.config/…`).
    public static func standardFilePath(environment: [String: String]) -> String {
        FilePaths.join(FilePaths.join(UserFolders(environment: environment).configHome, "wonderland"), "defaults.plist")
    }

    /// The same file as a URL.
    public static func standardFileURL(environment: [String: String]) -> URL {
        URL(fileURLWithPath: standardFilePath(environment: environment))
    }

    public static func monotonicNow() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    deinit {
        try? flush()
    }

    // MARK: PreferenceStore

    public func object(forKey key: String) -> PropertyListValue? {
        if let collections, collections.declares(key) {
            return domains.argument[key] ?? collections.value(forKey: key) ?? domains.registration[key]
        }
        return domains.value(forKey: key)
    }

    public func object(forKey key: String, entry name: String) -> PropertyListValue? {
        if let collections, collections.declares(key), domains.argument[key] == nil {
            return collections.value(forKey: key, entry: name) ?? Self.entry(name, of: domains.registration[key])
        }
        return Self.entry(name, of: object(forKey: key))
    }

    private static func entry(_ name: String, of value: PropertyListValue?) -> PropertyListValue? {
        guard case .dictionary(let entries)? = value else { return nil }
        return entries[name]
    }

    public func set(_ value: PropertyListValue?, forKey key: String, entry name: String) {
        if let collections, collections.declares(key) {
            if collections.record(value, forKey: key, entry: name, at: options.clock()) { notify([key]) }
            return
        }
        var entries: [String: PropertyListValue] = [:]
        if case .dictionary(let current)? = domains.persistent[key] { entries = current }
        guard entries[name] != value else { return }
        entries[name] = value
        set(entries.isEmpty ? nil : .dictionary(entries), forKey: key)
    }

    /// A value the defaults file cannot hold (see `DefaultsStorability`) is not set: the user is
    /// told through `takeStartupWarnings()`, and every other setting still saves.
    public func set(_ value: PropertyListValue?, forKey key: String) {
        if let value, let refusal = DefaultsStorability.refusal(forKey: key, value: value) {
            warnings.append(refusal)
            return
        }
        if let collections, collections.declares(key) {
            if collections.set(value, forKey: key, at: options.clock()) { notify([key]) }
            return
        }
        let old = domains.value(forKey: key)
        let now = options.clock()
        if entryMerges[key] == nil || !pending.recordEntries(from: domains.persistent[key], to: value, forKey: key, at: now) {
            pending.record(value, forKey: key, at: now)
        }
        domains.persistent[key] = value
        if old != domains.value(forKey: key) { notify([key]) }
    }

    public func mergesPerEntry(_ key: String, rule: EntryMerge) {
        entryMerges[key] = rule
        guard let collections = openCollections() else { return }
        collections.declare(key, rule: rule)
        moveCollectionsIn(keys: [key])
    }

    private func openCollections() -> CollectionDomain? {
        if let collections { return collections }
        guard let path = options.collectionsPath, !collectionsUnavailable else { return nil }
        do {
            let database = try CollectionDatabase(path: path, writtenBy: options.writtenBy)
            warnings += database.takeWarnings()
            watcher?.watchAlso(folder: FilePaths.parent(of: path))
            collections = CollectionDomain(database: database)
        } catch {
            collectionsUnavailable = true
            warnings.append("Notes, bookmarks and reading places are kept in \(filePath) for this run: \(error).")
        }
        return collections
    }

    /// Collections the file holds (an older version wrote them, or `defaults import` did) move
    /// into the database, and leave the file only once they read back from it. A collection
    /// with a copy for older releases keeps it there: what they changed in it is moved in, and
    /// the copy is written again from the database.
    private func moveCollectionsIn(keys: Set<String>) {
        guard let collections else { return }
        var moved: Set<String> = []
        // When the file was written: asked for only when something moves in (not at every
        // declaration of a launch).
        lazy var changedAt = file.stamp().map { Double($0.modified.tv_sec) + Double($0.modified.tv_nsec) / 1e9 } ?? Date().timeIntervalSince1970
        for key in keys.sorted() where collections.declares(key) {
            let keepsCopy = collections.keepsCopy(key)
            guard let value = domains.persistent[key] else {
                if keepsCopy { copies.scheduleWhole(key, now: options.clock()) } else { collections.forgetMovedIn(key) }
                continue
            }
            guard case .dictionary(var entries) = value else { continue }
            if keepsCopy {
                // Only what another program changed in the copy; the rest is this release's.
                let marks = domains.persistent[OlderReleaseCopies.marksKey(key)]
                // No marks: an older release wrote the key from scratch, without the copy.
                if marks == nil { copies.scheduleWhole(key, now: options.clock()) }
                // An entry gone from the copy is never a deletion here: it is copied again.
                if case .dictionary(let marked)? = marks {
                    copies.schedule(Set(marked.keys).subtracting(entries.keys), of: key, now: options.clock())
                }
                entries = OlderReleaseCopies.changedByOthers(entries, marks: marks, salt: collections.salt)
                if entries.isEmpty { continue }
            }
            do {
                let changed = try collections.moveIn(entries, forKey: key, changedAt: changedAt)
                if !changed.isEmpty { moved.insert(key) }
            } catch {
                warnings.append("\(key) could not be moved from \(filePath) into \(collections.database.path) (\(error)); it stays in \(filePath) and is tried again at the next launch.")
                continue
            }
            if keepsCopy {
                // Written again, marked as this release's.
                copies.schedule(Set(entries.keys), of: key, now: options.clock())
            } else {
                domains.persistent[key] = nil
                pending.record(nil, forKey: key, at: options.clock())
            }
        }
        notify(moved)
    }

    /// The copies for older releases due in the file (`OlderReleaseCopies`).
    private lazy var copies = OlderReleaseCopies(now: options.clock())

    /// Puts the copies for older releases that are due into this process's changes to the
    /// file, entry by entry, each with its mark; returns them, to be remembered once the file
    /// is written.
    private func stageCopies(whole: Set<String>, entries due: [String: Set<String>]) -> [String: [String: PropertyListValue]] {
        guard let collections else { return [:] }
        var staged: [String: [String: PropertyListValue]] = [:]
        for key in whole.union(due.keys).sorted() where collections.keepsCopy(key) {
            let marksKey = OlderReleaseCopies.marksKey(key)
            var copy = Self.entries(of: domains.persistent[key]), marks = Self.entries(of: domains.persistent[marksKey])
            if whole.contains(key) {
                guard let full = collections.copyForOlderReleases(key) else { continue }
                copy = full
                let salt = collections.salt
                marks = full.mapValues { OlderReleaseCopies.mark($0, salt: salt) }
            } else {
                var size: Int?
                let salt = collections.salt
                for name in (due[key] ?? []).sorted() {
                    guard let older = collections.olderReleaseValue(key, entry: name) else {
                        copy[name] = nil
                        marks[name] = nil
                        continue
                    }
                    if copy[name] == nil {
                        // A new entry joins while the copy has room; the whole copy is chosen
                        // again at the next launch that finds none.
                        guard copy.count < OlderReleaseCopy.maximumEntries else { continue }
                        let now = size ?? OlderReleaseCopies.size(copy)
                        let grown = now + OlderReleaseCopies.size([name: older])
                        guard grown <= OlderReleaseCopy.maximumBytes else { continue }
                        size = grown
                    }
                    copy[name] = older
                    marks[name] = OlderReleaseCopies.mark(older, salt: salt)
                }
            }
            // A copy once made stays in the file, empty or not; a whole one only for a
            // collection that has entries (a new user's file gets no empty copies).
            let keepingEmpty = whole.contains(key) ? collections.hasEntries(key) : domains.persistent[key] != nil
            stage(copy, forKey: key, keepingEmpty: keepingEmpty)
            stage(marks, forKey: marksKey, keepingEmpty: keepingEmpty)
            staged[key] = copy
        }
        return staged
    }

    private static func entries(of value: PropertyListValue?) -> [String: PropertyListValue] {
        if case .dictionary(let entries)? = value { return entries }
        return [:]
    }

    /// `keepingEmpty`: an empty copy of a collection that has entries (none fits) is written
    /// as an empty dictionary, so the next launch knows the copy is made and does not make it again.
    private func stage(_ entries: [String: PropertyListValue], forKey key: String, keepingEmpty: Bool = false) {
        let before = domains.persistent[key]
        let after: PropertyListValue? = entries.isEmpty && !keepingEmpty ? nil : .dictionary(entries)
        guard before != after else { return }
        // An empty copy has no entries to record one by one: the key itself is written.
        if after == .dictionary([:]) || !pending.recordEntries(from: before, to: after, forKey: key, at: options.clock()) {
            pending.record(after, forKey: key, at: options.clock())
        }
        domains.persistent[key] = after
    }

    /// The merges the file is written with: a copy for older releases takes, entry by entry,
    /// what an older release wrote there meanwhile, so it is moved in at the next look rather
    /// than written over.
    private var fileMerges: [String: EntryMerge] {
        var merges = entryMerges
        guard let collections else { return merges }
        for key in entryMerges.keys where collections.keepsCopy(key) {
            merges[key] = EntryMerge { _, _, theirs in theirs }
            merges[OlderReleaseCopies.marksKey(key)] = EntryMerge { _, _, theirs in theirs }
        }
        return merges
    }

    /// Writes this process's changes now, durably (see `flush()`): for what the user is told
    /// is saved the moment it is.
    public func saveNow() throws {
        try flush(writingCopies: false)
    }

    public func register(defaults: [String: PropertyListValue]) {
        let old = domains
        domains.registration.merge(defaults) { _, new in new }
        notify(DefaultsDomains.changedKeys(from: old, to: domains, among: Set(defaults.keys)))
    }

    public func addChangeObserver(_ handler: @escaping (Set<String>) -> Void) -> PreferenceObservation {
        let id = nextObserverID
        nextObserverID += 1
        observers[id] = handler
        return PreferenceObservation { [weak self] in self?.observers[id] = nil }
    }

    // MARK: Domains

    public func removeObject(forKey key: String) {
        set(nil, forKey: key)
    }

    /// Every key any domain has, with the value a lookup would give.
    public func dictionaryRepresentation() -> [String: PropertyListValue] {
        domains.merged
    }

    /// The saved domain alone, with this process's unsaved changes.
    public var persistentDomain: [String: PropertyListValue] { domains.persistent }
    public var argumentDomain: [String: PropertyListValue] { domains.argument }
    public var registeredDefaults: [String: PropertyListValue] { domains.registration }

    /// Replaces the whole persistent domain (keys not in `values` are removed). Values the
    /// file cannot hold are left out, as `set` leaves them out.
    public func setPersistentDomain(_ values: [String: PropertyListValue]) {
        let (values, problems) = DefaultsStorability.partition(values)
        warnings += problems.map(DefaultsStorability.refusal(for:))
        let old = domains
        let now = options.clock()
        for key in Set(domains.persistent.keys).union(values.keys) {
            domains.persistent[key] = values[key]
            pending.record(values[key], forKey: key, at: now)
        }
        notify(DefaultsDomains.changedKeys(from: old, to: domains))
    }

    public var hasUnsavedChanges: Bool {
        !pending.isEmpty || needsFullRewrite || collections?.hasUnsavedChanges == true || copies.isDue
    }

    /// When the first and the latest unsaved change were made, in the file or the collections.
    private var firstChange: Double? { [pending.firstChange, collections?.firstChange].compactMap { $0 }.min() }
    private var lastChange: Double? { [pending.lastChange, collections?.lastChange].compactMap { $0 }.max() }
    /// Nothing to write but copies for older releases.
    private var onlyCopiesDue: Bool { pending.isEmpty && !needsFullRewrite && collections?.hasUnsavedChanges != true && copies.isDue }

    /// Problems to tell the user about once: a corrupt file moved aside at start-up, or later a
    /// write that failed. Returns each message once.
    public func takeStartupWarnings() -> [String] {
        if let collections { warnings += collections.database.takeWarnings() }
        defer { warnings = [] }
        return warnings
    }

    // MARK: Run loop

    /// The inotify descriptor, readable when the folder changed; nil when polling.
    public var wakeupFileDescriptor: Int32? {
        guard let watcher, watcher.isWatching else { return nil }
        return watcher.descriptor
    }

    /// When `processExternalChanges()` or `flushIfDue()` next have work though the watcher's
    /// descriptor stays quiet: unsaved changes settling, or, where inotify cannot see every
    /// write (no inotify, a network file system, a folder that went away), the next look at the
    /// file. Nil when nothing is due: the app's loop may then sleep until something happens.
    public var nextDeadline: Double? {
        var due: Double?
        if onlyCopiesDue {
            due = copies.deadline(coalescingDelay: options.coalescingDelay)
        } else if hasUnsavedChanges {
            let last = lastChange ?? lastStampCheck
            if lastWriteError != nil {
                due = last + options.maximumDelay  // a failing disk is tried again, not hammered
            } else {
                due = min(last + options.coalescingDelay, (firstChange ?? last) + options.maximumDelay)
            }
        }
        if let watcher, !watcher.seesEveryChange {
            let look = lastStampCheck + options.safetyPollInterval
            due = min(due ?? look, look)
        }
        return due
    }

    /// Non-blocking: drains the watcher, and if the file is not the version this store last
    /// read or wrote, reloads it under the lock and notifies observers of the keys whose merged
    /// value changed. This process's unsaved changes stay on top of what was read.
    public func processExternalChanges() {
        let now = options.clock()
        var look = watcher?.check() ?? true
        if !look && now - lastStampCheck >= options.safetyPollInterval { look = true }
        guard look else { return }
        lastStampCheck = now
        if let changed = collections?.takeOthersChanges() { notify(changed) }
        guard file.stamp() != knownStamp else { return }
        reload()
    }

    /// Writes unsaved changes once they have settled for `coalescingDelay` (or have waited
    /// `maximumDelay`). A failure is reported once through `takeStartupWarnings()` and retried.
    public func flushIfDue(now: Double? = nil) {
        guard hasUnsavedChanges else { return }
        let now = now ?? options.clock()
        let settled = now - (lastChange ?? now) >= options.coalescingDelay
        let overdue = now - (firstChange ?? now) >= options.maximumDelay
        guard settled || overdue || needsFullRewrite || onlyCopiesDue else { return }
        if onlyCopiesDue, let due = copies.deadline(coalescingDelay: options.coalescingDelay), now < due { return }
        do {
            try flush(writingCopies: !copies.wholeDue.isEmpty || now - copies.lastWritten >= OlderReleaseCopies.interval)
        } catch {
            let failure = WriteFailure(error)
            if failure != lastWriteError {
                if let collections = error as? CollectionsSaveFailure {
                    warnings.append("Notes, bookmarks or reading places could not be saved to \(collections.path) (kept, and tried again): \(collections.reason)")
                } else {
                    warnings.append("The settings could not be saved to \(filePath): \(error)")
                }
            }
            lastWriteError = failure
            pending.postpone(to: now)
            collections?.postpone(to: now)
        }
    }

    /// Writes now: under the exclusive lock, re-reads the file, applies exactly this process's
    /// changed keys (removals included) and replaces the file atomically. Keys other processes
    /// wrote meanwhile are kept and reported to observers.
    public func flush() throws {
        try flush(writingCopies: true)
    }

    /// `writingCopies` false leaves the copies for older releases due: a save the user waits
    /// for (`saveNow`) or an idle one within `OlderReleaseCopies.interval` of the last writes
    /// only what changed; `flush()` (quitting, suspending) writes the copies too.
    private func flush(writingCopies: Bool) throws {
        guard hasUnsavedChanges else { return }
        if let collections, collections.hasUnsavedChanges {
            for (key, names) in collections.unsavedEntries where collections.keepsCopy(key) {
                copies.schedule(names, of: key, now: options.clock())
            }
            do { notify(try collections.flush()) } catch {
                throw CollectionsSaveFailure(path: collections.database.path, reason: "\(error)")
            }
        }
        var staged: [String: [String: PropertyListValue]] = [:]
        if writingCopies, copies.isDue {
            let due = copies.take()
            staged = stageCopies(whole: due.whole, entries: due.entries)
            copies.lastWritten = options.clock()
        }
        defer { rememberCopies(staged) }
        guard !pending.isEmpty || needsFullRewrite else {
            lastWriteError = nil
            return
        }
        let old = domains
        let written: [String: PropertyListValue] = try file.withLock(exclusive: true) {
            let stampBefore = file.stamp()
            var onDisk: [String: PropertyListValue] = [:]
            switch file.read() {
            case .missing: break
            case .values(let values): onDisk = values
            case .unstorable(let kept, let problems):
                let (message, outcome) = file.setAside(keeping: kept, problems: problems)
                // Writing over the original would lose it, values left out and all.
                if case .notMoved = outcome { throw DefaultsFile.FileError(description: message) }
                warnings.append(message)
                if case .replaced = outcome { onDisk = kept }
                needsFullRewrite = true
            case .corrupt(let reason):
                warnings.append(file.moveAside(reason: reason))
                needsFullRewrite = true
            }
            var base = onDisk
            if needsFullRewrite {
                for (key, value) in domains.persistent where base[key] == nil { base[key] = value }
            }
            var result = pending.applied(to: base, merges: fileMerges)
            if let writtenBy = options.writtenBy, result != onDisk, !result.isEmpty { result[Self.writtenByKey] = .string(writtenBy) }
            if result != onDisk || (stampBefore == nil && !result.isEmpty) {
                knownStamp = try file.write(result)
            } else {
                knownStamp = file.stamp()
            }
            return result
        }
        pending.removeAll()
        needsFullRewrite = false
        lastWriteError = nil  // saved: a later failure, even the same one, is news again
        domains.persistent = written
        notify(DefaultsDomains.changedKeys(from: old, to: domains))
    }

    /// Once the file holds the copies: only what changes in them from now on is an older
    /// release's doing. A copy not written (the save failed) is written at the next save.
    private func rememberCopies(_ staged: [String: [String: PropertyListValue]]) {
        guard let collections, !staged.isEmpty else { return }
        guard pending.isEmpty else {
            for key in staged.keys { copies.scheduleWhole(key, now: options.clock()) }
            return
        }
        for (key, copy) in staged {
            try? collections.rememberCopy(copy, of: key)
        }
    }

    // MARK: Reading

    /// Reads the file under the shared lock. A corrupt file is moved aside under the exclusive
    /// lock, after reading it once more, so a good file another process has just written is
    /// never the one moved.
    private func readFile() throws -> (values: [String: PropertyListValue], wasCorrupt: Bool) {
        guard access(file.folderPath, F_OK) == 0 else {
            knownStamp = nil
            return ([:], false)
        }
        for exclusive in [false, true] {
            let result: (values: [String: PropertyListValue], wasCorrupt: Bool)? = try file.withLock(exclusive: exclusive) {
                let stamp = file.stamp()
                switch file.read() {
                case .missing:
                    knownStamp = nil
                    return ([:], false)
                case .values(let values):
                    knownStamp = stamp
                    return (values, false)
                case .unstorable(let kept, let problems):
                    guard exclusive else { return nil }
                    let (message, outcome) = file.setAside(keeping: kept, problems: problems)
                    warnings.append(message)
                    if case .replaced(let written) = outcome {
                        knownStamp = written
                    } else {
                        // Not on disk yet: the next save writes every key this process holds.
                        knownStamp = file.stamp()
                        needsFullRewrite = true
                    }
                    return (kept, false)
                case .corrupt(let reason):
                    guard exclusive else { return nil }
                    warnings.append(file.moveAside(reason: reason))
                    knownStamp = nil
                    return ([:], true)
                }
            }
            if let result { return result }
        }
        return ([:], false)
    }

    private func reload() {
        guard let (values, wasCorrupt) = try? readFile() else { return }
        if wasCorrupt {
            // Keep what this process knows and write it back at the next flush.
            needsFullRewrite = true
            return
        }
        let old = domains
        domains.persistent = pending.applied(to: values, merges: entryMerges)
        notify(DefaultsDomains.changedKeys(from: old, to: domains))
        // Another version of the app, or `defaults import`, wrote a collection into the file.
        if let collections {
            moveCollectionsIn(keys: Set(domains.persistent.keys).filter(collections.declares))
        }
    }

    private func notify(_ keys: Set<String>) {
        guard !keys.isEmpty else { return }
        for id in observers.keys.sorted() {
            observers[id]?(keys)
        }
    }
}
