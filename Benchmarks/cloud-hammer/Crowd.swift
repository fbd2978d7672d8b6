import Cloud
import CloudServer
import Foundation
import PropertyList
#if canImport(Glibc)
import Glibc
#endif

/// `cloud-hammer crowd WORK CLOUD DEVICES WRITES`: a team of DEVICES devices on one server, each
/// a store of its own with its own sync helper process, as the app runs it (data folders under
/// WORK). A writer device connects first (and makes the tables); the others start in batches
/// and are given time to connect. Then the writer makes WRITES writes, spaced apart; for each
/// device that got in, the time from a write to its arrival in that device's store is one delay.
/// Devices the server did not take are counted with what their store says of it.
///
/// Options, by environment:
///   WONDERLAND_HAMMER_DEVICES=KIND   what a device is: `stores` (the default: a store, its data
///                                    folder and its local copy saved on each change, as the app
///                                    runs it) or `helpers` (the helper process alone, driven
///                                    through its pipes as a store drives it: wait, fetch, look
///                                    for the key; what the server sees of a device, without the
///                                    store's own work on this machine's cores)
///   WONDERLAND_HAMMER_BATCH=N        devices started at once (50)
///   WONDERLAND_HAMMER_SETTLE_S=S     seconds after the last batch for devices to get in (10)
///   WONDERLAND_HAMMER_SPACING_MS=N   ms from one write to the next (1000)
///   WONDERLAND_HAMMER_PATIENCE_S=S   seconds a write may take to reach every device (10)
///
/// Prints, one per line: `devices N`, `in N`, `refused N`, `refusal COUNT TEXT` per distinct
/// text, `connect_s S`, `delays N`, `missed N`, `propagation_median_ms X`, `propagation_p99_ms X`,
/// `propagation_max_ms X`; progress goes to stderr.
func runCrowd(work: URL, cloud: String, devices: Int, writes: Int, environment: [String: String]) throws {
    let kind = environment["WONDERLAND_HAMMER_DEVICES"] ?? "stores"
    guard ["stores", "helpers"].contains(kind) else { throw BackendUnavailable(reason: "WONDERLAND_HAMMER_DEVICES is stores or helpers, not \(kind)") }
    let batch = max(1, Int(environment["WONDERLAND_HAMMER_BATCH"] ?? "") ?? 50)
    let settle = Double(environment["WONDERLAND_HAMMER_SETTLE_S"] ?? "") ?? 10
    let spacing = Double(environment["WONDERLAND_HAMMER_SPACING_MS"] ?? "") ?? 1000
    let patience = Double(environment["WONDERLAND_HAMMER_PATIENCE_S"] ?? "") ?? 10
    let address = try PostgresSyncAddress(parsing: cloud)
    let password = PostgresPassword.lookup(for: address, environment: environment).password

    // A key of this run's own: a value left by an earlier run is no arrival.
    let key = "crowd-\(UInt32.random(in: 0 ... .max))"
    func store(_ name: String, onNews: @escaping @Sendable () -> Void) throws -> UbiquitousKeyValueStore {
        let device = DeviceIdentifier(name)!
        let data = work.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let backend = SyncHelperBackend(address: address, password: password, device: device)
        return UbiquitousKeyValueStore(.init(backend: backend, replicaFile: LocalReplicaFolder.standard(dataFolder: data).replicaFile(forBackend: backend.displayName),
                                             device: device, onNews: onNews))
    }
    func member(_ name: String, watcher: CrowdWatcher) throws -> any CrowdMember {
        if kind == "helpers" {
            return HelperMember(backend: SyncHelperBackend(address: address, password: password, device: DeviceIdentifier(name)!), watcher: watcher)
        }
        return try StoreMember(watcher: watcher) { onNews in try store(name, onNews: onNews) }
    }

    let writer = try store("crowd-writer") {}
    writer.start()
    let writerDeadline = Date(timeIntervalSinceNow: 60)
    while writer.status.isReachable != true {
        guard Date() < writerDeadline else { throw BackendUnavailable(reason: "the writer never got in: \(writer.status.problem ?? "?")") }
        usleep(50_000)
    }

    let started = DispatchTime.now()
    var watchers: [CrowdWatcher] = []
    var stores: [any CrowdMember] = []
    for first in stride(from: 0, to: devices, by: batch) {
        let names = (first ..< min(devices, first + batch)).map { String(format: "crowd-%04d", $0) }
        var batchStores: [any CrowdMember] = []
        for name in names {
            let watcher = CrowdWatcher(key: key, writes: writes)
            let store = try member(name, watcher: watcher)
            store.start()
            watchers.append(watcher)
            batchStores.append(store)
        }
        stores += batchStores
        // Until every device of the batch has tried once, so the next batch does not pile up.
        let deadline = Date(timeIntervalSinceNow: 30)
        while batchStores.contains(where: { $0.status.isReachable == nil }), Date() < deadline { usleep(20_000) }
        let reached = stores.filter { $0.status.isReachable == true }.count
        FileHandle.standardError.write(Data("crowd: \(stores.count) started, \(reached) in\n".utf8))
    }
    usleep(UInt32(settle * 1_000_000))
    let connectSeconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9

    let statuses = stores.map(\.status)
    let inside = statuses.indices.filter { statuses[$0].isReachable == true }
    var refusals: [String: Int] = [:]
    for status in statuses where status.isReachable != true { refusals[status.problem ?? "no answer yet", default: 0] += 1 }
    print("devices \(devices)")
    print("in \(inside.count)")
    print("refused \(devices - inside.count)")
    for (text, count) in refusals.sorted(by: { $0.value > $1.value }) { print("refusal \(count) \(text)") }
    print(String(format: "connect_s %.1f", connectSeconds))
    FileHandle.standardError.write(Data("crowd: \(inside.count) in, \(devices - inside.count) not; writing\n".utf8))

    var delays: [Double] = []
    var missed = 0
    print(String(format: "writes_from_unix %.3f", Date().timeIntervalSince1970))
    for index in 0 ..< writes {
        let written = DispatchTime.now().uptimeNanoseconds
        writer.set(.string("\(CrowdWatcher.prefix)\(index) \(UUID().uuidString)"), forKey: key)
        let deadline = Date(timeIntervalSinceNow: patience)
        while inside.contains(where: { watchers[$0].arrival(of: index) == nil }), Date() < deadline { usleep(10_000) }
        for device in inside {
            if let arrival = watchers[device].arrival(of: index) {
                delays.append(Double(arrival - written) / 1e6)
            } else {
                missed += 1
            }
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - written) / 1e6
        if elapsed < spacing { usleep(UInt32((spacing - elapsed) * 1_000)) }
    }
    print(String(format: "writes_to_unix %.3f", Date().timeIntervalSince1970))
    delays.sort()
    func quantile(_ q: Double) -> Double { delays.isEmpty ? .nan : delays[min(delays.count - 1, Int((Double(delays.count) * q).rounded(.up)) - 1)] }
    print("delays \(delays.count)")
    print("missed \(missed)")
    print(String(format: "propagation_median_ms %.1f", quantile(0.5)))
    print(String(format: "propagation_p99_ms %.1f", quantile(0.99)))
    print(String(format: "propagation_max_ms %.1f", delays.last ?? .nan))

    // Stopped side by side: each stop waits for its worker's last pass.
    let everyone = stores
    DispatchQueue.concurrentPerform(iterations: everyone.count) { everyone[$0].stop() }
    writer.stop(timeout: 2)
}

/// One device's view of the writer's key: when each write (by its number) first arrived.
final class CrowdWatcher: @unchecked Sendable {
    static let prefix = "write "
    let key: String
    private let lock = NSLock()
    private var arrivals: [UInt64?]

    init(key: String, writes: Int) {
        self.key = key
        arrivals = Array(repeating: nil, count: writes)
    }

    /// On the device's worker, after a pass with news, with the key's value as the device now
    /// holds it: a later write seen stands for the earlier ones too (a store keeps only the
    /// newest value of a key).
    func saw(_ value: PropertyListValue?) {
        let now = DispatchTime.now().uptimeNanoseconds
        guard case .string(let text) = value, text.hasPrefix(Self.prefix),
              let number = Int(text.dropFirst(Self.prefix.count).prefix { $0 != " " }) else { return }
        lock.lock()
        defer { lock.unlock() }
        for index in 0 ... min(number, arrivals.count - 1) where arrivals[index] == nil { arrivals[index] = now }
    }

    func arrival(of index: Int) -> UInt64? {
        lock.lock()
        defer { lock.unlock() }
        return arrivals[index]
    }
}

/// One device of the crowd, started and stopped by the run; what its sync says of the server.
protocol CrowdMember: AnyObject, Sendable {
    var status: KeyValueStoreStatus { get }
    func start()
    func stop()
}

/// A device as the app runs it: a store whose worker drives the helper and saves the local copy.
final class StoreMember: CrowdMember, @unchecked Sendable {
    private let store: UbiquitousKeyValueStore

    init(watcher: CrowdWatcher, makeStore: (@escaping @Sendable () -> Void) throws -> UbiquitousKeyValueStore) throws {
        // The store's news hook needs the store, which is made with the hook.
        let holder = WeakStore()
        let store = try makeStore { [watcher] in
            guard let store = holder.store else { return }
            store.processExternalChanges()
            watcher.saw(store.object(forKey: watcher.key))
        }
        holder.store = store
        self.store = store
    }

    var status: KeyValueStoreStatus { store.status }
    func start() { store.start() }
    func stop() { store.stop(timeout: 2) }

    private final class WeakStore: @unchecked Sendable { weak var store: UbiquitousKeyValueStore? }
}

/// A device reduced to its helper: a thread asks it to wait for news and then to fetch, as a
/// store's worker does, and looks for the key in what came. The newest change of the key wins,
/// as in a store.
final class HelperMember: CrowdMember, @unchecked Sendable {
    private let backend: SyncHelperBackend
    private let watcher: CrowdWatcher
    private let lock = NSLock()
    private var current = KeyValueStoreStatus()
    private var stopping = false
    private var running = false
    private var newest: ChangeStamp?

    init(backend: SyncHelperBackend, watcher: CrowdWatcher) {
        self.backend = backend
        self.watcher = watcher
    }

    var status: KeyValueStoreStatus { lock.withLock { current } }

    func start() {
        lock.withLock { running = true }
        Thread { [self] in run() }.start()
    }

    func stop() {
        lock.withLock { stopping = true }
        backend.wake()
        let deadline = Date(timeIntervalSinceNow: 2)
        while lock.withLock({ running }), Date() < deadline { usleep(2_000) }
    }

    private func run() {
        var retry = 0.5
        while !lock.withLock({ stopping }) {
            do {
                let records = try backend.fetchChanges()
                lock.withLock { current = KeyValueStoreStatus(isReachable: true) }
                retry = 0.5
                if let record = records.filter({ $0.key == watcher.key }).max(by: { $0.stamp < $1.stamp }),
                   newest.map({ $0 < record.stamp }) ?? true {
                    newest = record.stamp
                    watcher.saw(try? ReceivedChangeCheck.value(of: record, limits: .apple).get())
                }
                backend.waitForChanges(timeout: untilNews)
            } catch {
                lock.withLock { current = KeyValueStoreStatus(isReachable: false, problem: "\(error)") }
                backend.waitForChanges(timeout: retry)
                retry = min(retry * 2, 30)
            }
        }
        lock.withLock { running = false }
    }
}
