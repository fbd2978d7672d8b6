import Defaults
import Foundation
import PropertyList
import Restoration
import Screens
import ScreensTesting
import Settings
import Terminal
import Testing
@testable import WonderlandApp

@Suite("Settings in the app")
struct SettingsInAppTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-settings-\(UUID().uuidString)")

    private func launch(_ services: AppServices, restoration files: RestorationFiles? = nil) -> Pilot {
        let restoration = files.map {
            RestorationController(configuration: .init(files: $0, appVersion: "test"), engine: RootScreen.restorationEngine(services: services))
        }
        return Pilot(RootScreen.make(services: services), columns: 80, rows: 30, observers: restoration.map { [$0] } ?? [])
    }

    @Test func theMapTabShowsItsSettingsAndFollowsChangesMadeElsewhere() throws {
        let store = InMemoryPreferenceStore()
        let pilot = launch(AppServices(store: store, bundle: .embedded))
        // The map's status line: map type, then tracking (Follow is the registered default, as in Pigeon).
        #expect(pilot.lines.contains { $0.hasPrefix(" Standard · Follow") })
        store.simulateExternalChange(["HPMapType": .integer(2)])
        try pilot.settle()
        #expect(pilot.lines.contains { $0.hasPrefix(" Hybrid · Follow") })
    }

    @Test func aNumberGivenAsTextReadsAsThatNumber() throws {
        // What `wonderland -HPMapType 2 -WLTextWidth 90` puts in the argument domain.
        let store = InMemoryPreferenceStore(values: ["HPMapType": .string("2"), "WLTextWidth": .string("90")])
        let pilot = launch(AppServices(store: store, bundle: .embedded))
        #expect(pilot.lines.contains { $0.hasPrefix(" Hybrid · ") })
    }

    @Test func commaOpensTheSettingsOverTheAppAndEscClosesThem() throws {
        let store = InMemoryPreferenceStore()
        let pilot = launch(AppServices(store: store, bundle: .embedded))
        try pilot.press(.character(","))
        #expect(pilot.lines[0] == " Settings")
        #expect(pilot.lines.last?.hasPrefix("Space Switch on / off") == true)
        try pilot.press(.character(" "))  // the first row is Sync Locations
        #expect(store.object(forKey: "HPSyncLocations") == .boolean(true))
        try pilot.press(.escape)
        #expect(pilot.app.modals.isEmpty)
        #expect(pilot.lines.contains { $0.hasPrefix(" Standard · Follow") }, "the map is back")
    }

    @Test func theSheetRefusesASyncServerAddressWithAPassword() throws {
        let store = InMemoryPreferenceStore()
        let pilot = launch(AppServices(store: store, bundle: .embedded))
        try pilot.press(.character(","))
        let sheet = try #require(pilot.app.modals.first as? SettingsSheet)
        let pane = try #require(sheet.navigation.topScreen as? SettingsScreen)
        #expect(pane.select(rowID: CloudSettings.syncServerKey))
        try pilot.press(.enter)
        try pilot.type("postgres://alice:CheshireSecret@db.example.org/wonderland")
        try pilot.press(.enter)
        #expect(store.object(forKey: CloudSettings.syncServerKey) ?? .string("") == .string(""), "nothing was saved")
        #expect(pilot.lines.joined().contains("not saved"))
        #expect(!pilot.lines.joined().contains("CheshireSecret") || pilot.lines.joined().contains("•"))
        // Without the password it is saved.
        try pilot.press(.enter)
        #expect(pane.select(rowID: CloudSettings.syncServerKey))
        try pilot.press(.enter)
        try pilot.type("postgres://alice@db.example.org/wonderland")
        try pilot.press(.enter)
        #expect(store.object(forKey: CloudSettings.syncServerKey) == .string("postgres://alice@db.example.org/wonderland"))
    }

    @Test func anOpenSettingsPaneComesBackAfterARelaunch() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = RestorationFiles(folder: folder)
        let services = AppServices(store: InMemoryPreferenceStore(), bundle: .embedded)
        let pilot = launch(services, restoration: files)
        try pilot.press(.character(","))
        for _ in 0..<18 { try pilot.press(.down) }  // down to the Profile row (past the Sync and Handoff rows)
        try pilot.press(.enter)
        #expect(pilot.lines[0] == " Settings › Profile")
        try pilot.send(.terminate(.hangup))

        let second = launch(services, restoration: files)
        #expect(second.lines[0] == " Settings › Profile")
        try second.press(.escape, .escape)
        #expect(second.app.modals.isEmpty)
        #expect(second.lines[0].hasPrefix("  1 Map"))
    }

    @Test func theControllerWritesOnExitAndToldOnceAboutABrokenFile() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("wonderland/defaults.plist")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("<plist><dict><key>broken".utf8).write(to: file)
        let controller = DefaultsController(store: DefaultsStore(fileURL: file), bundle: .embedded)
        let pilot = Pilot(RootScreen.make(services: AppServices(store: controller.store, bundle: controller.bundle)),
                          columns: 80, rows: 30, observers: [controller])
        try pilot.settle()
        #expect(pilot.lines.contains { $0.contains("Settings") } && pilot.lines.contains { $0.contains("corrupt") || $0.contains("moved") })
        let aside = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path).filter { $0.hasPrefix("defaults.plist.corrupt-") }
        #expect(aside.count == 1)

        controller.store.set(.integer(1), forKey: "HPMapType")
        try pilot.quit()
        let saved = try PropertyListReader.value(from: Data(contentsOf: file))
        #expect(saved == .dictionary(["HPMapType": .integer(1)]))
    }
}
