@testable import Cloud
import Foundation
import PropertyList
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A peer's change file holding values no device may apply: each is skipped, counted and
/// named, and the good records around it still arrive.
@Suite struct HostileChangeTests {
    let me = FolderTestData.deviceA
    let peer = FolderTestData.deviceB

    func good(_ key: String, _ value: String, _ ms: UInt64) -> ChangeRecord {
        FolderTestData.record(key, value, ms, peer)
    }

    @Test func theCheckRefusesWhatNoDeviceWrites() throws {
        let limits = KeyValueStoreLimits.apple
        func reason(_ record: ChangeRecord) -> SkipReason? {
            if case .failure(let reason) = ReceivedChangeCheck.value(of: record, limits: limits) { return reason }
            return nil
        }
        if case .expandsTooFar(let why)? = reason(.raw("bomb", HostileValues.sharedReferenceBomb(), 1, peer)) {
            #expect(why.contains("expands to more than"))
        } else {
            Issue.record("the shared-reference bomb was not refused")
        }
        if case .notStorable(let why)? = reason(.raw("when", HostileValues.notANumberDate(), 1, peer)) {
            #expect(why.contains("not a number"))
        } else {
            Issue.record("the NaN date was not refused")
        }
        if case .valueTooLarge(_, let limit)? = reason(.raw("big", try BinaryPropertyListWriter.data(from: .data(Data(count: 1_100_000))), 1, peer)) {
            #expect(limit == 1_048_576)
        } else {
            Issue.record("an over-limit value was not refused")
        }
        #expect(reason(.raw(String(repeating: "k", count: 65), nil, 1, peer)) == .keyTooLong(bytes: 65, limit: 64))
        #expect(reason(.raw("", nil, 1, peer)) == .emptyKey)
        if case .notAPropertyList? = reason(.raw("junk", Data("not a plist at all".utf8), 1, peer)) {} else { Issue.record("garbage was not refused") }
        #expect(try ReceivedChangeCheck.value(of: good("k", "fine", 1), limits: limits).get() == .string("fine"))
        #expect(try ReceivedChangeCheck.value(of: .raw("k", nil, 1, peer), limits: limits).get() == nil)
    }

    @Test func whatThisDeviceWritesIsCheckedAsAReceiverWouldReadIt() {
        #expect(ReceivedChangeCheck.problem(writing: HostileValues.sharedValue())?.contains("expands to more than") == true)
        #expect(ReceivedChangeCheck.problem(writing: .array(Array(repeating: .boolean(true), count: 1_100_000))) != nil)
        #expect(ReceivedChangeCheck.problem(writing: .date(Date(timeIntervalSinceReferenceDate: .nan)))?.contains("not a number") == true)
        #expect(ReceivedChangeCheck.problem(writing: .dictionary(["a": .array([.integer(1), .date(Date())])])) == nil)
    }

    @Test func aCraftedChangeFileGivesItsGoodRecordsAndNamesTheRest() throws {
        let fixture = FolderFixture()
        let store = try fixture.store(me)
        let over = try BinaryPropertyListWriter.data(from: .data(Data(count: 1_100_000)))
        var bytes = ChangeFileFormat.file([
            good("first", "one", 1000),
            .raw("bomb", HostileValues.sharedReferenceBomb(), 1001, peer),
            good("second", "two", 1002),
            .raw("when", HostileValues.notANumberDate(), 1003, peer),
            .raw("huge", over, 1004, peer),
            .raw("junk", Data("garbage, not a plist".utf8), 1005, peer),
            good("third", "three", 1006),
        ])
        bytes += (0 ..< 300).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }  // garbage between records
        bytes += ChangeFileFormat.file([good("fourth", "four", 1007)]).dropFirst(ChangeFileFormat.header.count)
        let truncated = ChangeFileFormat.file([good("fifth", "five", 1008)]).dropFirst(ChangeFileFormat.header.count)
        bytes += truncated.prefix(truncated.count - 3)  // a record still arriving
        try FileManager.default.createDirectory(at: fixture.cloud, withIntermediateDirectories: true)
        try fixture.write(bytes, to: "bbbb.1.wlkv")

        #expect(store.synchronize())
        #expect(store.dictionaryRepresentation == ["first": .string("one"), "second": .string("two"), "third": .string("three"), "fourth": .string("four")])
        let status = store.status
        #expect(status.skippedChanges == 4)
        #expect(Set(status.lastSkipped.map(\.key)) == ["bomb", "when", "huge", "junk"])
        for skipped in status.lastSkipped {
            #expect(skipped.description.count <= SkippedChange.maximumLength)
            #expect(skipped.description.contains("bbbb.1.wlkv at byte "))
            #expect(skipped.description.contains("device bbbb"))
        }
        let bomb = try #require(status.lastSkipped.first { $0.key == "bomb" })
        #expect(bomb.description.contains("\"bomb\""))
        #expect(bomb.description.contains("expands to more than"))

        // The rest of the cut record arrives, and later changes still do.
        try fixture.append(Array(truncated.suffix(3)), to: "bbbb.1.wlkv")
        try fixture.append(Array(ChangeFileFormat.file([good("sixth", "six", 1009)]).dropFirst(ChangeFileFormat.header.count)), to: "bbbb.1.wlkv")
        #expect(store.synchronize())
        #expect(store.object(forKey: "fifth") == .string("five"))
        #expect(store.object(forKey: "sixth") == .string("six"))
        #expect(store.status.skippedChanges == 4)

        // Read again from the start at the next launch: the same four, counted once each.
        store.stop()
        let again = try fixture.store(me)
        #expect(again.synchronize())
        #expect(again.status.skippedChanges == 4)
        #expect(again.object(forKey: "bomb") == nil)
        #expect(again.object(forKey: "sixth") == .string("six"))
    }

    @Test func aSkippedValueDoesNotHideTheOlderGoodOne() throws {
        let fixture = FolderFixture()
        try FileManager.default.createDirectory(at: fixture.cloud, withIntermediateDirectories: true)
        try fixture.write(ChangeFileFormat.file([good("pin", "Paris", 1000), .raw("pin", HostileValues.sharedReferenceBomb(), 2000, peer)]),
                          to: "bbbb.1.wlkv")
        let store = try fixture.store(me)
        #expect(store.synchronize())
        #expect(store.object(forKey: "pin") == .string("Paris"))
        // A write here goes past the skipped change and reaches the folder.
        store.set(.string("Oxford"), forKey: "pin")
        #expect(store.synchronize())
        #expect(store.status.pendingChanges == 0)
        let other = try fixture.store(FolderTestData.deviceC)
        #expect(other.synchronize())
        #expect(other.object(forKey: "pin") == .string("Oxford"))
    }

    @Test func aWriteThatSharesItsPartsIsRefusedBeforeItIsWrittenOut() throws {
        let store = UbiquitousKeyValueStore(.init(backend: InMemoryCloud().backend(), device: me))
        #expect(throws: KeyValueStoreLimitError.self) { try store.setValues(["bomb": HostileValues.sharedValue()]) }
        #expect(store.object(forKey: "bomb") == nil)
        #expect(throws: KeyValueStoreLimitError.self) { try store.setValues(["when": .date(Date(timeIntervalSinceReferenceDate: .infinity))]) }
        #expect(store.processExternalChanges().allSatisfy { $0.reason == .quotaViolationChange })
    }

    @Test func changesOverTheStoresLimitsWaitForSpace() throws {
        let fixture = FolderFixture()
        try FileManager.default.createDirectory(at: fixture.cloud, withIntermediateDirectories: true)
        try fixture.write(ChangeFileFormat.file((0 ..< 5).map { good("k\($0)", "v\($0)", 1000 + UInt64($0)) }), to: "bbbb.1.wlkv")
        let store = try fixture.store(me, limits: KeyValueStoreLimits(maximumKeyCount: 3))
        #expect(store.synchronize())
        #expect(store.dictionaryRepresentation.keys.sorted() == ["k0", "k1", "k2"])
        #expect(store.status.skippedChanges == 2)
        #expect(store.status.lastSkipped.allSatisfy { if case .storeFull = $0.reason { true } else { false } })
        // The peer removes two keys: what waited fits now.
        try fixture.append(Array(ChangeFileFormat.file([.raw("k0", nil, 2000, peer), .raw("k1", nil, 2001, peer)])
            .dropFirst(ChangeFileFormat.header.count)), to: "bbbb.1.wlkv")
        #expect(store.synchronize())
        #expect(store.dictionaryRepresentation.keys.sorted() == ["k2", "k3", "k4"])
        #expect(store.status.skippedChanges == 0)
    }

    @Test func aCopyAnOlderBuildKeptWithTheBombInItIsCheckedToo() throws {
        let fixture = FolderFixture()
        let replica = LocalReplica(device: me, backend: try fixture.backend(me).displayName,
                                   changes: MergedChanges([.raw("bomb", HostileValues.sharedReferenceBomb(), 5, peer), good("ok", "fine", 6)]))
        try writeCopy(replica, to: fixture.replicaFile(me))
        let store = try fixture.store(me)
        #expect(store.object(forKey: "bomb") == nil)
        #expect(store.object(forKey: "ok") == .string("fine"))
        #expect(store.status.lastSkipped.first?.description.contains("this machine's copy") == true)
    }

    private func writeCopy(_ replica: LocalReplica, to file: LocalReplicaFile) throws {
        try FileManager.default.createDirectory(at: file.url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try BinaryPropertyListWriter.data(from: replica.propertyList()).write(to: file.url)
    }
}
