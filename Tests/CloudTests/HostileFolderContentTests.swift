@testable import Cloud
import Foundation
import PropertyList
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What else a sync folder or this machine's data folder may hold: files in a newer format,
/// FIFOs, links to devices, huge files, and the marker of a launch that died applying a change.
@Suite struct HostileFolderContentTests {
    let me = FolderTestData.deviceA
    let peer = FolderTestData.deviceB

    func body(_ records: [ChangeRecord]) -> [UInt8] {
        Array(ChangeFileFormat.file(records).dropFirst(ChangeFileFormat.header.count))
    }

    /// Our magic with format 2, and records this build could otherwise read.
    func newerFile(_ records: [ChangeRecord]) -> [UInt8] {
        [0x57, 0x4C, 0x4B, 0x56, 0x02, 0x00, 0x00, 0x00] + body(records)
    }

    @Test func aChangeFileInANewerFormatIsLeftAsItIsAndNamedOnce() throws {
        let fixture = FolderFixture()
        try FileManager.default.createDirectory(at: fixture.cloud, withIntermediateDirectories: true)
        let newer = newerFile([FolderTestData.record("k", "from the future", 1000, peer)])
        try fixture.write(newer, to: "bbbb.1.wlkv")
        try fixture.write(ChangeFileFormat.file([FolderTestData.record("ok", "fine", 1000, FolderTestData.deviceC)]), to: "cccc.1.wlkv")
        let store = try fixture.store(me)
        #expect(store.synchronize())
        #expect(store.dictionaryRepresentation == ["ok": .string("fine")])
        #expect(store.status.readProblems == ["bbbb.1.wlkv: written in format 2, newer than this Wonderland reads; it is left as it is"])
        #expect(store.takeWarnings().filter { $0.contains("bbbb.1.wlkv") }.count == 1)
        #expect(store.synchronize())
        #expect(store.takeWarnings().isEmpty)
        #expect(try fixture.bytes(of: "bbbb.1.wlkv") == newer)
    }

    @Test func ourOwnGenerationInANewerFormatIsNeitherAppendedToNorCompactedAway() throws {
        let fixture = FolderFixture()
        try FileManager.default.createDirectory(at: fixture.cloud, withIntermediateDirectories: true)
        let newer = newerFile([FolderTestData.record("k", "newer build", 1000, me)])
        try fixture.write(newer, to: "aaaa.1.wlkv")
        let backend = try FolderBackend(folder: fixture.cloud, device: me, options: .init(compactionFactor: 1, compactionSlack: 0))
        let store = UbiquitousKeyValueStore(.init(backend: backend, device: me))
        for round in 0 ..< 4 {
            store.set(.integer(Int64(round)), forKey: "count")
            #expect(store.synchronize())
        }
        #expect(try fixture.bytes(of: "aaaa.1.wlkv") == newer)
        #expect(fixture.changeFileNames.contains("aaaa.1.wlkv"))
        let other = try fixture.store(FolderTestData.deviceC)
        #expect(other.synchronize())
        #expect(other.object(forKey: "count") == .integer(3))
    }

    @Test func aFIFOALinkToADeviceAndAHugeFileAreNotReadAndSayWhy() throws {
        let fixture = FolderFixture()
        try FileManager.default.createDirectory(at: fixture.cloud, withIntermediateDirectories: true)
        #expect(mkfifo(fixture.cloud.appendingPathComponent("dddd.1.wlkv").path, 0o600) == 0)
        #expect(symlink("/dev/zero", fixture.cloud.appendingPathComponent("eeee.1.wlkv").path) == 0)
        let huge = fixture.cloud.appendingPathComponent("ffff.1.wlkv").path
        #expect(FileManager.default.createFile(atPath: huge, contents: Data(ChangeFileFormat.header)))
        #expect(truncate(huge, off_t(FolderReader.maximumFileSize + 1)) == 0)  // sparse: costs no disk
        try fixture.write(ChangeFileFormat.file([FolderTestData.record("ok", "fine", 1000, peer)]), to: "bbbb.1.wlkv")
        let store = try fixture.store(me)
        #expect(store.synchronize())
        #expect(store.dictionaryRepresentation == ["ok": .string("fine")])
        let problems = store.status.readProblems
        #expect(problems.count == 3)
        #expect(problems.contains("dddd.1.wlkv: not a regular file"))
        #expect(problems.contains("eeee.1.wlkv: not a regular file"))
        #expect(problems.contains { $0.hasPrefix("ffff.1.wlkv: \(FolderReader.maximumFileSize + 1) bytes") })
        // A FIFO under this device's own name cannot block a write either.
        #expect(mkfifo(fixture.cloud.appendingPathComponent("aaaa.1.wlkv").path, 0o600) == 0)
        store.set(.string("here"), forKey: "mine")
        #expect(store.synchronize() == false)
        #expect(store.status.problem?.contains("aaaa.1.wlkv") == true)
    }

    @Test func damageCraftedToLookLikeRecordsEverywhereEndsWithinTheBudget() throws {
        // Every 32 bytes a record frame that parses, with a wrong checksum, claiming a body
        // that runs to the end: checking each would cost the rest of the file, 16 GB of
        // checksums in all, without the budget.
        let size = 1 << 20, spacing = 32
        var bytes = ChangeFileFormat.header + [UInt8](repeating: 0, count: size)
        var position = ChangeFileFormat.header.count
        while position + spacing <= bytes.count {
            let length = UInt32(bytes.count - position - ChangeFileFormat.frameSize)
            let frame: [UInt8] = withUnsafeBytes(of: length.bigEndian, Array.init) + [0, 0, 0, 0]  // the wrong checksum
                + [0, 0] + [UInt8](repeating: 0, count: 8) + [1, UInt8(ascii: "a"), 0]  // no key, clock 0, device "a"
            bytes.replaceSubrange(position ..< position + frame.count, with: frame)
            position += spacing
        }
        var scanner = ChangeFileScanner()
        scanner.resyncBudget = 1 << 20
        let result = bytes.withUnsafeBytes { scanner.scan($0, fileOffset: 0) }
        #expect(result.records.isEmpty)
        #expect(result.damagedRegions >= 1)
        #expect(result.consumedTo <= bytes.count)
    }

    @Test func aLaunchThatDiedApplyingAChangeMakesTheNextOneSkipExactlyThatChange() throws {
        let fixture = FolderFixture()
        try FileManager.default.createDirectory(at: fixture.cloud, withIntermediateDirectories: true)
        let fatal = FolderTestData.record("pin", "fatal", 2000, peer)
        try fixture.write(ChangeFileFormat.file([FolderTestData.record("pin", "Paris", 1000, peer), fatal,
                                                 FolderTestData.record("other", "kept", 2001, peer)]), to: "bbbb.1.wlkv")
        // What a launch that died applying `fatal` leaves: its marker, naming the change.
        let copy = fixture.replicaFile(me).url
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        let dead = try deadProcessIdentifier()
        let marker = copy.deletingLastPathComponent().appendingPathComponent("copy.plist.applying-\(dead)-1")
        let entry = ApplyGuard.Entry(identity: ChangeIdentity(fatal), origin: "bbbb.1.wlkv at byte 60")
        try Data((entry.line + "tail of a longer line before\n").utf8).write(to: marker)

        let first = try fixture.store(me)
        let warnings = first.takeWarnings()
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("stopped while applying") == true)
        #expect(warnings.first?.contains("\"pin\" from device bbbb (bbbb.1.wlkv at byte 60)") == true)
        #expect(!FileManager.default.fileExists(atPath: marker.path))
        #expect(first.synchronize())
        #expect(first.object(forKey: "pin") == .string("Paris"))
        #expect(first.object(forKey: "other") == .string("kept"))
        #expect(first.status.lastSkipped.map(\.reason) == [.stoppedTheLastLaunch])
        first.stop()

        // The launch after: still skipped (the quarantine is kept), nothing more to tell.
        let second = try fixture.store(me)
        #expect(second.takeWarnings().isEmpty)
        #expect(second.synchronize())
        #expect(second.object(forKey: "pin") == .string("Paris"))
        #expect(second.status.skippedChanges == 1)
        #expect(second.status.lastSkipped.first?.key == "pin")
        // A pass leaves no marker behind.
        let left = try FileManager.default.contentsOfDirectory(atPath: copy.deletingLastPathComponent().path)
        #expect(!left.contains { $0.contains(".applying-") })
    }

    @Test func aMarkerOfAProcessStillRunningIsNotItsToJudge() throws {
        let fixture = FolderFixture()
        let copy = fixture.replicaFile(me).url
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        let entry = ApplyGuard.Entry(identity: ChangeIdentity(FolderTestData.record("k", "v", 1, peer)), origin: nil)
        let marker = copy.deletingLastPathComponent().appendingPathComponent("copy.plist.applying-\(getpid())-999")
        try Data(entry.line.utf8).write(to: marker)
        let store = try fixture.store(me)
        #expect(store.takeWarnings().isEmpty)
        #expect(FileManager.default.fileExists(atPath: marker.path))
    }

    @Test func aLocalCopyInANewerFormatIsKeptByteForByte() throws {
        let fixture = FolderFixture()
        let file = fixture.replicaFile(me)
        try FileManager.default.createDirectory(at: file.url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let newer = try BinaryPropertyListWriter.data(from: .dictionary(["format": .integer(2), "device": .string("aaaa"), "anything": .string("else")]))
        try newer.write(to: file.url)
        let store = try fixture.store(me)
        #expect(store.takeWarnings().first?.contains("written by a newer Wonderland (format 2)") == true)
        store.set(.string("v"), forKey: "k")
        store.stop()
        let names = try FileManager.default.contentsOfDirectory(atPath: file.url.deletingLastPathComponent().path)
        let aside = try #require(names.first { $0.hasPrefix("copy.plist.newer-") })
        #expect(try Data(contentsOf: file.url.deletingLastPathComponent().appendingPathComponent(aside)) == newer)
        #expect(try LocalReplica(propertyList: BinaryPropertyListReader.read(Data(contentsOf: file.url))).changes.liveKeys == ["k"])
    }

    @Test func aLocalCopyThatIsAFIFOIsMovedAsideNotWaitedOn() throws {
        let fixture = FolderFixture()
        let file = fixture.replicaFile(me)
        try FileManager.default.createDirectory(at: file.url.deletingLastPathComponent(), withIntermediateDirectories: true)
        #expect(mkfifo(file.url.path, 0o600) == 0)
        let store = try fixture.store(me)
        #expect(store.takeWarnings().first?.contains("not a regular file") == true)
    }

    /// The id of a process that has ended (and been reaped), as a crashed launch's would be.
    private func deadProcessIdentifier() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }
}
