import FileSafety
import Foundation
import Restoration
import Testing

/// The restoration files against what may be found in their place: a FIFO, a device, a file
/// too big to be the app's, and an archive a newer version wrote.
@Suite("Restoration files that are not what they seem")
struct StateFileSafetyTests {
    let folder: URL
    let files: RestorationFiles

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-state-\(UUID().uuidString)")
        files = RestorationFiles(folder: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    @Test func aFIFOArchiveIsRefusedWithoutBlocking() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(mkfifo(files.archive.path, 0o600) == 0)
        #expect(throws: BoundedFile.Failure.notRegularFile(path: files.archive.path, kind: .fifo)) { try files.readArchive() }
    }

    @Test func anArchiveThatIsADeviceOrTooBigIsRefusedUnread() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(atPath: files.archive.path, withDestinationPath: "/dev/zero")
        #expect(throws: BoundedFile.Failure.notRegularFile(path: files.archive.path, kind: .characterDevice)) { try files.readArchive() }
        unlink(files.archive.path)
        let descriptor = open(files.archive.path, O_WRONLY | O_CREAT, 0o600)
        #expect(ftruncate(descriptor, 3 << 30) == 0)
        close(descriptor)
        #expect(throws: BoundedFile.Failure.tooLarge(path: files.archive.path, size: 3 << 30, limit: .restorationArchive)) {
            try files.readArchive()
        }
    }

    @Test func anArchiveTooBigToReadBackIsNeverWritten() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try files.writeArchive(Data("previous".utf8))
        #expect(throws: RestorationFiles.ArchiveTooLarge.self) {
            try files.writeArchive(Data(count: FileLimit.restorationArchive.bytes + 1))
        }
        #expect(try files.readArchive() == Data("previous".utf8))
    }

    @Test func aNewerArchiveIsMovedAsideByteForByte() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var header = testHeader
        header.formatVersion = RestorationEngine.formatVersion + 1
        let data = try preserve(FakeScreen("Root", value: "from the future"), header: header)
        try files.writeArchive(data)
        let error = try #require(throws: RestorationError.self) {
            try RestorationEngine(duplicatePolicy: .fail).restore(from: data, root: FakeScreen("Root"))
        }
        #expect(error.isNewerFormat)
        #expect(!error.isCorruption)

        let aside = try files.moveNewerArchiveAside(now: Date(timeIntervalSince1970: 1_800_000_000))
        #expect(aside.lastPathComponent == "restoration.archive.newer-20270115T080000Z")
        #expect(try Data(contentsOf: aside) == data)
        #expect(try files.readArchive() == nil)
        // A save of this version goes to the archive's own name, never the kept copy.
        try files.writeArchive(Data("this version".utf8))
        #expect(try Data(contentsOf: aside) == data)
    }

    @Test func anOlderFormatIsNotANewerOne() throws {
        var header = testHeader
        header.formatVersion = RestorationEngine.formatVersion - 1
        let data = try preserve(FakeScreen("Root"), header: header)
        let error = try #require(throws: RestorationError.self) {
            try RestorationEngine(duplicatePolicy: .fail).restore(from: data, root: FakeScreen("Root"))
        }
        #expect(!error.isNewerFormat)
    }

    @Test func aFIFOInPlaceOfTheLogNeitherBlocksNorIsWrittenTo() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(mkfifo(files.log.path, 0o600) == 0)
        files.appendLog(["launch: a line"])
        #expect(files.readLog() == ["(the log could not be read: it is a FIFO (named pipe), not a regular file)"])
    }

    @Test func aLogTooBigToReadIsStartedAgainWhenAppendedTo() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let descriptor = open(files.log.path, O_WRONLY | O_CREAT, 0o600)
        #expect(ftruncate(descriptor, 3 << 30) == 0)
        close(descriptor)
        #expect(files.readLog() == ["(the log could not be read: it is 3 GB, more than the 1 MB allowed for the restoration log)"])
        files.appendLog(["launch: after"])
        #expect(files.readLog().map { $0.split(separator: " ", maxSplits: 1).last.map(String.init) } == ["launch: after"])
    }
}
