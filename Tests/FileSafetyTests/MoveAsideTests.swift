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

    @Test("the stamp is the UTC second, rounded down, as DateFormatter wrote it with yyyyMMdd'T'HHmmss'Z'",
          arguments: [
              (0.0, "19700101T000000Z"),
              (-0.5, "19691231T235959Z"),
              (951_782_399.999, "20000228T235959Z"),
              (1_800_000_000.25, "20270115T080000Z"),
              (253_402_300_800, "100000101T000000Z"),
              (-12_219_292_800, "15821015T000000Z"),
          ])
    func stamp(secondsSince1970: Double, expected: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-aside-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("defaults.plist")
        try Data("x".utf8).write(to: file)
        let moved = try AtomicFile.moveAside(file, label: "corrupt", now: Date(timeIntervalSince1970: secondsSince1970))
        #expect(moved.lastPathComponent == "defaults.plist.corrupt-\(expected)")
    }
}
