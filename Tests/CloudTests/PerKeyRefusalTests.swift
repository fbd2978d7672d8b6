import Cloud
import Foundation
import PropertyList
import Testing

/// A backend that checks limits itself, as the server does: a batch holding a key it will not
/// take is refused whole.
private final class PickyBackend: KeyValueBackend, @unchecked Sendable {
    let inner: InMemoryBackend
    let refuses: Set<String>
    private(set) var batches = 0
    init(_ inner: InMemoryBackend, refuses: Set<String>) {
        self.inner = inner
        self.refuses = refuses
    }
    var displayName: String { "picky" }
    func append(_ records: [ChangeRecord]) throws {
        batches += 1
        let refused = records.map(\.key).filter(refuses.contains)
        if !refused.isEmpty {
            throw BackendRefusal(limit: .tooLarge(bytes: 2_000_000, limit: 1_048_576), keys: records.map(\.key))
        }
        try inner.append(records)
    }
    func fetchChanges() throws -> [ChangeRecord] { try inner.fetchChanges() }
    func waitForChanges(timeout: Double) { inner.waitForChanges(timeout: timeout) }
    func wake() { inner.wake() }
    func compact(latest: MergedChanges) {}
}

@Suite struct PerKeyRefusalTests {
    @Test func aKeyOverALimitIsRefusedByItselfAndTheOthersAreWritten() {
        let store = UbiquitousKeyValueStore(.init(backend: InMemoryCloud().backend(), device: DeviceIdentifier("d")!,
                                                  limits: KeyValueStoreLimits(maximumTotalBytes: 10_000, maximumKeyCount: 3)))
        let refusals = store.setEach(["a": .integer(1), "b": .integer(2), "c": .integer(3), "d": .integer(4)])
        #expect(refusals.keys.sorted() == ["d"])
        #expect(store.object(forKey: "a") == .integer(1))
        #expect(store.object(forKey: "c") == .integer(3))
        #expect(store.status.refusedKeys == 1)
        #expect(store.status.lastRefused.first?.hasPrefix("d: the store would hold 4 keys") == true)
        // A removal frees a key, and goes first.
        let freeing: [String: PropertyListValue?] = ["a": nil, "d": .integer(4)]
        let none = store.setEach(freeing)
        #expect(none.isEmpty)
        #expect(store.object(forKey: "d") == .integer(4))
        #expect(store.status.refusedKeys == 0, "written since")
    }

    @Test func aServerRefusalTakesBackOnlyTheKeyItRefusesAndTheRestGoThrough() throws {
        let cloud = InMemoryCloud()
        let picky = PickyBackend(cloud.backend(), refuses: ["WLReadingPosition.big"])
        let store = UbiquitousKeyValueStore(.init(backend: picky, device: DeviceIdentifier("phone")!))
        var values: [String: PropertyListValue?] = ["HPLocation": .string("Café"), "WLReadingPosition.big": .string("x")]
        for index in 0 ..< 50 { values["WLReadingPosition.\(index)"] = .integer(Int64(index)) }
        try store.setValues(values)
        #expect(store.synchronize())
        #expect(Set(cloud.allRecords.map(\.key)) == Set(values.keys).subtracting(["WLReadingPosition.big"]))
        #expect(store.object(forKey: "WLReadingPosition.big") == nil, "taken back to what the server holds")
        #expect(store.object(forKey: "HPLocation") == .string("Café"))
        #expect(store.status.pendingChanges == 0)
        #expect(store.status.refusedKeys == 1)
        let violations = store.processExternalChanges().filter { $0.reason == .quotaViolationChange }
        #expect(violations.map(\.changedKeys) == [["WLReadingPosition.big"]])
        // A later change to a key that synced goes through: nothing is stuck.
        store.set(.string("Gare"), forKey: "HPLocation")
        let before = picky.batches
        #expect(store.synchronize())
        #expect(picky.batches == before + 1, "no refused key left to split around")
        #expect(cloud.allRecords.last?.key == "HPLocation")
    }

    @Test func whatWasSentIsNotCountedAsWaitingByTheNextLookAtTheCopyAlone() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-sent-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let replica = LocalReplicaFile(url: folder.appendingPathComponent("copy.plist"))
        let cloud = InMemoryCloud()
        let first = UbiquitousKeyValueStore(.init(backend: cloud.backend(), replicaFile: replica, device: DeviceIdentifier("phone")!))
        try first.setValues(["a": .integer(1), "b": .integer(2)])
        #expect(first.synchronize())
        #expect(first.status.pendingChanges == 0)
        first.stop()
        // `cloud status` right after, then `cloud status --offline`: a new process, no sync.
        let again = UbiquitousKeyValueStore(.init(backend: cloud.backend(), replicaFile: replica, device: DeviceIdentifier("phone")!))
        #expect(again.status.pendingChanges == 0)
        again.set(.integer(3), forKey: "c")
        again.stop()
        let third = UbiquitousKeyValueStore(.init(backend: cloud.backend(), replicaFile: replica, device: DeviceIdentifier("phone")!))
        #expect(third.status.pendingChanges == 1, "only the change not sent")
        #expect(third.synchronize())
        third.stop()
        let fourth = UbiquitousKeyValueStore(.init(backend: cloud.backend(), replicaFile: replica, device: DeviceIdentifier("phone")!))
        #expect(fourth.status.pendingChanges == 0)
    }
}
