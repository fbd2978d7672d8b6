import Defaults
import Foundation
import PropertyList
import Restoration
import Screens
import Terminal
import Testing
@testable import WonderlandApp

@Suite("Settings in the app")
struct SettingsInAppTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-settings-\(UUID().uuidString)")

    private func launch(_ services: AppServices, restoration files: RestorationFiles? = nil) -> (Application, HeadlessTerminal) {
        let terminal = HeadlessTerminal(size: Size(columns: 80, rows: 30), capabilities: .init(colors: true, unicode: true))
        let app = Application(terminal: terminal, root: RootScreen.make(services: services))
        if let files {
            app.addLifecycleObserver(RestorationController(configuration: .init(files: files, appVersion: "test"),
                                                           engine: RootScreen.restorationEngine(services: services)))
        }
        app.launch()
        return (app, terminal)
    }

    private func press(_ app: Application, _ terminal: HeadlessTerminal, _ keys: Key...) throws {
        for key in keys { terminal.enqueue(.key(key)) }
        try app.processPendingEvents()
    }

    @Test func theMapTabShowsItsSettingsAndFollowsChangesMadeElsewhere() throws {
        let store = InMemoryPreferenceStore()
        let (app, terminal) = launch(AppServices(store: store, bundle: .embedded))
        // The map's status line: map type, then tracking (Follow is the registered default, as in Pigeon).
        #expect(terminal.lines.contains { $0.hasPrefix(" Standard · Follow") })
        store.simulateExternalChange(["HPMapType": .integer(2)])
        try app.processPendingEvents()
        #expect(terminal.lines.contains { $0.hasPrefix(" Hybrid · Follow") })
    }

    @Test func aNumberGivenAsTextReadsAsThatNumber() throws {
        // What `wonderland -HPMapType 2 -WLTextWidth 90` puts in the argument domain.
        let store = InMemoryPreferenceStore(values: ["HPMapType": .string("2"), "WLTextWidth": .string("90")])
        let (app, terminal) = launch(AppServices(store: store, bundle: .embedded))
        #expect(terminal.lines.contains { $0.hasPrefix(" Hybrid · ") })
    }

    @Test func commaOpensTheSettingsOverTheAppAndEscClosesThem() throws {
        let store = InMemoryPreferenceStore()
        let (app, terminal) = launch(AppServices(store: store, bundle: .embedded))
        try press(app, terminal, .character(","))
        #expect(terminal.lines[0] == " Settings")
        #expect(terminal.lines.last?.hasPrefix("Space Switch on / off") == true)
        try press(app, terminal, .character(" "))  // the first row is Sync Locations
        #expect(store.object(forKey: "HPSyncLocations") == .boolean(true))
        try press(app, terminal, .escape)
        #expect(app.modals.isEmpty)
        #expect(terminal.lines.contains { $0.hasPrefix(" Standard · Follow") }, "the map is back")
    }

    @Test func theSheetRefusesASyncServerAddressWithAPassword() throws {
        let store = InMemoryPreferenceStore()
        let (app, terminal) = launch(AppServices(store: store, bundle: .embedded))
        try press(app, terminal, .character(","))
        let sheet = try #require(app.modals.first as? SettingsSheet)
        let pane = try #require(sheet.navigation.topScreen as? SettingsScreen)
        #expect(pane.select(rowID: CloudSettings.syncServerKey))
        try press(app, terminal, .enter)
        for character in "postgres://alice:CheshireSecret@db.example.org/wonderland" { terminal.enqueue(.key(.character(character))) }
        try press(app, terminal, .enter)
        #expect(store.object(forKey: CloudSettings.syncServerKey) ?? .string("") == .string(""), "nothing was saved")
        #expect(terminal.lines.joined().contains("not saved"))
        #expect(!terminal.lines.joined().contains("CheshireSecret") || terminal.lines.joined().contains("•"))
        // Without the password it is saved.
        try press(app, terminal, .enter)
        #expect(pane.select(rowID: CloudSettings.syncServerKey))
        try press(app, terminal, .enter)
        for character in "postgres://alice@db.example.org/wonderland" { terminal.enqueue(.key(.character(character))) }
        try press(app, terminal, .enter)
        #expect(store.object(forKey: CloudSettings.syncServerKey) == .string("postgres://alice@db.example.org/wonderland"))
    }

    @Test func anOpenSettingsPaneComesBackAfterARelaunch() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = RestorationFiles(folder: folder)
        let services = AppServices(store: InMemoryPreferenceStore(), bundle: .embedded)
        let (app, terminal) = launch(services, restoration: files)
        try press(app, terminal, .character(","))
        for _ in 0..<14 { try press(app, terminal, .down) }  // down to the Profile row (past Sync Folder and Sync Server)
        try press(app, terminal, .enter)
        #expect(terminal.lines[0] == " Settings › Profile")
        terminal.enqueue(.terminate(.hangup))
        try app.processPendingEvents()

        let (again, second) = launch(services, restoration: files)
        #expect(second.lines[0] == " Settings › Profile")
        try press(again, second, .escape, .escape)
        #expect(again.modals.isEmpty)
        #expect(second.lines[0].hasPrefix("  1 Map"))
    }

    @Test func theControllerWritesOnExitAndToldOnceAboutABrokenFile() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("wonderland/defaults.plist")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("<plist><dict><key>broken".utf8).write(to: file)
        let controller = DefaultsController(store: DefaultsStore(fileURL: file), bundle: .embedded)
        let terminal = HeadlessTerminal(size: Size(columns: 80, rows: 30), capabilities: .init(colors: true, unicode: true))
        let app = Application(terminal: terminal, root: RootScreen.make(services: AppServices(store: controller.store, bundle: controller.bundle)))
        app.addLifecycleObserver(controller)
        app.launch()
        try app.processPendingEvents()
        #expect(terminal.lines.contains { $0.contains("Settings") } && terminal.lines.contains { $0.contains("corrupt") || $0.contains("moved") })
        let aside = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path).filter { $0.hasPrefix("defaults.plist.corrupt-") }
        #expect(aside.count == 1)

        controller.store.set(.integer(1), forKey: "HPMapType")
        terminal.enqueue(.terminate(.quit))
        try app.processPendingEvents()
        let saved = try PropertyListReader.value(from: Data(contentsOf: file))
        #expect(saved == .dictionary(["HPMapType": .integer(1)]))
    }
}
