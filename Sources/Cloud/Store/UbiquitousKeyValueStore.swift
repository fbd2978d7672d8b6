import Defaults
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import Platform
import PropertyList

/// NSUbiquitousKeyValueStore for Wonderland: property-list values under string keys, shared by
/// every instance on every machine that points at the same backend.
///
/// Reads and writes work on this machine's copy at once and never wait for the backend; a worker
/// thread (`start()`) sends queued writes and fetches other devices' changes, merging them last
/// writer wins by (hybrid logical clock, device). What changed underneath the app is told, like
/// the did-change-externally notification, through `processExternalChanges()` on the app's
/// thread; the worker calls `onNews` (the app's wake-up) when there is something to tell.
/// Apple's limits hold: a write that would break one is refused whole, with a quota-violation
/// change. Each key is sent and refused by itself (`setEach`, and the worker when a server
/// refuses a batch), so one key over a limit never holds back the others.
public final class UbiquitousKeyValueStore: @unchecked Sendable {
    public struct Configuration {
        public var backend: KeyValueBackend
        /// This machine's copy; nil keeps it in memory only (tests).
        public var replicaFile: LocalReplicaFile?
        /// Nil takes the replica's identity, or makes a new one.
        public var device: DeviceIdentifier?
        public var limits: KeyValueStoreLimits
        public var wallMilliseconds: @Sendable () -> UInt64
        /// How long the worker waits before trying again after a pass that could not reach the
        /// backend; each failure in a row doubles it, up to `maximumRetryInterval`. After a good
        /// pass it waits for the backend's news (or a local change) with no deadline.
        public var pollInterval: Double
        /// Called on the worker thread when there are changes to deliver or the status changed.
        public var onNews: @Sendable () -> Void

        public init(backend: KeyValueBackend, replicaFile: LocalReplicaFile? = nil, device: DeviceIdentifier? = nil,
                    limits: KeyValueStoreLimits = .apple,
                    wallMilliseconds: @escaping @Sendable () -> UInt64 = HybridLogicalClock.systemMilliseconds,
                    pollInterval: Double = 0.5, onNews: @escaping @Sendable () -> Void = {}) {
            self.backend = backend
            self.replicaFile = replicaFile
            self.device = device
            self.limits = limits
            self.wallMilliseconds = wallMilliseconds
            self.pollInterval = pollInterval
            self.onNews = onNews
        }
    }

    public let device: DeviceIdentifier
    public let backendName: String
    private let backend: KeyValueBackend
    private let configuration: Configuration
    private let clock: HybridLogicalClock

    private let lock = Lock()
    /// Everything known here: the backend's changes and this machine's own.
    private var local: MergedChanges
    /// What the backend is known to hold (fetched from it, or accepted by it).
    private var delivered = MergedChanges()
    private var decoded: [String: (stamp: ChangeStamp, value: PropertyListValue?)] = [:]
    private var queued: [KeyValueStoreChange] = []
    private var currentStatus = KeyValueStoreStatus()
    private var hasSynced = false
    private var replicaNeedsSaving = false
    private var warnings: [String] = []
    private var observers: [Int: (KeyValueStoreChange) -> Void] = [:]
    private var nextObserverID = 0
    /// Changes from elsewhere that were not applied, by change, at most `maximumSkippedKept`.
    private var skipped: [ChangeIdentity: SkippedChange] = [:]
    private var skippedOrder: [ChangeIdentity] = []
    /// Changes that would bring the store over its key count or total: offered again with the
    /// next changes, which may free the space.
    private var heldForSpace: [ChangeRecord] = []
    /// This machine's keys refused for a limit, and why, in the order they were refused.
    private var refused: [String: String] = [:]
    private var refusedOrder: [String] = []
    /// The keys the last saved copy said the backend holds.
    private var savedSentKeys = Set<String>()
    private let applyGuard: ApplyGuard?
    static let maximumSkippedKept = 256
    /// The longest wait between tries at a backend that cannot be reached.
    static let maximumRetryInterval = 30.0

    /// One sync pass at a time, whether from the worker or `synchronize()`.
    private let syncLock = Lock()
    /// Whether the worker thread is running (set by `start`, cleared by the worker as it ends).
    private var workerRunning = false
    private var stopping = false

    public init(_ configuration: Configuration) {
        self.configuration = configuration
        backend = configuration.backend
        backendName = configuration.backend.displayName
        var warning: String?
        let saved = configuration.replicaFile?.load(warning: &warning)
        if let warning { warnings.append(warning) }
        applyGuard = configuration.replicaFile.map { ApplyGuard(copy: $0.url) }
        device = configuration.device ?? saved?.device ?? DeviceIdentifier.random()
        clock = HybridLogicalClock(last: saved?.clock ?? .zero, wallMilliseconds: configuration.wallMilliseconds)
        local = MergedChanges()
        for change in applyGuard?.recover() ?? [] {
            rememberSkippedLocked(change)
            warnings.append("The last launch stopped while applying a synced change, so it is skipped from now on: \(change)")
        }
        if let saved, saved.device == device, saved.backend == nil || saved.backend == backendName {
            // The copy is checked like news from elsewhere: an older build may have kept a
            // change this one refuses.
            let admitted = admitLocked(saved.changes.latest.values.map { record in
                ChangeRecord(key: record.key, payload: record.payload, stamp: record.stamp, origin: "this machine's copy")
            })
            local = MergedChanges(admitted)
            if admitted.count != saved.changes.latest.count { replicaNeedsSaving = true }
            // What the backend was known to hold when the copy was saved: without it, a look at
            // the copy alone (`cloud status --offline`) would count every own key as unsent.
            for key in saved.sentKeys {
                if let record = local.record(forKey: key), record == saved.changes.record(forKey: key) { delivered.merge(record) }
            }
            savedSentKeys = saved.sentKeys
        } else {
            local = MergedChanges()
            let dropped = saved?.changes.liveKeys ?? []
            if saved?.backend != nil, !dropped.isEmpty {
                // Another folder or server: its values are not this one's.
                queued.append(KeyValueStoreChange(reason: .accountChange, changedKeys: dropped.sorted()))
            }
        }
        replicaNeedsSaving = replicaNeedsSaving || saved == nil || saved?.backend != backendName
        currentStatus.pendingChanges = pendingRecordsLocked().count
    }

    deinit { stop() }

    // MARK: Reading

    public func object(forKey key: String) -> PropertyListValue? {
        lock.withLock { valueLocked(forKey: key) }
    }

    /// The winning change for `key`, a removal included (nil: nobody ever wrote the key).
    public func record(forKey key: String) -> ChangeRecord? {
        lock.withLock { local.record(forKey: key) }
    }

    /// The keys that hold a value and start with `prefix`, without decoding any value.
    public func keys(withPrefix prefix: String) -> [String] {
        lock.withLock { local.liveKeys.filter { $0.hasPrefix(prefix) } }
    }

    public var dictionaryRepresentation: [String: PropertyListValue] {
        lock.withLock {
            var values: [String: PropertyListValue] = [:]
            for key in local.liveKeys { values[key] = valueLocked(forKey: key) }
            return values
        }
    }

    public var status: KeyValueStoreStatus { lock.withLock { currentStatus } }

    /// Problems to tell the user once (a damaged local copy moved aside).
    public func takeWarnings() -> [String] {
        lock.withLock {
            defer { warnings = [] }
            return warnings
        }
    }

    // MARK: Writing

    /// Sets or (with nil) removes a value. A write over a limit is refused and reported as a
    /// quota-violation change; use `setValues` to learn of it at once.
    public func set(_ value: PropertyListValue?, forKey key: String) {
        try? setValues([key: value])
    }

    public func removeObject(forKey key: String) { set(nil, forKey: key) }

    /// Writes several keys at once, all or nothing: when the result would break a limit, nothing
    /// is written, a quota-violation change is queued, and the error says which limit.
    public func setValues(_ changes: [String: PropertyListValue?]) throws(KeyValueStoreLimitError) {
        var records: [ChangeRecord] = []
        var refusal: KeyValueStoreLimitError?
        for (key, value) in changes.sorted(by: { $0.key < $1.key }) {
            var payload: Data?
            if let value {
                // Checked within the limits other devices read with before it is written out:
                // a value that shares its parts can stand for more than any writer could finish.
                if let problem = ReceivedChangeCheck.problem(writing: value) {
                    refusal = .valueRefused(key: key, why: problem)
                    break
                }
                guard let bytes = try? BinaryPropertyListWriter.data(from: value) else {
                    refusal = .notAPropertyList(key: key)
                    break
                }
                payload = bytes
            }
            records.append(ChangeRecord(key: key, payload: payload, stamp: ChangeStamp(clock: .zero, device: device)))
        }
        lock.lock()
        if refusal == nil {
            do throws(KeyValueStoreLimitError) {
                try checkLimitsLocked(applying: records)
            } catch {
                refusal = error
            }
        }
        if let refusal {
            queued.append(KeyValueStoreChange(reason: .quotaViolationChange, changedKeys: changes.keys.sorted(), refusal: refusal))
            for key in changes.keys { rememberRefusedLocked(key, why: "\(refusal)") }
            lock.unlock()
            configuration.onNews()
            throw refusal
        }
        for record in records {
            forgetRefusedLocked(record.key)
            if let current = local.record(forKey: record.key), current.payload == record.payload { continue }
            let stamped = ChangeRecord(key: record.key, payload: record.payload, stamp: ChangeStamp(clock: clock.now(), device: device))
            local.merge(stamped)
            if let value = changes[record.key] { decoded[record.key] = (stamped.stamp, value) }
        }
        replicaNeedsSaving = true
        currentStatus.pendingChanges = pendingRecordsLocked().count
        lock.unlock()
        backend.wake()
    }

    /// Writes each key by itself: a key that would break a limit is refused (and reported as a
    /// quota violation) while the others are written. Removals go first, so the room they free
    /// is there for the values. Returns the refused keys and why.
    @discardableResult
    public func setEach(_ changes: [String: PropertyListValue?]) -> [String: KeyValueStoreLimitError] {
        var refusals: [String: KeyValueStoreLimitError] = [:]
        let ordered = changes.sorted { lhs, rhs in
            (lhs.value == nil) != (rhs.value == nil) ? lhs.value == nil : lhs.key < rhs.key
        }
        for (key, value) in ordered {
            do throws(KeyValueStoreLimitError) {
                try setValues([key: value])
            } catch {
                refusals[key] = error
            }
        }
        return refusals
    }

    private func checkLimitsLocked(applying records: [ChangeRecord]) throws(KeyValueStoreLimitError) {
        let limits = configuration.limits
        for record in records {
            if record.key.isEmpty { throw .emptyKey }
            let bytes = record.key.utf8.count
            if bytes > limits.maximumKeyBytes { throw .keyTooLong(key: record.key, bytes: bytes, limit: limits.maximumKeyBytes) }
        }
        var after = local
        for record in records {
            after.merge(ChangeRecord(key: record.key, payload: record.payload, stamp: ChangeStamp(clock: HybridTimestamp(rawValue: .max), device: device)))
        }
        let (keysNow, bytesNow) = Self.usage(of: local)
        let (keysAfter, bytesAfter) = Self.usage(of: after)
        // Changes from other devices may already have pushed the store over; a write that does
        // not make it worse (a removal, a smaller value) is still allowed.
        if keysAfter > limits.maximumKeyCount, keysAfter > keysNow { throw .tooManyKeys(count: keysAfter, limit: limits.maximumKeyCount) }
        if bytesAfter > limits.maximumTotalBytes, bytesAfter > bytesNow { throw .tooLarge(bytes: bytesAfter, limit: limits.maximumTotalBytes) }
    }

    /// Live keys and the bytes of their keys and values.
    static func usage(of changes: MergedChanges) -> (keys: Int, bytes: Int) {
        var keys = 0
        var bytes = 0
        for record in changes.latest.values {
            guard let payload = record.payload else { continue }
            keys += 1
            bytes += record.key.utf8.count + payload.count
        }
        return (keys, bytes)
    }

    // MARK: Notifications

    /// Observers hear of changes made underneath the app, on the thread that calls
    /// `processExternalChanges()`. Subscribed while the token lives.
    public func addObserver(_ handler: @escaping (KeyValueStoreChange) -> Void) -> PreferenceObservation {
        lock.withLock {
            let id = nextObserverID
            nextObserverID += 1
            observers[id] = handler
            return PreferenceObservation { [weak self] in self?.removeObserver(id) }
        }
    }

    private func removeObserver(_ id: Int) {
        lock.withLock { observers[id] = nil }
    }

    /// Delivers queued changes to the observers (on the calling thread, the app's) and returns
    /// them.
    @discardableResult
    public func processExternalChanges() -> [KeyValueStoreChange] {
        let (changes, handlers) = lock.withLock { () -> ([KeyValueStoreChange], [(KeyValueStoreChange) -> Void]) in
            defer { queued = [] }
            return (queued, observers.keys.sorted().compactMap { observers[$0] })
        }
        for change in changes {
            for handler in handlers { handler(change) }
        }
        return changes
    }

    // MARK: Syncing

    /// Starts the worker thread that keeps this copy and the backend in step.
    public func start() {
        lock.withLock {
            // A worker still finishing a stop (a slow folder) simply carries on.
            guard !workerRunning else {
                stopping = false
                return
            }
            stopping = false
            workerRunning = startThread(name: "wonderland-sync") { [weak self] in self?.runWorker() }
            precondition(workerRunning, "cannot start the sync worker thread")
        }
    }

    /// Stops the worker after a last attempt to send what is queued (waiting at most `timeout`
    /// seconds for a slow backend), and saves this machine's copy.
    public func stop(timeout: Double = 1.5) {
        let running = lock.withLock { () -> Bool in
            guard workerRunning, !stopping else { return false }
            stopping = true
            return true
        }
        if running {
            backend.wake()
            // Polled rather than signalled: a worker that outlives one stop must not make the
            // next stop return before it has finished.
            let deadline = Date(timeIntervalSinceNow: timeout)
            while lock.withLock({ workerRunning }), Date() < deadline { usleep(2_000) }
        }
        saveReplica()
    }

    /// Sends queued writes and fetches other devices' changes now, on the calling thread.
    /// True when the backend was reached.
    @discardableResult
    public func synchronize() -> Bool {
        syncLock.withLock { syncPassLocked() }
    }

    private func runWorker() {
        var carryOn = true
        while carryOn {
            var retryDelay = configuration.pollInterval
            while !lock.withLock({ stopping }) {
                let reached = synchronize()
                if lock.withLock({ stopping }) { break }
                if reached {
                    retryDelay = configuration.pollInterval
                    backend.waitForChanges(timeout: untilNews)
                } else {
                    backend.waitForChanges(timeout: retryDelay)
                    retryDelay = min(retryDelay * 2, max(configuration.pollInterval, Self.maximumRetryInterval))
                }
            }
            synchronize()  // the last queued writes, when the backend is there
            carryOn = lock.withLock {
                guard stopping else { return true }  // started again while it was stopping
                workerRunning = false
                return false
            }
        }
    }

    private func syncPassLocked() -> Bool {
        let statusBefore = lock.withLock { currentStatus }
        var reached = false
        do {
            let fetched = try backend.fetchChanges()
            let whole = backend.lastFetchWasWhole
            let pending = lock.withLock { () -> [ChangeRecord] in
                // Everything the backend holds came: what it has is exactly that, whatever was
                // sent to it before (a database made anew, or restored from a backup, lost it).
                let deliveredBefore = delivered
                if whole { delivered = MergedChanges(fetched) }
                let admitted = admitLocked(fetched)
                // A change that was not admitted has no say, not even over the clock.
                for record in admitted { clock.observe(record.stamp.clock) }
                delivered.merge(admitted)
                absorbLocked(admitted, reason: hasSynced ? .serverChange : .initialSyncChange)
                guard whole else { return pendingRecordsLocked() }
                let missing = missingFromBackendLocked()
                let lost = missing.filter { record in
                    record.stamp.device != device || deliveredBefore.record(forKey: record.key).map { !($0.stamp < record.stamp) } == true
                }
                if !lost.isEmpty {
                    warnings.append("\(backend.displayName) holds less than this machine had from it (a database made anew at the same address, or restored from a backup): sent \(lost.count) change\(lost.count == 1 ? "" : "s") it had lost again")
                }
                return missing
            }
            if !pending.isEmpty {
                var accepted: [ChangeRecord] = []
                var refusals: [(ChangeRecord, BackendRefusal)] = []
                do {
                    // Removals first: on a server that checks the limits as it writes, the room
                    // they free is there for the values.
                    try appendEach(pending.sorted { lhs, rhs in
                        lhs.isRemoval != rhs.isRemoval ? lhs.isRemoval : lhs.stamp < rhs.stamp
                    }, accepted: &accepted, refused: &refusals)
                } catch {
                    lock.withLock { _ = delivered.merge(accepted) }
                    throw error
                }
                lock.withLock {
                    _ = delivered.merge(accepted)
                    for (record, refusal) in refusals { takeBackLocked([record], refusal: refusal) }
                }
                if !accepted.isEmpty { backend.compact(latest: lock.withLock { delivered }) }
            }
            reached = true
            let problems = backend.readProblems.prefix(KeyValueStoreStatus.skippedShown).map { SkippedChange.printable($0, limit: SkippedChange.maximumLength) }
            lock.withLock {
                for problem in problems where !currentStatus.readProblems.contains(problem) {
                    warnings.append("Left unread while syncing: \(problem)")
                }
                currentStatus.readProblems = Array(problems)
                hasSynced = true
                currentStatus.isReachable = true
                currentStatus.problem = nil
                currentStatus.lastSync = Date().timeIntervalSince1970
            }
        } catch {
            lock.withLock {
                currentStatus.isReachable = false
                currentStatus.problem = "\(error)"
            }
        }
        saveReplica()
        let news = lock.withLock { () -> Bool in
            currentStatus.pendingChanges = pendingRecordsLocked().count
            return !queued.isEmpty || currentStatus != statusBefore
        }
        if news { configuration.onNews() }
        return reached
    }

    /// Sends `records`; when the backend refuses them whole, each half is sent by itself, down
    /// to single records, so only the ones over a limit are refused and the rest are stored.
    /// A backend that checks no limits (the folder) takes the whole batch in one call.
    private func appendEach(_ records: [ChangeRecord], accepted: inout [ChangeRecord], refused: inout [(ChangeRecord, BackendRefusal)]) throws {
        guard !records.isEmpty else { return }
        do {
            try backend.append(records)
            accepted += records
        } catch let refusal as BackendRefusal {
            guard records.count > 1 else {
                refused.append((records[0], refusal))
                return
            }
            let half = records.count / 2
            try appendEach(Array(records[..<half]), accepted: &accepted, refused: &refused)
            try appendEach(Array(records[half...]), accepted: &accepted, refused: &refused)
        }
    }

    /// The changes from elsewhere that pass `ReceivedChangeCheck` and are not quarantined; the
    /// others are remembered as skipped. Each is checked under the apply marker, so a check
    /// that kills the process names the change that did it. Their decoded values are kept.
    private func admitLocked(_ records: [ChangeRecord]) -> [ChangeRecord] {
        var admitted: [ChangeRecord] = []
        admitted.reserveCapacity(records.count)
        defer { applyGuard?.finished() }
        for record in records {
            // This copy's own winner again (every read starts over at launch): checked already.
            if let current = local.record(forKey: record.key), current == record {
                admitted.append(record)
                continue
            }
            if let applyGuard {
                if applyGuard.isQuarantined(record) {
                    rememberSkippedLocked(SkippedChange(record, reason: .stoppedTheLastLaunch))
                    continue
                }
                applyGuard.willApply(record)
            }
            switch ReceivedChangeCheck.value(of: record, limits: configuration.limits) {
            case .success(let value):
                admitted.append(record)
                if let value, decoded[record.key].map({ $0.stamp <= record.stamp }) ?? true {
                    decoded[record.key] = (record.stamp, value)
                }
            case .failure(let reason):
                rememberSkippedLocked(SkippedChange(record, reason: reason))
            }
        }
        return admitted
    }

    /// Merges admitted changes from elsewhere and queues a change for the keys whose value
    /// changed. A change that would bring the store over its key count or total is held back
    /// (and named as skipped) until space is freed; removals go first, so a batch that frees
    /// space and takes it again fits as the devices that wrote it meant.
    private func absorbLocked<S: Sequence>(_ records: S, reason: KeyValueStoreChangeReason) where S.Element == ChangeRecord {
        var changed = Set<String>()
        let offered = (heldForSpace + records).sorted { lhs, rhs in
            lhs.isRemoval != rhs.isRemoval ? lhs.isRemoval : lhs.stamp < rhs.stamp
        }
        heldForSpace = []
        let limits = configuration.limits
        var (keys, bytes) = Self.usage(of: local)
        for record in offered {
            let before = local.record(forKey: record.key)
            if let before, !MergedChanges.wins(record, over: before) { continue }
            let keysAfter = keys - (before?.payload == nil ? 0 : 1) + (record.payload == nil ? 0 : 1)
            let bytesAfter = bytes - Self.size(of: before) + Self.size(of: record)
            let over: KeyValueStoreLimitError?
            if keysAfter > limits.maximumKeyCount, keysAfter > keys {
                over = .tooManyKeys(count: keysAfter, limit: limits.maximumKeyCount)
            } else if bytesAfter > limits.maximumTotalBytes, bytesAfter > bytes {
                over = .tooLarge(bytes: bytesAfter, limit: limits.maximumTotalBytes)
            } else {
                over = nil
            }
            if let over {
                rememberSkippedLocked(SkippedChange(record, reason: .storeFull(over)))
                if heldForSpace.count < limits.maximumKeyCount { heldForSpace.append(record) }
                continue
            }
            (keys, bytes) = (keysAfter, bytesAfter)
            local.merge(record)
            forgetSkippedLocked(ChangeIdentity(record))
            if before?.payload != record.payload { changed.insert(record.key) }
        }
        guard !changed.isEmpty else { return }
        replicaNeedsSaving = true
        queued.append(KeyValueStoreChange(reason: reason, changedKeys: changed.sorted()))
    }

    private static func size(of record: ChangeRecord?) -> Int {
        guard let record, let payload = record.payload else { return 0 }
        return record.key.utf8.count + payload.count
    }

    private func rememberSkippedLocked(_ change: SkippedChange) {
        let identity = change.identity
        if skipped.updateValue(change, forKey: identity) == nil {
            skippedOrder.append(identity)
            if skippedOrder.count > Self.maximumSkippedKept { skipped[skippedOrder.removeFirst()] = nil }
        }
        currentStatus.skippedChanges = skippedOrder.count
        currentStatus.lastSkipped = skippedOrder.suffix(KeyValueStoreStatus.skippedShown).compactMap { skipped[$0] }
    }

    private func rememberRefusedLocked(_ key: String, why: String) {
        if refused.updateValue(why, forKey: key) == nil {
            refusedOrder.append(key)
            if refusedOrder.count > Self.maximumSkippedKept { refused[refusedOrder.removeFirst()] = nil }
        }
        publishRefusedLocked()
    }

    private func forgetRefusedLocked(_ key: String) {
        guard refused.removeValue(forKey: key) != nil else { return }
        refusedOrder.removeAll { $0 == key }
        publishRefusedLocked()
    }

    private func publishRefusedLocked() {
        currentStatus.refusedKeys = refusedOrder.count
        currentStatus.lastRefused = refusedOrder.suffix(KeyValueStoreStatus.skippedShown).compactMap { key in
            refused[key].map { "\(SkippedChange.printable(key, limit: 64)): \($0)" }
        }
    }

    private func forgetSkippedLocked(_ identity: ChangeIdentity) {
        guard skipped.removeValue(forKey: identity) != nil else { return }
        skippedOrder.removeAll { $0 == identity }
        currentStatus.skippedChanges = skippedOrder.count
        currentStatus.lastSkipped = skippedOrder.suffix(KeyValueStoreStatus.skippedShown).compactMap { skipped[$0] }
    }

    /// The server refused these changes: they are taken back (each key returns to what the
    /// backend holds), so they are not sent again and again, and the app hears of it as a
    /// quota violation, as for a write refused here.
    private func takeBackLocked(_ records: [ChangeRecord], refusal: BackendRefusal) {
        for record in records {
            guard local.record(forKey: record.key) == record else { continue }  // written again since
            local.takeBack(record.key, returningTo: delivered.record(forKey: record.key))
            decoded[record.key] = nil
            rememberRefusedLocked(record.key, why: "\(refusal)")
        }
        replicaNeedsSaving = true
        queued.append(KeyValueStoreChange(reason: .quotaViolationChange, changedKeys: records.map(\.key).sorted(), refusal: refusal.limit))
    }

    /// Every change this machine holds, from any device, that the backend lacks or holds an
    /// older one of the key than: what a backend that lost its history gets back.
    private func missingFromBackendLocked() -> [ChangeRecord] {
        local.latest.values.filter { record in
            guard let known = delivered.record(forKey: record.key) else { return true }
            return known.stamp < record.stamp
        }
    }

    /// This machine's changes the backend does not have yet.
    private func pendingRecordsLocked() -> [ChangeRecord] {
        local.latest.values.filter { record in
            guard record.stamp.device == device else { return false }
            guard let known = delivered.record(forKey: record.key) else { return true }
            return known.stamp < record.stamp
        }
    }

    private func saveReplica() {
        guard let file = configuration.replicaFile else { return }
        let replica = lock.withLock { () -> LocalReplica? in
            let sent = Set(local.latest.compactMap { key, record in delivered.record(forKey: key) == record ? key : nil })
            guard replicaNeedsSaving || sent != savedSentKeys else { return nil }
            replicaNeedsSaving = false
            savedSentKeys = sent
            return LocalReplica(device: device, clock: clock.latest, backend: backendName, changes: local, sentKeys: sent)
        }
        guard let replica else { return }
        do {
            let merged = try file.save(replica)
            // Another instance on this machine may have saved changes of its own meanwhile.
            lock.withLock { absorbLocked(admitLocked(Array(merged.changes.latest.values)), reason: .serverChange) }
        } catch {
            lock.withLock {
                replicaNeedsSaving = true
                let message = "The synced store's local copy could not be saved: \(error)"
                if !warnings.contains(message) { warnings.append(message) }
            }
        }
    }

    private func valueLocked(forKey key: String) -> PropertyListValue? {
        guard let record = local.record(forKey: key), record.payload != nil else { return nil }
        if let cached = decoded[key], cached.stamp == record.stamp { return cached.value }
        let value = try? ReceivedChangeCheck.value(of: record, limits: configuration.limits).get()
        decoded[key] = (record.stamp, value)
        return value
    }
}
