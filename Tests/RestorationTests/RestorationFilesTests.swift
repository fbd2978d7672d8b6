import FileSafety
import Foundation
import Restoration
import Testing

@Suite("Restoration files")
struct RestorationFilesTests {
    let folder: URL
    let files: RestorationFiles

    init() {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-files-\(UUID().uuidString)")
        files = RestorationFiles(folder: folder.appendingPathComponent("state/wonderland"))
    }

    func mode(_ url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test func theArchiveIsWrittenPrivatelyAndAtomically() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try files.writeArchive(Data("one".utf8))
        try files.writeArchive(Data("two".utf8))
        #expect(try files.readArchive() == Data("two".utf8))
        #expect(try mode(files.archive) == 0o600)
        #expect(try mode(files.folder) == 0o700)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: files.folder.path).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty)
    }

    @Test func noArchiveReadsAsNil() throws {
        #expect(try files.readArchive() == nil)
    }

    @Test func aCorruptArchiveIsMovedAsideNotDeleted() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try files.writeArchive(Data("garbage".utf8))
        let when = Date(timeIntervalSince1970: 1_800_000_000)
        let aside = try files.moveArchiveAside(now: when)
        #expect(aside.lastPathComponent == "restoration.archive.corrupt-20270115T080000Z")
        #expect(try Data(contentsOf: aside) == Data("garbage".utf8))
        #expect(try files.readArchive() == nil)
        try files.writeArchive(Data("again".utf8))
        let second = try files.moveArchiveAside(now: when)
        #expect(second.lastPathComponent.hasSuffix("-2"))
    }

    @Test func aWriteThatCannotHappenThrowsAndKeepsTheOldArchive() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        // A file where the folder should be fails even for root, unlike permissions.
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: folder.appendingPathComponent("blocked"))
        let blocked = RestorationFiles(folder: folder.appendingPathComponent("blocked/wonderland"))
        #expect(throws: AtomicFile.Failure.self) { try blocked.writeArchive(Data("new".utf8)) }
    }

    @Test func theMarkerComesAndGoes() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(!files.hasMarker)
        try files.writeMarker()
        #expect(files.hasMarker)
        files.removeMarker()
        #expect(!files.hasMarker)
    }

    @Test func resetKeepsOnePreviousArchive() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try files.reset() == false)
        try files.writeArchive(Data("saved".utf8))
        #expect(try files.reset())
        #expect(try files.readArchive() == nil)
        #expect(try Data(contentsOf: files.previous) == Data("saved".utf8))
    }

    @Test func theLogIsAppendedAndStaysSmall() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        files.appendLog(["first"])
        files.appendLog(["second", "third"])
        #expect(files.readLog().map { $0.split(separator: " ", maxSplits: 1).last.map(String.init) } == ["first", "second", "third"])
        let long = String(repeating: "x", count: 1000)
        for _ in 0..<200 { files.appendLog([long]) }
        let size = (try FileManager.default.attributesOfItem(atPath: files.log.path)[.size] as? NSNumber)?.intValue ?? 0
        #expect(size < 100 * 1024)
    }

    @Test func theStandardFolderFollowsXDG() {
        #expect(RestorationFiles.standard(environment: ["XDG_STATE_HOME": "/x/state", "HOME": "/home/a"]).folder.path == "/x/state/wonderland")
        #expect(RestorationFiles.standard(environment: ["HOME": "/home/a"]).folder.path == "/home/a/.local/state/wonderland")
        // A relative XDG path is invalid by the spec and ignored.
        #expect(RestorationFiles.standard(environment: ["XDG_STATE_HOME": "rel", "HOME": "/home/a"]).folder.path == "/home/a/.local/state/wonderland")
    }
}
