@testable import Cloud
import Foundation
import PropertyList
import Testing

/// A change stamped later than any real clock reads would win every merge for its key, and at
/// the top of the range wrap this device's clock to zero: it is skipped, and this device's own
/// later change to the key still wins everywhere.
@Suite struct ForgedClockTests {
    let me = FolderTestData.deviceA
    let peer = FolderTestData.deviceB

    @Test func aClockNoRealClockReadsIsSkippedAndNamed() throws {
        let forged = ChangeRecord(key: "HPLocation", payload: try BinaryPropertyListWriter.data(from: .string("forever")),
                                  stamp: ChangeStamp(clock: HybridTimestamp(rawValue: .max), device: peer))
        guard case .failure(.clockPastAnyClock) = ReceivedChangeCheck.value(of: forged, limits: .apple) else {
            Issue.record("a change stamped UInt64.max was accepted")
            return
        }
        let removal = ChangeRecord(key: "HPLocation", payload: nil,
                                   stamp: ChangeStamp(clock: HybridTimestamp(milliseconds: HybridLogicalClock.latestHonestMilliseconds + 1, counter: 0), device: peer))
        guard case .failure(.clockPastAnyClock) = ReceivedChangeCheck.value(of: removal, limits: .apple) else {
            Issue.record("a removal stamped past any clock was accepted")
            return
        }
        let honest = ChangeRecord(key: "HPLocation", payload: nil,
                                  stamp: ChangeStamp(clock: HybridTimestamp(milliseconds: HybridLogicalClock.latestHonestMilliseconds, counter: 9), device: peer))
        #expect(throws: Never.self) { try ReceivedChangeCheck.value(of: honest, limits: .apple).get() }
    }

    @Test func theClockIgnoresAForgedReadingAndKeepsMovingForward() {
        let clock = HybridLogicalClock(wallMilliseconds: { 1_000 })
        let before = clock.now()
        clock.observe(HybridTimestamp(rawValue: .max))
        let after = clock.now()
        #expect(after > before)
        #expect(after.milliseconds == 1_000)
    }

    @Test func thisDevicesLaterChangeWinsOverAForgedOne() throws {
        let fixture = FolderFixture()
        let store = try fixture.store(me)
        let forged = ChangeRecord(key: "pin", payload: try BinaryPropertyListWriter.data(from: .string("forged")),
                                  stamp: ChangeStamp(clock: HybridTimestamp(rawValue: .max), device: peer))
        try FileManager.default.createDirectory(at: fixture.cloud, withIntermediateDirectories: true)
        try fixture.write(ChangeFileFormat.file([forged]), to: "bbbb.1.wlkv")
        #expect(store.synchronize())
        #expect(store.object(forKey: "pin") == nil)
        #expect(store.status.lastSkipped.first?.description.contains("later than any real clock") == true)
        store.set(.string("mine"), forKey: "pin")
        #expect(store.synchronize())
        let other = try fixture.store(FolderTestData.deviceC)
        #expect(other.synchronize())
        #expect(other.object(forKey: "pin") == .string("mine"))
    }
}
