import Foundation
import Restoration
import Screens
import ScreensTesting
import Terminal
import Testing
@testable import WonderlandApp

/// One launch of the real screen tree with restoration, on a headless terminal, against a
/// private state folder: what `wonderland` does, minus the tty.
final class Launch: Pilot {
    let root: TabScreen
    let controller: RestorationController

    init(files: RestorationFiles, fresh: Bool = false, columns: Int = 80, rows: Int = 24, savesState: Bool = true, appVersion: String = "test") {
        let root = RootScreen.make()
        var configuration = RestorationController.Configuration(files: files, fresh: fresh, appVersion: appVersion)
        configuration.savesState = savesState
        let controller = RestorationController(configuration: configuration, engine: RootScreen.restorationEngine())
        self.root = root
        self.controller = controller
        super.init(root, columns: columns, rows: rows, observers: [controller])
    }
}

@Suite("Restoration in the app")
struct RestorationControllerTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-controller-\(UUID().uuidString)")
    var files: RestorationFiles { RestorationFiles(folder: folder) }

    /// Characters tab, filtered to the Cheshire Cat, notes editor with a half-typed note.
    private func goDeep(_ launch: Launch) throws {
        try launch.press(.character("2"), .character("/"))
        try launch.type("chesh")
        try launch.press(.enter, .character("e"))
        try launch.type("Grins, then")
    }

    @Test func theFirstFrameAfterARelaunchShowsTheSamePlace() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = Launch(files: files)
        try goDeep(first)
        try first.quit()

        let second = Launch(files: files, columns: 120, rows: 40)
        #expect(second.terminal.framesPresented == 1)
        #expect(second.lines[1] == " Characters › Cheshire Cat")
        let noteRow = try #require(second.lines.firstIndex(of: " Grins, then"))
        #expect(second.lines[noteRow - 1].hasPrefix("─ Notes (editing"))
        #expect(second.terminal.frame.cursor == Point(x: 12, y: noteRow))
        #expect(!files.hasMarker)
        #expect(files.readLog().contains { $0.contains("launch: restored 6 screens") })
        // Esc saves the note; back from the restored detail lands on the same row of the list.
        try second.press(.escape, .escape)
        #expect(Array(second.lines[2...3]) == [" / chesh", "▸ Cheshire Cat  ch. 6 · Cheshire Puss, the Cat"])
    }

    @Test func suspendingSavesAndTheIdleTickSavesOnlyAfterAChange() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let launch = Launch(files: files)
        launch.app.becomeIdle()
        #expect(try files.readArchive() == nil)  // nothing changed since the first frame
        try launch.press(.character("3"))
        launch.app.becomeIdle()
        let afterChange = try #require(try files.readArchive())
        try FileManager.default.removeItem(at: files.archive)
        launch.app.becomeIdle()
        #expect(try files.readArchive() == nil)  // no new input, no write
        try launch.send(.wake)  // background news redraws, but the user has not moved
        launch.app.becomeIdle()
        #expect(try files.readArchive() == nil)
        try launch.press(.character("2"))
        launch.terminal.enqueue(.suspend)
        try launch.app.processPendingEvents()
        #expect(try files.readArchive() != nil)
        #expect(launch.terminal.suspendCount == 1)
        let restored = Launch(files: files)
        #expect(restored.root.selectedIndex == 1)
        #expect(try RootScreen.restorationEngine().describe(afterChange).nodes.first?.values.contains { $0.key == "selectedTab" && $0.value == .string("Book") } == true)
    }

    @Test(arguments: [TerminationReason.interrupt, .terminate, .hangup])
    func signalsThatEndTheAppSave(_ reason: TerminationReason) throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let launch = Launch(files: files)
        try launch.press(.character("3"))
        launch.terminal.enqueue(.terminate(reason))
        try launch.app.processPendingEvents()
        #expect(Launch(files: files).root.selectedIndex == 2)
    }

    @Test func freshStartsOnTheDefaultTabAndSaysWhy() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = Launch(files: files)
        try first.press(.character("3"))
        try first.quit()
        let fresh = Launch(files: files, fresh: true)
        #expect(fresh.root.selectedIndex == 0)
        #expect(files.readLog().last?.contains("--fresh") == true)
        #expect(try files.readArchive() != nil)  // kept until the next save
    }

    @Test func aCrashDuringRestoringSkipsRestoringOnceOnly() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = Launch(files: files)
        try first.press(.character("3"))
        try first.quit()
        try files.writeMarker()  // as if the last launch died between marker and first frame

        let afterCrash = Launch(files: files, savesState: false)
        try afterCrash.settle()
        #expect(afterCrash.root.selectedIndex == 0)
        #expect(afterCrash.lines.contains { $0.contains("Starting fresh") })
        #expect(!files.hasMarker)
        #expect(files.readLog().last?.contains("stopped while restoring") == true)

        let next = Launch(files: files)
        #expect(next.root.selectedIndex == 2)
    }

    @Test func aCorruptArchiveIsMovedAsideAndTheUserIsToldOnce() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try files.writeArchive(Data("this is not an archive".utf8))
        let launch = Launch(files: files)
        try launch.settle()
        #expect(launch.root.selectedIndex == 0)
        #expect(launch.lines.contains { $0.contains("Starting fresh") })
        let aside = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("restoration.archive.corrupt-") }
        #expect(aside.count == 1)
        #expect(try Data(contentsOf: folder.appendingPathComponent(aside[0])) == Data("this is not an archive".utf8))
        try launch.press(.enter)  // dismiss the alert
        try launch.quit()
        let next = Launch(files: files)
        try next.settle()
        #expect(!next.lines.contains { $0.contains("Starting fresh") })
    }

    @Test func anArchiveOfAnotherVersionIsLeftAloneAndNotRestored() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let header = RestorationHeader(formatVersion: 99, appVersion: "future", timestamp: Date(), terminalColumns: 80, terminalRows: 24)
        let data = try RootScreen.restorationEngine().preserve(root: RootScreen.make(), header: header).data
        try files.writeArchive(data)
        let launch = Launch(files: files, savesState: false)
        #expect(launch.root.selectedIndex == 0)
        #expect(files.readLog().contains { $0.contains("format version is 99") })
        #expect(files.readLog().last?.contains("the newer archive is left in place: this run never saves") == true)
        #expect(try files.readArchive() == data)
    }

    @Test func aFailedSaveKeepsThePreviousArchiveAndSaysSoOnce() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("a file, not a folder".utf8).write(to: folder.appendingPathComponent("blocked"))
        let blocked = RestorationFiles(folder: folder.appendingPathComponent("blocked/wonderland"))
        let launch = Launch(files: blocked)
        try launch.press(.character("3"))
        launch.app.becomeIdle()
        #expect(launch.controller.lastSaveError != nil)
        try launch.app.processPendingEvents()
        #expect(launch.lines.contains { $0.contains("Could not save your place") })
        try launch.press(.enter, .character("2"))
        launch.app.becomeIdle()
        try launch.app.processPendingEvents()
        #expect(!launch.lines.contains { $0.contains("Could not save your place") })
    }

    @Test func aReadOnlyRunRestoresButNeverWrites() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let launch = Launch(files: files, savesState: false)
        try launch.press(.character("3"))
        try launch.quit()
        #expect(try files.readArchive() == nil)
    }
}
