import Foundation
import Restoration
import Testing
@testable import WonderlandApp

/// An archive a newer version wrote is kept for that version: moved aside unchanged, the user
/// told once, and never overwritten by this version's saves.
@Suite("Archives from a newer version, and archives that are not files")
struct NewerArchiveTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-newer-\(UUID().uuidString)")
    var files: RestorationFiles { RestorationFiles(folder: folder) }

    func newerArchive() throws -> Data {
        let header = RestorationHeader(formatVersion: RestorationEngine.formatVersion + 1, appVersion: "future",
                                       timestamp: Date(), terminalColumns: 80, terminalRows: 24)
        let root = RootScreen.make()
        root.select(2)
        return try RootScreen.restorationEngine().preserve(root: root, header: header).data
    }

    func kept(_ label: String) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("restoration.archive.\(label)-") }
            .map { folder.appendingPathComponent($0) }
    }

    @Test func aNewerArchiveIsKeptUnchangedAndTheUserToldOnce() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = try newerArchive()
        try files.writeArchive(data)

        let launch = Launch(files: files)
        try launch.settle()
        #expect(launch.root.selectedIndex == 0)
        #expect(launch.lines.contains { $0.contains("Starting fresh") })
        #expect(launch.lines.joined(separator: " ").contains("newer version"))
        let aside = try kept("for")
        #expect(aside.map(\.lastPathComponent) == ["restoration.archive.for-future"])
        #expect(try Data(contentsOf: aside[0]) == data)
        #expect(files.readLog().contains { $0.contains("written by wonderland future, which this one cannot read; it is kept, unchanged, as \(aside[0].path) for that version") })

        try launch.press(.enter, .character("3"))
        try launch.quit()
        let saved = try #require(try files.readArchive())
        #expect(saved != data)
        #expect(try Data(contentsOf: aside[0]) == data)

        let next = Launch(files: files)
        try next.settle()
        #expect(next.root.selectedIndex == 2)
        #expect(!next.lines.contains { $0.contains("Starting fresh") })
        #expect(try kept("for").count == 1)
        #expect(try RootScreen.restorationEngine().header(of: saved).keptBeside == "future", "the saves name what is kept")
    }

    @Test func anOlderArchiveIsNotKeptAsNewer() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let header = RestorationHeader(formatVersion: RestorationEngine.formatVersion - 1, appVersion: "old",
                                       timestamp: Date(), terminalColumns: 80, terminalRows: 24)
        try files.writeArchive(try RootScreen.restorationEngine().preserve(root: RootScreen.make(), header: header).data)
        let launch = Launch(files: files)
        try launch.settle()
        #expect(try kept("newer").isEmpty)
        #expect(!launch.lines.contains { $0.contains("Starting fresh") })
    }

    @Test func aFIFOArchiveIsMovedAsideWithoutBlockingTheLaunch() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect(mkfifo(files.archive.path, 0o600) == 0)
        let launch = Launch(files: files)
        try launch.settle()
        #expect(launch.lines.contains { $0.contains("Starting fresh") })
        #expect(try kept("corrupt").count == 1)
        #expect(files.readLog().contains { $0.contains("launch: not restored: the archive is a FIFO (named pipe), not a regular file") })
    }
}
