import Cloud
import Foundation
import PropertyList
import Testing

@Suite struct StoreTests {
    func makeStore(_ backend: KeyValueBackend, device: String, replica: LocalReplicaFile? = nil,
                   limits: KeyValueStoreLimits = .apple) -> UbiquitousKeyValueStore {
        UbiquitousKeyValueStore(.init(backend: backend, replicaFile: replica, device: DeviceIdentifier(device)!, limits: limits))
    }

    @Test func aWriteOnOneDeviceReachesTheOtherAsAServerChange() {
        let cloud = InMemoryCloud()
        let phone = makeStore(cloud.backend(), device: "phone")
        let pad = makeStore(cloud.backend(), device: "pad")
        #expect(pad.synchronize())
        #expect(pad.processExternalChanges().isEmpty)
        phone.set(.string("Paris"), forKey: "HPLocation")
        #expect(phone.object(forKey: "HPLocation") == .string("Paris"))
        #expect(phone.status.pendingChanges == 1)
        #expect(phone.synchronize())
        #expect(phone.status.pendingChanges == 0)
        #expect(pad.synchronize())
        #expect(pad.processExternalChanges() == [KeyValueStoreChange(reason: .serverChange, changedKeys: ["HPLocation"])])
        #expect(pad.object(forKey: "HPLocation") == .string("Paris"))
        pad.removeObject(forKey: "HPLocation")
        pad.synchronize()
        phone.synchronize()
        #expect(phone.processExternalChanges().map(\.changedKeys) == [["HPLocation"]])
        #expect(phone.object(forKey: "HPLocation") == nil)
        #expect(phone.record(forKey: "HPLocation")?.isRemoval == true)
    }

    @Test func theFirstSyncReportsWhatWasAlreadyThereAsInitialSync() {
        let cloud = InMemoryCloud()
        let phone = makeStore(cloud.backend(), device: "phone")
        phone.set(.integer(3), forKey: "a")
        phone.synchronize()
        let laptop = makeStore(cloud.backend(), device: "laptop")
        laptop.synchronize()
        #expect(laptop.processExternalChanges() == [KeyValueStoreChange(reason: .initialSyncChange, changedKeys: ["a"])])
    }

    @Test func offlineWritesWaitAndGoWhenTheBackendReturns() {
        let cloud = InMemoryCloud()
        let backend = cloud.backend()
        let phone = makeStore(backend, device: "phone")
        backend.isReachable = false
        phone.set(.string("x"), forKey: "k")
        #expect(!phone.synchronize())
        #expect(phone.status.isReachable == false)
        #expect(phone.status.pendingChanges == 1)
        #expect(phone.object(forKey: "k") == .string("x"))
        backend.isReachable = true
        #expect(phone.synchronize())
        #expect(cloud.allRecords.map(\.key) == ["k"])
    }

    @Test func aWriteOverALimitIsRefusedWholeWithAQuotaViolation() throws {
        let store = makeStore(InMemoryCloud().backend(), device: "d", limits: KeyValueStoreLimits(maximumTotalBytes: 200, maximumKeyCount: 3))
        try store.setValues(["a": .integer(1), "b": .integer(2)])
        #expect(throws: KeyValueStoreLimitError.tooManyKeys(count: 4, limit: 3)) {
            try store.setValues(["c": .integer(3), "d": .integer(4)])
        }
        #expect(store.object(forKey: "c") == nil)
        #expect(throws: KeyValueStoreLimitError.self) { try store.setValues(["c": .data(Data(count: 300))]) }
        let long = String(repeating: "k", count: 65)
        #expect(throws: KeyValueStoreLimitError.keyTooLong(key: long, bytes: 65, limit: 64)) { try store.setValues([long: .integer(1)]) }
        store.set(.integer(9), forKey: "")
        let changes = store.processExternalChanges()
        #expect(changes.count == 4)
        #expect(changes.allSatisfy { $0.reason == .quotaViolationChange })
        #expect(changes.first?.changedKeys == ["c", "d"])
        #expect(store.dictionaryRepresentation == ["a": .integer(1), "b": .integer(2)])
        try store.setValues(["a": nil, "c": .integer(3)])  // a removal makes room
        #expect(store.dictionaryRepresentation == ["b": .integer(2), "c": .integer(3)])
    }

    @Test func theLocalCopyKeepsQueuedWritesAndTheIdentityAcrossLaunches() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-replica-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = LocalReplicaFile(url: folder.appendingPathComponent("synced-store.plist"))
        let cloud = InMemoryCloud()
        let offline = cloud.backend()
        offline.isReachable = false
        var first: UbiquitousKeyValueStore? = UbiquitousKeyValueStore(.init(backend: offline, replicaFile: file))
        let device = try #require(first?.device)
        first?.set(.string("queued"), forKey: "k")
        first?.synchronize()
        first?.stop()
        first = nil
        let second = UbiquitousKeyValueStore(.init(backend: cloud.backend(), replicaFile: file))
        #expect(second.device == device)
        #expect(second.object(forKey: "k") == .string("queued"))
        #expect(second.synchronize())
        #expect(cloud.allRecords.map(\.stamp.device) == [device])
    }

    @Test func anotherBackendIsAnAccountChange() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-replica-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = LocalReplicaFile(url: folder.appendingPathComponent("synced-store.plist"))
        let first = UbiquitousKeyValueStore(.init(backend: NamedBackend(name: "folder /a"), replicaFile: file))
        first.set(.integer(1), forKey: "k")
        first.stop()
        let second = UbiquitousKeyValueStore(.init(backend: NamedBackend(name: "folder /b"), replicaFile: file))
        #expect(second.object(forKey: "k") == nil)
        #expect(second.processExternalChanges() == [KeyValueStoreChange(reason: .accountChange, changedKeys: ["k"])])
    }

    @Test func aDamagedLocalCopyIsMovedAsideAndReported() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-replica-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = LocalReplicaFile(url: folder.appendingPathComponent("synced-store.plist"))
        try Data("not a plist".utf8).write(to: file.url)
        let store = UbiquitousKeyValueStore(.init(backend: InMemoryCloud().backend(), replicaFile: file))
        #expect(store.takeWarnings().first?.contains("moved to synced-store.plist.damaged-") == true)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.contains { $0.hasPrefix("synced-store.plist.damaged-") })
    }

    @Test func theWorkerDeliversWithoutBeingAsked() throws {
        let cloud = InMemoryCloud()
        let news = NewsCounter()
        let phone = makeStore(cloud.backend(), device: "phone")
        let pad = UbiquitousKeyValueStore(.init(backend: cloud.backend(), device: DeviceIdentifier("pad")!, pollInterval: 5, onNews: { news.bump() }))
        pad.start()
        defer { pad.stop() }
        phone.set(.string("hello"), forKey: "k")
        phone.synchronize()
        let deadline = Date(timeIntervalSinceNow: 10)
        // The worker takes the change in, then tells: wait for both, not just the first.
        while pad.object(forKey: "k") == nil || news.count == 0, Date() < deadline { usleep(5_000) }
        #expect(pad.object(forKey: "k") == .string("hello"))
        #expect(news.count > 0)
    }
}

final class NamedBackend: KeyValueBackend, @unchecked Sendable {
    let displayName: String
    init(name: String) { displayName = name }
    func append(_ records: [ChangeRecord]) throws {}
    func fetchChanges() throws -> [ChangeRecord] { [] }
    func waitForChanges(timeout: Double) {}
    func wake() {}
    func compact(latest: MergedChanges) {}
}

final class NewsCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func bump() { lock.withLock { value += 1 } }
    var count: Int { lock.withLock { value } }
}

@Suite struct StoreLifecycleTests {
    @Test func startingAgainRightAfterAStopKeepsSyncing() {
        let cloud = InMemoryCloud()
        let phone = UbiquitousKeyValueStore(.init(backend: cloud.backend(), device: DeviceIdentifier("phone")!, pollInterval: 0.05))
        let pad = UbiquitousKeyValueStore(.init(backend: cloud.backend(), device: DeviceIdentifier("pad")!, pollInterval: 0.05))
        for _ in 0..<20 {
            pad.start()
            pad.stop(timeout: 0)  // gives up at once, as on a folder that hangs
        }
        pad.start()
        defer { pad.stop() }
        phone.set(.string("after the restarts"), forKey: "k")
        phone.synchronize()
        let deadline = Date(timeIntervalSinceNow: 10)
        while pad.object(forKey: "k") == nil, Date() < deadline { usleep(5_000) }
        #expect(pad.object(forKey: "k") == .string("after the restarts"))
    }
}
