import Cloud
import PropertyList
import Testing

@Suite struct MergeOrderTests {
    let deviceA = DeviceIdentifier("aaaa")!
    let deviceB = DeviceIdentifier("bbbb")!

    func record(_ key: String, _ value: String?, _ ms: UInt64, _ counter: UInt16 = 0, _ device: DeviceIdentifier) throws -> ChangeRecord {
        try ChangeRecord(key: key, value: value.map { .string($0) }, stamp: ChangeStamp(clock: HybridTimestamp(milliseconds: ms, counter: counter), device: device))
    }

    @Test func laterClockWinsWhateverTheArrivalOrder() throws {
        let early = try record("k", "early", 100, 0, deviceB)
        let late = try record("k", "late", 200, 0, deviceA)
        #expect(try MergedChanges([early, late]).record(forKey: "k")?.value() == .string("late"))
        #expect(try MergedChanges([late, early]).record(forKey: "k")?.value() == .string("late"))
    }

    @Test func equalClocksAreSettledByTheDevice() throws {
        let fromA = try record("k", "a", 100, 3, deviceA)
        let fromB = try record("k", "b", 100, 3, deviceB)
        #expect(try MergedChanges([fromB, fromA]).record(forKey: "k")?.value() == .string("b"))
        #expect(try MergedChanges([fromA, fromB]).record(forKey: "k")?.value() == .string("b"))
    }

    @Test func aLaterRemovalWinsAndDuplicatesChangeNothing() throws {
        let set = try record("k", "v", 100, 0, deviceA)
        let removal = try record("k", nil, 101, 0, deviceB)
        var merged = MergedChanges([set, removal, set, removal])
        #expect(merged.record(forKey: "k")?.isRemoval == true)
        #expect(merged.liveKeys.isEmpty)
        #expect(merged.merge([set, removal]).isEmpty)
    }

    @Test func theClockNeverGoesBackAndPassesWhatItSaw() {
        let wall = WallClockStub(1_000)
        let clock = HybridLogicalClock(wallMilliseconds: { wall.value })
        let first = clock.now()
        wall.value = 500  // the wall clock stepped back
        let second = clock.now()
        #expect(second > first)
        clock.observe(HybridTimestamp(milliseconds: 9_000, counter: 7))
        #expect(clock.now() > HybridTimestamp(milliseconds: 9_000, counter: 7))
    }
}

final class WallClockStub: @unchecked Sendable {
    var value: UInt64
    init(_ value: UInt64) { self.value = value }
}

@Suite struct SameStampTests {
    @Test func twoValuesWithOneStampHaveOneWinnerInEitherOrder() throws {
        let stamp = ChangeStamp(clock: HybridTimestamp(milliseconds: 5, counter: 0), device: DeviceIdentifier("same")!)
        let first = try ChangeRecord(key: "k", value: .string("first"), stamp: stamp)
        let second = try ChangeRecord(key: "k", value: .string("second"), stamp: stamp)
        let removal = ChangeRecord(key: "k", payload: nil, stamp: stamp)
        let orders = [[first, second, removal], [second, removal, first], [removal, first, second]]
        let winners = orders.map { MergedChanges($0).record(forKey: "k") }
        #expect(Set(winners.map { $0?.payload }).count == 1)
    }
}
