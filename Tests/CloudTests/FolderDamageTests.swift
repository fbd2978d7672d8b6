@testable import Cloud
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Half-written files, damage, duplicates and replaced files: none may lose or corrupt a value.
@Suite struct FolderDamageTests {
    typealias Data_ = FolderTestData
    let a = FolderTestData.deviceA
    let b = FolderTestData.deviceB

    func records(_ count: Int, _ device: DeviceIdentifier) -> [ChangeRecord] {
        (0 ..< count).map { Data_.record("key\($0 % 5)", $0 % 4 == 3 ? nil : "value \($0) ✓", UInt64(1000 + $0), device) }
    }

    @Test func aFileCutAtEveryByteOfItsLastRecordYieldsTheWholeRecordsThenTheRest() throws {
        let written = records(6, b)
        let complete = ChangeFileFormat.file(written)
        let lastStart = ChangeFileFormat.file(Array(written.dropLast())).count
        for cut in 0 ..< complete.count where cut < ChangeFileFormat.header.count || cut >= lastStart {
            let fixture = FolderFixture()
            let reader = try fixture.backend(a)
            try fixture.write(Array(complete[..<cut]), to: "bbbb.1.wlkv")
            let first = try reader.fetchChanges()
            #expect(first == (cut >= lastStart ? Array(written.dropLast()) : []), "cut at \(cut)")
            // The sync tool finishes the copy in place (same file, same inode).
            let handle = try FileHandle(forWritingTo: fixture.cloud.appendingPathComponent("bbbb.1.wlkv"))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(complete[cut...]))
            try handle.close()
            let rest = try reader.fetchChanges()
            #expect(rest == (cut >= lastStart ? [written.last!] : written), "cut at \(cut)")
            #expect(try reader.fetchChanges().isEmpty)
            #expect(reader.damagedRegionsSkipped == 0)
        }
    }

    @Test func randomDamageNeverCrashesAndNeverBecomesAValue() throws {
        let written = records(40, b)
        let complete = ChangeFileFormat.file(written)
        var generator = SeededRandomNumberGenerator(seed: 42)
        let fixture = FolderFixture()
        _ = try fixture.backend(a)
        for round in 0 ..< 300 {
            var damaged = complete
            switch round % 4 {
            case 0:  // flip a few bytes
                for _ in 0 ... Int.random(in: 0 ..< 4, using: &generator) {
                    damaged[Int.random(in: 0 ..< damaged.count, using: &generator)] ^= UInt8.random(in: 1 ... 255, using: &generator)
                }
            case 1:  // a run of zeros, as a sync tool's sparse preallocation leaves
                let start = Int.random(in: 0 ..< damaged.count, using: &generator)
                for index in start ..< min(damaged.count, start + Int.random(in: 1 ..< 200, using: &generator)) { damaged[index] = 0 }
            case 2:  // bytes inserted and removed
                let at = Int.random(in: 0 ..< damaged.count, using: &generator)
                damaged.insert(contentsOf: (0 ..< Int.random(in: 1 ..< 20, using: &generator)).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }, at: at)
                damaged.removeSubrange(Int.random(in: 0 ..< at + 1, using: &generator) ..< at)
            default:  // pure noise after a valid header
                damaged = ChangeFileFormat.header + (0 ..< Int.random(in: 0 ..< 2000, using: &generator)).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
            }
            try fixture.write(damaged, to: "bbbb.\(round).wlkv")
            let reader = try fixture.backend(a)
            let got = try reader.fetchChanges()
            #expect(Set(got).isSubset(of: Set(written)), "round \(round)")
            try FileManager.default.removeItem(at: fixture.cloud.appendingPathComponent("bbbb.\(round).wlkv"))
        }
    }

    @Test func oneDamagedRecordCostsOnlyThatRecord() throws {
        let written = records(10, b)
        var bytes = ChangeFileFormat.file(written)
        let fifthStart = ChangeFileFormat.file(Array(written.prefix(4))).count
        bytes[fifthStart + 12] ^= 0xFF  // inside the fifth record's body
        let fixture = FolderFixture()
        let reader = try fixture.backend(a)
        try fixture.write(bytes, to: "bbbb.1.wlkv")
        var expected = written
        expected.remove(at: 4)
        #expect(try reader.fetchChanges() == expected)
        #expect(reader.damagedRegionsSkipped == 1)
    }

    @Test func conflictCopiesAndDuplicatesChangeNothing() throws {
        let fixture = FolderFixture()
        let writer = try fixture.backend(b)
        try writer.append(records(20, b))
        let plain = MergedChanges(try fixture.backend(a).fetchChanges())
        let original = try fixture.bytes(of: "bbbb.1.wlkv")
        try fixture.write(original, to: "bbbb.1.sync-conflict-20261122-101010-ABCDEFG.wlkv")
        try fixture.write(original, to: "bbbb.1 (conflicted copy).wlkv")
        try fixture.write(Array(original.prefix(30)), to: ".syncthing.bbbb.1.wlkv.tmp")  // a temporary: skipped
        let reader = try fixture.backend(a)
        let withCopies = try reader.fetchChanges()
        #expect(withCopies.count == 60)
        #expect(MergedChanges(withCopies) == plain)
        // The writer keeps appending to its own generation, never to a conflict copy.
        try writer.append([Data_.record("key0", "newest", 5000, b)])
        #expect(try reader.fetchChanges() == [Data_.record("key0", "newest", 5000, b)])
        #expect(try fixture.bytes(of: "bbbb.1 (conflicted copy).wlkv") == original)
    }

    @Test func aFileReplacedUnderItsNameIsReadAgainFromTheStart() throws {
        let fixture = FolderFixture()
        let reader = try fixture.backend(a)
        let first = records(8, b)
        try fixture.write(ChangeFileFormat.file(first), to: "bbbb.1.wlkv")
        #expect(try reader.fetchChanges() == first)
        // A sync tool renames a fresh copy over it: a new inode, here with other records.
        let replacement = [Data_.record("other", "x", 9000, b), Data_.record("key1", "y", 9001, b)]
        let temporary = fixture.cloud.appendingPathComponent(".syncthing.tmp")
        try Data(ChangeFileFormat.file(replacement)).write(to: temporary)
        #expect(rename(temporary.path, fixture.cloud.appendingPathComponent("bbbb.1.wlkv").path) == 0)
        #expect(try reader.fetchChanges() == replacement)
        // Shorter in place (same inode): read again from the start too.
        let shorter = [Data_.record("short", "z", 9100, b)]
        let handle = try FileHandle(forWritingTo: fixture.cloud.appendingPathComponent("bbbb.1.wlkv"))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(ChangeFileFormat.file(shorter)))
        try handle.close()
        #expect(try reader.fetchChanges() == shorter)
    }

    @Test func aTornTailIsNeverAppendedToTheWriterMovesToANewGeneration() throws {
        let fixture = FolderFixture()
        let writer = try fixture.backend(b)
        let before = records(3, b)
        try writer.append(before)
        // A process of this device was killed halfway through a write.
        let torn = Array(ChangeFileFormat.file([Data_.record("half", "written", 7000, b)]).dropFirst(8).prefix(15))
        let handle = try FileHandle(forWritingTo: fixture.cloud.appendingPathComponent("bbbb.1.wlkv"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(torn))
        try handle.close()
        let after = [Data_.record("after", "crash", 8000, b)]
        try FolderBackend(folder: fixture.cloud, device: b).append(after)
        #expect(fixture.changeFileNames == ["bbbb.1.wlkv", "bbbb.2.wlkv"])
        #expect(Set(try fixture.backend(a).fetchChanges()) == Set(before + after))
    }
}
