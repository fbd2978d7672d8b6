import Defaults
import Foundation
import PropertyList
import Screens
import ScreensTesting
import Settings
import Terminal
import Testing

/// The same motion keys in the choice picker and a settings pane as in Screens' lists, pagers
/// and overlays, from the bytes terminals send.
@Suite("Motion keys in the settings screens")
struct SettingsMotionKeysTests {
    static let tmuxHome = MotionKeyCheck.tmuxHome
    static let tmuxEnd = MotionKeyCheck.tmuxEnd

    static func choices(_ count: Int) -> SettingsChoices {
        let titles = (1...count).map { "Choice \($0)" }
        return SettingsChoices(titles: titles, values: titles.map { .string($0) })
    }

    static func settingsBundle(rows: Int) -> SettingsBundle {
        let items: [PropertyListValue] = (1...rows).map { number in
            .dictionary(["Type": "PSToggleSwitchSpecifier", "Title": .string("Toggle \(number)"), "Key": .string("toggle\(number)"), "DefaultValue": false])
        }
        let data = try! PropertyListSerializer.data(from: .dictionary(["PreferenceSpecifiers": .array(items)]), format: .xml)
        return SettingsBundle.load(files: ["Root.plist": data])
    }

    /// Every settings screen that lists or scrolls, as a new one would be built.
    static func everyScrollingScreen() -> [(String, Screen)] {
        [
            ("choice picker", ChoicePicker(title: "Pick", choices: choices(5), current: nil)),
            ("settings", SettingsScreen(bundle: settingsBundle(rows: 3), store: InMemoryPreferenceStore())),
        ]
    }

    @Test("the choice picker and a settings pane bind ↑↓, PgUp/PgDn, Home/End and ^A/^E, and list them in their help")
    func everyScreenHasEveryMotionKey() {
        for (name, screen) in Self.everyScrollingScreen() {
            MotionKeyCheck.expectEveryMotionKey(screen, named: name)
        }
    }

    @Test("a choice picker: End and ^A, the wheel")
    func choicePickerMotion() throws {
        let root = Screen(title: "Root")
        let pilot = Pilot(root, columns: 40, rows: 12)
        let picker = ChoicePicker(title: "Pick", choices: Self.choices(20), current: nil)
        root.present(picker)
        try pilot.sendBytes(Self.tmuxEnd)
        #expect(picker.highlighted == 19)
        try pilot.press(.control("a"))
        #expect(picker.highlighted == 0)
        try pilot.wheel(down: true, x: 20, y: 5)
        #expect(picker.highlighted == 3)
        try pilot.press(.pageDown)
        #expect(picker.highlighted > 3)
    }

    @Test("a settings pane: ^E to the last row, Home to the first")
    func settingsMotion() throws {
        let pane = SettingsScreen(bundle: Self.settingsBundle(rows: 25), store: InMemoryPreferenceStore())
        let pilot = Pilot(NavigationStack(root: pane), columns: 40, rows: 12)
        try pilot.press(.control("e"))
        #expect(pane.state.selectedRowID == "toggle25")
        #expect(pilot.content.contains { $0.contains("Toggle 25") })
        try pilot.sendBytes(Self.tmuxHome)
        #expect(pane.state.selectedRowID == "toggle1")
    }
}
