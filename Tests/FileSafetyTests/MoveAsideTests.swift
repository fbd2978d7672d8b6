import FileSafety
import Foundation
import Testing

@Suite("Moving files aside")
struct MoveAsideTests {
    @Test("a file moved aside in the same second as another never replaces it")
    func neverReplaces() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-aside-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("state.archive")
        let now = Date(timeIntervalSince1970: 1_800_000_000)

        try Data("first".utf8).write(to: file)
        let first = try AtomicFile.moveAside(file, label: "newer", now: now)
        try Data("second".utf8).write(to: file)
        let second = try AtomicFile.moveAside(file, label: "newer", now: now)

        #expect(first.lastPathComponent == "state.archive.newer-20270115T080000Z")
        #expect(second.lastPathComponent == "state.archive.newer-20270115T080000Z-2")
        #expect(try Data(contentsOf: first) == Data("first".utf8))
        #expect(try Data(contentsOf: second) == Data("second".utf8))
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test("a FIFO or a symlink is moved as itself; what a link points to is untouched")
    func specialFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-aside-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let fifo = folder.appendingPathComponent("fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let movedFIFO = try AtomicFile.moveAside(fifo, label: "corrupt")
        var status = stat()
        #expect(lstat(movedFIFO.path, &status) == 0 && FileKind(mode: status.st_mode) == .fifo)

        let link = folder.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/dev/zero")
        let movedLink = try AtomicFile.moveAside(link, label: "corrupt")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: movedLink.path) == "/dev/zero")
    }
}
