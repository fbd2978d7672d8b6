import FileSafety
import Foundation
import Testing

@Suite("Atomic writes that keep the replaced file's mode and owner")
struct AtomicFileKeepingTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-keeping-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func status(_ path: String) -> stat {
        var status = stat()
        _ = stat(path, &status)
        return status
    }

    @Test("the replaced file's mode is kept exactly, whatever the umask would give", arguments: [0o600, 0o644, 0o400, 0o2750] as [mode_t])
    func mode(_ mode: mode_t) throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("file").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        try #require(chmod(path, mode) == 0)
        let kept = try #require(ReplacedFileAttributes.of(path: path))
        try AtomicFile.write(Data("new".utf8), toPath: path, permissions: 0o666, makingFolder: false, keeping: kept)
        #expect(status(path).st_mode & 0o7777 == mode)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("new".utf8))
    }

    @Test("a privileged writer gives the new file the old one's owner and group", .enabled(if: getuid() == 0, "needs root"))
    func owner() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("theirs").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        try #require(chown(path, 65534, 65534) == 0)
        try AtomicFile.write(Data("new".utf8), toPath: path, keeping: ReplacedFileAttributes.of(path: path))
        #expect(status(path).st_uid == 65534 && status(path).st_gid == 65534)
    }

    @Test("there is nothing to keep of a file that is not there, or not a regular file")
    func nothingToKeep() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(ReplacedFileAttributes.of(path: folder.appendingPathComponent("missing").path) == nil)
        #expect(ReplacedFileAttributes.of(path: folder.path) == nil)
        #expect(ReplacedFileAttributes.of(path: "/dev/null") == nil)
    }
}
