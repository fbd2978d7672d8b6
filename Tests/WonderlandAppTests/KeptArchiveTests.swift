import Foundation
import KeyedArchive
import Restoration
import Testing
@testable import WonderlandApp

/// A screen of a later version: an identifier and a restoration class this one lacks.
private final class FuturePanel: Restorable {
    var restorationIdentifier: String? { "FuturePanel" }
    var restorationClassName: String? { "FuturePanel" }
    func encodeRestorableState(with coder: KeyedArchiver) throws { try coder.encode("kept", forKey: "state") }
}

/// An archive this version cannot read whole is never written over: it is kept for the
/// version that wrote it, which takes it back when started again, keeping this one's in turn.
@Suite("Archives kept for another version")
struct KeptArchiveTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-kept-\(UUID().uuidString)")
    var files: RestorationFiles { RestorationFiles(folder: folder) }

    func laterArchive(version: String) throws -> Data {
        let header = RestorationHeader(appVersion: version, timestamp: Date(), terminalColumns: 80, terminalRows: 24)
        let root = RootScreen.make()
        root.select(1)
        return try RootScreen.restorationEngine().preserve(root: root, modals: [FuturePanel()], header: header).data
    }

    func header(_ data: Data?) throws -> RestorationHeader {
        try RootScreen.restorationEngine().header(of: try #require(data))
    }

    @Test func anArchiveWithScreensThisVersionLacksIsKeptForItsVersionAndTakenBackByIt() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let later = try laterArchive(version: "0.9.0")
        try files.writeArchive(later)

        let older = Launch(files: files, appVersion: "0.5.0")
        try older.settle()
        #expect(older.root.selectedIndex == 1, "what it knows is restored")
        try older.press(.character("1"))
        try older.quit()
        #expect(try files.readKeptArchive(forVersion: "0.9.0") == later, "kept byte for byte")
        #expect(try header(files.readArchive()).keptBeside == "0.9.0")
        #expect(try header(files.readArchive()).appVersion == "0.5.0")

        // Another save of the older version keeps the same file, not its own archive.
        let again = Launch(files: files, appVersion: "0.5.0")
        try again.settle()
        #expect(again.root.selectedIndex == 0)
        try again.press(.character("3"))
        try again.quit()
        #expect(try files.readKeptArchive(forVersion: "0.9.0") == later)

        // The later version, back: its own archive, and the older one's kept for it.
        let olderSaved = try files.readArchive()
        let back = Launch(files: files, appVersion: "0.9.0")
        try back.settle()
        #expect(back.root.selectedIndex == 1)
        try back.quit()
        #expect(try files.readKeptArchive(forVersion: "0.5.0") == olderSaved)
        #expect(try files.readKeptArchive(forVersion: "0.9.0") == nil, "taken back")
        #expect(try header(files.readArchive()).appVersion == "0.9.0")
        #expect(try header(files.readArchive()).keptBeside == "0.5.0")

        // And the older version once more takes its own.
        let down = Launch(files: files, appVersion: "0.5.0")
        try down.settle()
        #expect(down.root.selectedIndex == 2, "its own last place (the Book tab)")
    }

    @Test func anArchiveThisVersionReadsWholeIsSavedOverAsBefore() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = Launch(files: files, appVersion: "0.5.0")
        try first.press(.character("2"))
        try first.quit()
        let second = Launch(files: files, appVersion: "0.5.0")
        try second.settle()
        try second.press(.character("3"))
        try second.quit()
        #expect(files.keptVersions().isEmpty)
        #expect(try header(files.readArchive()).keptBeside == nil)
    }

    @Test func versionsAreOrderedByTheirNumbersAndOnlyVersionsNameFiles() {
        #expect(ArchiveVersions.isNewer("0.10.0", than: "0.9.1"))
        #expect(!ArchiveVersions.isNewer("0.4.0", than: "0.4.0"))
        #expect(ArchiveVersions.isNewer("1.0", than: "0.99.99"))
        #expect(!ArchiveVersions.isNewer("future", than: "0.4.0"))
        #expect(ArchiveVersions.safe("../../etc/passwd") == nil)
        #expect(ArchiveVersions.safe("0.5.0\u{1b}[2J") == nil)
        #expect(ArchiveVersions.safe(".hidden") == nil)
        #expect(ArchiveVersions.safe("0.5.0-beta+2") == "0.5.0-beta+2")
    }
}
