import Cloud
import Foundation
import PropertyList
import Testing

/// Many writers at once, with clocks that disagree: every store ends with the same values, and
/// those are what a plain merge of every write ever made gives.
@Suite struct StoreConvergenceTests {
    @Test func devicesWithSkewedClocksWritingAtOnceConverge() throws {
        let cloud = InMemoryCloud()
        let skews: [Int64] = [-3_600_000, 0, 45_000, 3_600_000]
        let stores = skews.enumerated().map { index, skew in
            UbiquitousKeyValueStore(.init(backend: cloud.backend(), device: DeviceIdentifier("device-\(index)")!,
                                          wallMilliseconds: HybridLogicalClock.skewedSystemMilliseconds(by: skew), pollInterval: 0.05))
        }
        stores.forEach { $0.start() }
        DispatchQueue.concurrentPerform(iterations: stores.count) { index in
            var random = SeededRandomNumberGenerator(seed: UInt64(index + 1))
            for step in 0..<300 {
                let key = "k\(random.next() % 8)"
                if random.next() % 5 == 0 {
                    stores[index].removeObject(forKey: key)
                } else {
                    stores[index].set(.string("\(index)-\(step)"), forKey: key)
                }
            }
        }
        stores.forEach { $0.stop() }
        stores.forEach { #expect($0.synchronize()) }
        let reference = MergedChanges(cloud.allRecords)
        var expected: [String: PropertyListValue] = [:]
        for key in reference.liveKeys { expected[key] = try reference.record(forKey: key)?.value() }
        for store in stores {
            #expect(store.dictionaryRepresentation == expected)
        }
    }

    @Test func aDeviceThatSawAChangeStampsItsNextOneLaterWhateverItsClock() {
        let cloud = InMemoryCloud()
        let ahead = UbiquitousKeyValueStore(.init(backend: cloud.backend(), device: DeviceIdentifier("ahead")!,
                                                  wallMilliseconds: HybridLogicalClock.skewedSystemMilliseconds(by: 86_400_000)))
        let behind = UbiquitousKeyValueStore(.init(backend: cloud.backend(), device: DeviceIdentifier("behind")!,
                                                   wallMilliseconds: HybridLogicalClock.skewedSystemMilliseconds(by: -86_400_000)))
        ahead.set(.string("from the future"), forKey: "pin")
        ahead.synchronize()
        behind.synchronize()
        behind.set(.string("made after seeing it"), forKey: "pin")
        behind.synchronize()
        ahead.synchronize()
        #expect(ahead.object(forKey: "pin") == .string("made after seeing it"))
        #expect(behind.object(forKey: "pin") == .string("made after seeing it"))
    }

    @Test func twoInstancesOfOneMachineShareTheirLocalCopy() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-replica-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = LocalReplicaFile(url: folder.appendingPathComponent("synced-store.plist"))
        let cloud = InMemoryCloud()
        let first = UbiquitousKeyValueStore(.init(backend: cloud.backend(), replicaFile: file))
        first.synchronize()
        let second = UbiquitousKeyValueStore(.init(backend: cloud.backend(), replicaFile: file))
        #expect(second.device == first.device)
        first.set(.integer(1), forKey: "one")
        second.set(.integer(2), forKey: "two")
        first.stop()
        second.stop()
        let third = UbiquitousKeyValueStore(.init(backend: cloud.backend(), replicaFile: file))
        #expect(third.dictionaryRepresentation == ["one": .integer(1), "two": .integer(2)])
    }
}

