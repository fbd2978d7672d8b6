@testable import Cloud
import Foundation
import Testing

@Suite struct FolderCompactionTests {
    typealias Data_ = FolderTestData
    let a = FolderTestData.deviceA
    let b = FolderTestData.deviceB

    @Test func compactionKeepsTheNewestPerKeyAndShrinksTheFiles() throws {
        let fixture = FolderFixture()
        let backend = try fixture.backend(a)
        let other = try fixture.backend(b)
        var written: [ChangeRecord] = []
        for index in 0 ..< 500 {
            written.append(Data_.record("k\(index % 10)", index % 50 == 49 ? nil : "value number \(index)", UInt64(index + 1), a))
        }
        for chunk in stride(from: 0, to: written.count, by: 25) { try backend.append(Array(written[chunk ..< chunk + 25])) }
        try other.append([Data_.record("b-key", "b", 1, b)])
        let othersBytes = try fixture.bytes(of: "bbbb.1.wlkv")
        let sizeBefore = try fixture.bytes(of: "aaaa.1.wlkv").count
        let merged = MergedChanges(try backend.fetchChanges())
        backend.compact(latest: merged)

        #expect(fixture.changeFileNames == ["aaaa.2.wlkv", "bbbb.1.wlkv"])
        let compacted = FolderReader.readWhole(path: fixture.cloud.appendingPathComponent("aaaa.2.wlkv").path)!
        #expect(compacted.count == 10)
        #expect(Set(compacted) == Set(MergedChanges(written).latest.values))
        #expect(try fixture.bytes(of: "aaaa.2.wlkv").count * 10 < sizeBefore)
        #expect(try fixture.bytes(of: "bbbb.1.wlkv") == othersBytes)
        // A reader that saw the old generation sees duplicates only; a new one the same state.
        var again = merged
        #expect(again.merge(try backend.fetchChanges()).isEmpty)
        #expect(MergedChanges(try fixture.backend(DeviceIdentifier("cccc")!).fetchChanges()) == merged)
        // Writing goes on in the new generation.
        try backend.append([Data_.record("k0", "after", 10_000, a)])
        #expect(try other.fetchChanges().contains(Data_.record("k0", "after", 10_000, a)))
        #expect(fixture.changeFileNames == ["aaaa.2.wlkv", "bbbb.1.wlkv"])
    }

    @Test func fewRecordsPerKeyAreLeftAlone() throws {
        let fixture = FolderFixture()
        let backend = try fixture.backend(a)
        for index in 0 ..< 60 { try backend.append([Data_.record("k\(index)", "v", UInt64(index + 1), a)]) }
        backend.compact(latest: MergedChanges(try backend.fetchChanges()))
        #expect(fixture.changeFileNames == ["aaaa.1.wlkv"])
    }

    @Test func ownRecordsAnotherDeviceSupersededAreDropped() throws {
        let fixture = FolderFixture()
        let backend = try FolderBackend(folder: fixture.cloud, device: a, options: .init(compactionFactor: 1, compactionSlack: 0))
        try backend.append([Data_.record("shared", "mine", 10, a), Data_.record("shared", "mine again", 11, a),
                            Data_.record("own", "kept", 12, a), Data_.record("own", "kept newer", 13, a)])
        try fixture.backend(b).append([Data_.record("shared", "theirs", 20, b)])
        let merged = MergedChanges(try backend.fetchChanges())
        backend.compact(latest: merged)
        #expect(FolderReader.readWhole(path: fixture.cloud.appendingPathComponent("aaaa.2.wlkv").path)! == [Data_.record("own", "kept newer", 13, a)])
        #expect(MergedChanges(try fixture.backend(DeviceIdentifier("cccc")!).fetchChanges()) == merged)
    }

    @Test func anInstanceHoldingTheOldGenerationAppendsToTheNewOne() throws {
        let fixture = FolderFixture()
        let first = try fixture.backend(a)
        let second = try FolderBackend(folder: fixture.cloud, device: a, options: .init(compactionFactor: 1, compactionSlack: 0))
        for index in 0 ..< 10 { try first.append([Data_.record("k", "v\(index)", UInt64(index + 1), a)]) }
        second.compact(latest: MergedChanges(try second.fetchChanges()))
        #expect(fixture.changeFileNames == ["aaaa.2.wlkv"])
        try first.append([Data_.record("k", "late", 100, a)])  // its open file was deleted
        #expect(fixture.changeFileNames == ["aaaa.2.wlkv"])
        #expect(try fixture.backend(b).fetchChanges().contains(Data_.record("k", "late", 100, a)))
    }
}
