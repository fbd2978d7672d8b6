import Defaults
import Foundation
import PropertyList
import Screens
import ScreensTesting
import Settings
import StateAppKit
import Terminal
import Testing

/// One launch of the app on a headless terminal, with the same keepers as the real run,
/// against folders of the test's own.
final class Launch: Pilot {
    let keeper: StateKeeper

    init(folder: URL, store: PreferenceStore, observers: [ApplicationLifecycleObserver] = []) {
        let keeper = StateKeeper(folder: folder.appendingPathComponent("state"), engine: StateApp.restorationEngine(store: store))
        self.keeper = keeper
        super.init(StateApp.makeRoot(store: store), columns: 60, rows: 14, observers: observers + [keeper])
    }
}

@Suite("StateApp")
struct StateAppTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stateapp-\(UUID().uuidString)")

    @Test func aLineTypedIsReadBackOnAScreenOfItsOwn() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = Launch(folder: folder, store: InMemoryPreferenceStore())
        app.expectRow(0, equals: "  1 Draft   2 Lamp   3 Settings")
        try app.type("Light the lamp")
        app.expectRow(5, equals: " Line: Light the lamp")
        app.expectCursor(at: Point(x: 21, y: 5))
        try app.press("enter")
        app.expectRow(1, equals: " Draft › Review")
        app.expectRegion(Rect(x: 0, y: 3, width: 60, height: 4), equals: [" You wrote:", " Light the lamp", "", " 3 words"])
        app.expectStyle(of: "Light the lamp", row: 4, has: .bold)
        try app.press("esc")
        app.expectRow(1, equals: " Draft")
    }

    @Test func aRelaunchComesBackToTheSameScreenWithTheSameText() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = InMemoryPreferenceStore()
        let first = Launch(folder: folder, store: store)
        try first.type("Keep this line")
        try first.press("enter")
        try first.quit()

        let second = Launch(folder: folder, store: store)
        second.expectRow(1, equals: " Draft › Review")
        second.expectRow(4, equals: " Keep this line")
        try second.press("esc")
        second.expectRow(5, equals: " Line: Keep this line")  // the draft under it came back too
    }

    @Test func anIdleSaveKeepsAHalfTypedLineAndItsCursorThroughAKill() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = InMemoryPreferenceStore()
        let first = Launch(folder: folder, store: store)
        try first.type("Half a thou")
        try first.press("left", "left")
        try first.becomeIdle()
        // No quit: the process is gone as after kill -9, with only the idle save on disk.

        let second = Launch(folder: folder, store: store)
        second.expectRow(5, equals: " Line: Half a thou")
        second.expectCursor(at: Point(x: 16, y: 5))
        try second.press("end")
        try second.type("ght")
        second.expectRow(5, equals: " Line: Half a thought")
    }

    @Test func theLampFollowsTheSettingsAsTheyChange() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = InMemoryPreferenceStore()
        let app = Launch(folder: folder, store: store)
        try app.click(on: "2 Lamp")
        app.expectRegion(Rect(x: 0, y: 2, width: 60, height: 3),
                         equals: [" Keeper  nobody yet (see Settings)", " Lamp    lit, steady", " Beam    ██████░░░░ 6/10"])
        app.expectStyle(of: "██████", row: 4, has: .foreground(.yellow))

        store.simulateExternalChange([LampSettings.keeperKey: .string("Grace")])
        try app.settle()
        app.expectRow(2, equals: " Keeper  Grace")

        try app.click(on: "3 Settings")
        let settings = try #require((app.app.root as? TabScreen)?.selectedTab as? NavigationStack)
        let pane = try #require(settings.topScreen as? SettingsScreen)
        #expect(pane.select(rowID: LampSettings.litKey))
        try app.press("space")
        #expect(store.object(forKey: LampSettings.litKey) == .boolean(false))
        try app.click(on: "2 Lamp")
        app.expectRow(3, equals: " Lamp    dark")
        app.expectStyle(of: "░░░░░░░░░░", row: 4, lacks: .foreground(.yellow))
    }

    @Test func settingsAreWrittenToTheirFileAndReadAtTheNextLaunch() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("config/settings.plist")
        let store = DefaultsStore(fileURL: file, options: .init(watchesForChanges: false))
        let first = Launch(folder: folder, store: store, observers: [SettingsKeeper(store: store)])
        try first.click(on: "3 Settings")
        let pane = try #require(((first.app.root as? TabScreen)?.selectedTab as? NavigationStack)?.topScreen as? SettingsScreen)
        #expect(pane.select(rowID: LampSettings.litKey))
        try first.press("space")
        try first.quit()

        let reread = DefaultsStore(fileURL: file, options: .init(watchesForChanges: false))
        let second = Launch(folder: folder, store: reread, observers: [SettingsKeeper(store: reread)])
        second.expectRow(0, equals: "  1 Draft   2 Lamp   3 Settings")
        try second.click(on: "2 Lamp")
        second.expectRow(3, equals: " Lamp    dark")
    }

    @Test func aDamagedStateFileIsMovedAsideAndTheAppStartsFresh() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let state = folder.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        try Data("bplist00 not really".utf8).write(to: state.appendingPathComponent("restoration.archive"))

        let app = Launch(folder: folder, store: InMemoryPreferenceStore())
        try app.settle()  // the notice comes over the first frame, as the run loop's next tick draws it
        app.expectScreen(contains: "Starting fresh")
        let kept = try FileManager.default.contentsOfDirectory(atPath: state.path).filter { $0.hasPrefix("restoration.archive.corrupt-") }
        #expect(kept.count == 1, "moved aside, not deleted")
        try app.press("enter")  // the alert goes
        app.expectRow(1, equals: " Draft")
    }

    @Test func foldersFollowTheXDGVariablesAndIgnoreRelativeOnes() {
        let set = StateFolders(environment: ["HOME": "/home/a", "XDG_STATE_HOME": "/s", "XDG_CONFIG_HOME": "/c"])
        #expect(set.state.path == "/s/stateapp")
        #expect(set.settingsFile.path == "/c/stateapp/settings.plist")
        let relative = StateFolders(environment: ["HOME": "/home/a", "XDG_STATE_HOME": "s"])
        #expect(relative.state.path == "/home/a/.local/state/stateapp")
        #expect(relative.config.path == "/home/a/.config/stateapp")
    }
}
