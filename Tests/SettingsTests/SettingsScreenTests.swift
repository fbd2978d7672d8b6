import Foundation
import Testing
import Defaults
import PropertyList
import Restoration
import Screens
import ScreensTesting
import Settings
import Terminal

/// A bridge-control bundle with one of every specifier, and a child pane.
private func fixtureBundle(extraRootItems: [PropertyListValue] = []) -> SettingsBundle {
    SettingsBundle.load(files: [
        "Root.plist": paneFile(extraRootItems + [
            spec("PSGroupSpecifier", ["Title": "General", "FooterText": "Engines and shields, as the captain left them."]),
            spec("PSToggleSwitchSpecifier", ["Title": "Warp Drive", "Key": "warp", "DefaultValue": true]),
            spec("PSToggleSwitchSpecifier", ["Title": "Shields", "Key": "shields", "DefaultValue": "down", "TrueValue": "up", "FalseValue": "down"]),
            spec("PSSliderSpecifier", ["Title": "Warp Factor", "Key": "warpFactor", "DefaultValue": 5, "MinimumValue": 1, "MaximumValue": 10,
                                       "MinimumValueImage": "minus", "MaximumValueImage": "plus"]),
            spec("PSMultiValueSpecifier", ["Title": "Rank", "Key": "rank", "Titles": .array(["Ensign", "Lieutenant", "Captain"]),
                                           "ShortTitles": .array(["Ens", "Lt", "Capt"]), "Values": .array(["ensign", "lieutenant", "captain"]), "DefaultValue": "ensign"]),
            spec("PSRadioGroupSpecifier", ["Title": "Units", "Key": "units", "Titles": .array(["Kilometres", "Miles"]), "Values": .array(["km", "mi"]), "DefaultValue": "km"]),
            spec("PSGroupSpecifier", ["Title": "Account"]),
            spec("PSTextFieldSpecifier", ["Title": "Name", "Key": "name", "AutocapitalizationType": "Words"]),
            spec("PSTextFieldSpecifier", ["Title": "Code", "Key": "code", "DefaultValue": "1234", "IsSecure": true, "KeyboardType": "NumberPad"]),
            spec("PSTitleValueSpecifier", ["Title": "Version", "Key": "version", "DefaultValue": "2.1"]),
            spec("PSChildPaneSpecifier", ["Title": "More Settings", "File": "More"]),
        ]),
        "More.plist": paneFile([
            spec("PSToggleSwitchSpecifier", ["Title": "Tractor Beam", "Key": "tractor", "DefaultValue": false]),
        ]),
    ])
}

/// The repository's Resources/Settings.bundle.
private let appSettingsBundle = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Resources/Settings.bundle")

@Suite("Settings screen")
struct SettingsScreenTests {
    /// The fixture on a 50×24 terminal: row 0 is the navigation path, the hint bar row 23.
    private func makePilot(_ bundle: SettingsBundle = fixtureBundle(), store: InMemoryPreferenceStore = InMemoryPreferenceStore(),
                       columns: Int = 50, rows: Int = 24) -> (Pilot, SettingsScreen, InMemoryPreferenceStore) {
        let root = SettingsScreen.makeRoot(bundle: bundle, store: store)
        let pilot = Pilot(root, columns: columns, rows: rows)
        return (pilot, root.topScreen as! SettingsScreen, store)
    }

    private func select(_ screen: SettingsScreen, _ id: String, in pilot: Pilot) throws {
        #expect(screen.select(rowID: id))
        try pilot.press()
    }

    /// The line of the content that contains `text`.
    private func line(_ pilot: Pilot, _ text: String) -> String? {
        pilot.content.first { $0.contains(text) }
    }

    @Test func rowsGroupsAndFootersAreDrawn() throws {
        let (pilot, screen, store) = makePilot()
        #expect(pilot.content == [
            " Settings",
            " General",
            "▸ Warp Drive                              [x] On",
            "  Shields                                [ ] Off",
            "  Warp Factor          - ━━━━━━━━●───────── +  5",
            "  Rank                                     Ens ›",
            "  Engines and shields, as the captain left them.",
            "",
            " Units",
            "  (•) Kilometres",
            "  ( ) Miles",
            "",
            " Account",
            "  Name                                         —",
            "  Code                                      ••••",
            "  Version                                    2.1",
            "  More Settings                                ›",
            "", "", "", "", "", "",
        ])
        #expect(pilot.style(of: "▸ Warp Drive", row: 2)?.reverse == true)
        #expect(pilot.style(of: "General", row: 1)?.bold == true)
        #expect(pilot.style(of: "Engines", row: 6) == .plain, "not faint: faint text does not read on every terminal")
        #expect(pilot.hintBar.hasPrefix("Space Switch on / off  ↑↓ Move"))
        #expect(screen.rowIDs == ["warp", "shields", "warpFactor", "rank", "units#0", "units#1", "name", "code", "version", "pane:More"])
        #expect(screen.restorationIdentifier == "Settings")
        // makeRoot registered every default, so the app reads what the screen shows.
        #expect(store.registration["warpFactor"] == 5 && store.registration["tractor"] == false)
        #expect(store.values.isEmpty)
    }

    @Test func footersWrapToTheWidth() throws {
        let (pilot, _, _) = makePilot(columns: 40)
        #expect(pilot.content[6...8] == ["  Engines and shields, as the captain", "  left them.", ""])
    }

    @Test func aToggleFlipsAndWritesTheStore() throws {
        let (pilot, screen, store) = makePilot()
        try pilot.press(.character(" "))
        #expect(store.object(forKey: "warp") == false)
        #expect(line(pilot, "Warp Drive") == "▸ Warp Drive                             [ ] Off")
        try pilot.press(.enter)
        #expect(store.values["warp"] == true)
        // TrueValue and FalseValue are written instead of booleans.
        try select(screen, "shields", in: pilot)
        try pilot.press(.character(" "))
        #expect(store.values["shields"] == "up")
        #expect(line(pilot, "Shields")?.hasSuffix("[x] On") == true)
        try pilot.press(.character(" "))
        #expect(store.values["shields"] == "down")
    }

    @Test func aSliderMovesByStepsAndClamps() throws {
        let (pilot, screen, store) = makePilot()
        try pilot.press(.down, .down)
        #expect(pilot.hintBar.hasPrefix("←→ Adjust"))
        #expect(pilot.hintBar.contains("5 (1–10)"))
        try pilot.press(.right)
        #expect(store.values["warpFactor"] == 6)
        try pilot.press(.pageUp)  // a fifth of the range: 2
        #expect(store.values["warpFactor"] == 8)
        try pilot.press(.pageUp, .pageUp, .right)
        #expect(store.values["warpFactor"] == 10)
        #expect(line(pilot, "Warp Factor") == "▸ Warp Factor          - ━━━━━━━━━━━━━━━━━● + 10")
        for _ in 0..<12 { try pilot.press(.left) }
        #expect(store.values["warpFactor"] == 1)
        #expect(line(pilot, "Warp Factor") == "▸ Warp Factor          - ●───────────────── +  1")
        try pilot.press(.pageDown)
        #expect(store.values["warpFactor"] == 1)
        #expect(screen.isEditing == false)
    }

    @Test func aSliderInAChildPaneTakesLeftBeforeTheStackGoesBack() throws {
        let bundle = SettingsBundle.load(files: [
            "Root.plist": paneFile([spec("PSChildPaneSpecifier", ["Title": "Display", "File": "Display"])]),
            "Display.plist": paneFile([spec("PSSliderSpecifier", ["Key": "r", "DefaultValue": 0.5, "MinimumValue": 0, "MaximumValue": 1])]),
        ])
        let (pilot, _, store) = makePilot(bundle)
        try pilot.press(.enter)
        #expect(pilot.content[0] == " Settings › Display")
        try pilot.press(.left)
        #expect(store.values["r"] == .real(0.45))
        #expect(pilot.content[0] == " Settings › Display")
        try pilot.press(.escape)
        #expect(pilot.content[0] == " Settings")
    }

    @Test func aMultiValueOpensAPickerThatPicks() throws {
        let (pilot, screen, store) = makePilot()
        try select(screen, "rank", in: pilot)
        try pilot.press(.enter)
        #expect(pilot.app.modals.count == 1)
        #expect(pilot.content.contains { $0.contains("┌─ Rank ") })
        #expect(line(pilot, "• Ensign") != nil)
        #expect(pilot.hintBar.hasPrefix("↑↓ Move  Enter Choose  Esc Cancel"))
        try pilot.press(.down, .down, .up, .enter)
        #expect(pilot.app.modals.isEmpty)
        #expect(store.values["rank"] == "lieutenant")
        #expect(line(pilot, "Rank")?.hasSuffix("Lt ›") == true)
        // Esc leaves the value alone.
        try pilot.press(.enter, .down, .escape)
        #expect(store.values["rank"] == "lieutenant")
        #expect(store.writes.count == 1)
    }

    @Test func aPickerRowCanBeClicked() throws {
        let (pilot, screen, store) = makePilot()
        try select(screen, "rank", in: pilot)
        try pilot.press(.enter)
        let y = try #require(pilot.content.firstIndex { $0.contains("Captain") })
        try pilot.click(x: try #require(pilot.column(of: "Captain", row: y)), y: y)
        #expect(store.values["rank"] == "captain")
        #expect(pilot.app.modals.isEmpty)
    }

    @Test func aRadioGroupChecksARow() throws {
        let (pilot, screen, store) = makePilot()
        try select(screen, "units#1", in: pilot)
        #expect(line(pilot, "Miles") == "▸ ( ) Miles")
        try pilot.press(.character(" "))
        #expect(store.values["units"] == "mi")
        #expect(pilot.content[9...10] == ["  ( ) Kilometres", "▸ (•) Miles"])
    }

    @Test func aTextFieldEditsCommitsAndCancels() throws {
        let (pilot, screen, store) = makePilot()
        try select(screen, "name", in: pilot)
        #expect(pilot.hintBar.hasPrefix("Enter Edit"))
        try pilot.press(.enter)
        #expect(screen.isEditing)
        #expect(pilot.hintBar.hasPrefix("Enter Save  Esc Cancel"))
        try pilot.type("alice liddell, q")  // q is text here, not Quit
        #expect(pilot.app.terminationReason == nil)
        #expect(line(pilot, "Name") == "▸ Name                 alice liddell, q")
        #expect(pilot.cursor == Point(x: 39, y: 13))
        try pilot.press(.backspace, .backspace, .backspace, .enter)
        #expect(store.values["name"] == "Alice Liddell")  // AutocapitalizationType Words, on commit
        #expect(!screen.isEditing)
        #expect(line(pilot, "Name")?.hasSuffix("Alice Liddell") == true)
        try pilot.press(.enter)
        try pilot.type(" the Second")
        try pilot.press(.left, .escape)  // neither leaves the field nor the screen
        #expect(store.values["name"] == "Alice Liddell")
        #expect(!screen.isEditing)
        #expect(store.writes.count == 1)
    }

    @Test func aSecureFieldShowsDotsAndANumberPadTakesDigitsOnly() throws {
        let (pilot, screen, store) = makePilot()
        try select(screen, "code", in: pilot)
        #expect(line(pilot, "Code")?.hasSuffix("••••") == true)
        #expect(!pilot.lines.joined().contains("1234"))
        try pilot.press(.enter)
        try pilot.type("5a6 ")
        #expect(pilot.hintBar.contains("digits only"))
        #expect(line(pilot, "Code") == "▸ Code                 ••••••")
        try pilot.press(.enter)
        #expect(store.values["code"] == "123456")
        #expect(!pilot.lines.joined().contains("123456"))
    }

    private func archive(_ screen: Screen) throws -> Data {
        try RestorationEngine().preserve(root: screen, header: RestorationHeader(appVersion: "t", timestamp: Date(), terminalColumns: 1, terminalRows: 1)).data
    }

    @Test func aDraftAddressWithAPasswordIsNeverArchived() throws {
        let (pilot, screen, _) = makePilot()
        try select(screen, "name", in: pilot)
        try pilot.press(.enter)
        try pilot.type("postgres://alice:CheshireSecret@db.example.org/wonderland")
        let withPassword = try archive(screen)
        #expect(!withPassword.contains(Data("CheshireSecret".utf8)))
        // Without a password the draft is kept, as for any other field.
        for _ in 0 ..< 26 { try pilot.press(.backspace) }
        try pilot.type("db.example.org/wonderland")
        let withoutPassword = try archive(screen)
        #expect(withoutPassword.contains(Data("postgres://alice".utf8)))
        // The same rule as the sync server's: a password with an unencoded "/" or "@" counts too.
        for _ in 0 ..< 80 { try pilot.press(.backspace) }
        try pilot.type("postgres://alice:Cheshire/S@cret@db.example.org/wonderland")
        #expect(!(try archive(screen)).contains(Data("Cheshire/S".utf8)))
    }

    @Test func aTitleValueIsReadOnly() throws {
        let (pilot, screen, store) = makePilot()
        try select(screen, "version", in: pilot)
        try pilot.press(.enter, .character(" "), .right)
        #expect(store.writes.isEmpty)
        #expect(pilot.app.modals.isEmpty)
        #expect(line(pilot, "Version") == "▸ Version                                    2.1")
        #expect(!pilot.hintBar.contains("Enter"))
        store.set("3.0", forKey: "version")
        try pilot.press()
        #expect(line(pilot, "Version")?.hasSuffix("3.0") == true)
    }

    @Test func aChildPanePushesAndComesBack() throws {
        let (pilot, screen, store) = makePilot()
        try select(screen, "pane:More", in: pilot)
        try pilot.press(.enter)
        let stack = try #require(pilot.app.root as? NavigationStack)
        #expect(stack.stack.count == 2)
        let child = try #require(stack.topScreen as? SettingsScreen)
        #expect(child.restorationIdentifier == "SettingsPane.More")
        #expect(SettingsScreen.paneName(forRestorationIdentifier: "SettingsPane.More") == "More")
        #expect(pilot.content[0...1] == [" Settings › More Settings", "▸ Tractor Beam                           [ ] Off"])
        try pilot.press(.character(" "))
        #expect(store.values["tractor"] == true)
        #expect(pilot.app.activeBindings.contains { $0.label == "Esc" && $0.help == "Back to Settings" })
        try pilot.press(.escape)
        #expect(stack.stack.count == 1)
        #expect(pilot.content[0] == " Settings")
        #expect(line(pilot, "More Settings")?.hasPrefix("▸") == true)
    }

    @Test func theScreenRedrawsWhenTheStoreChangesElsewhere() throws {
        let (pilot, _, store) = makePilot()
        let frames = pilot.app.framesRendered
        store.simulateExternalChange(["warp": false, "units": "mi", "rank": "captain"])
        try pilot.press()
        #expect(pilot.app.framesRendered == frames + 1)
        #expect(line(pilot, "Warp Drive")?.hasSuffix("[ ] Off") == true)
        #expect(line(pilot, "Rank")?.hasSuffix("Capt ›") == true)
        #expect(line(pilot, "Miles") == "  (•) Miles")
        // A key this pane does not show draws nothing.
        store.simulateExternalChange(["tractor": true])
        try pilot.press()
        #expect(pilot.app.framesRendered == frames + 1)
    }

    @Test func aPaneLetsGoOfTheStoreWhenReleased() throws {
        let store = InMemoryPreferenceStore()
        do {
            let screen = SettingsScreen(bundle: fixtureBundle(), store: store)
            #expect(store.observerCount == 1)
            _ = screen
        }
        #expect(store.observerCount == 0)
    }

    @Test func schemaErrorsShowAboveTheWorkingRows() throws {
        let bad = fixtureBundle(extraRootItems: [
            spec("PSTextFieldSpecifier", ["Title": "Name"]),
            spec("PSSliderSpecifier", ["Key": "w", "DefaultValue": 200, "MinimumValue": 40, "MaximumValue": 120]),
        ])
        let (pilot, _, store) = makePilot(bad, columns: 80, rows: 16)
        #expect(pilot.content[1...4] == [
            "! Root.plist item 0: PSTextFieldSpecifier has no Key",
            "! Root.plist item 1: PSSliderSpecifier DefaultValue 200 is outside 40…120",
            " General",
            "▸ Warp Drive                                                            [x] On",
        ])
        #expect(pilot.style(of: "! Root.plist", row: 1) == .bold)
        try pilot.press(.character(" "))
        #expect(store.values["warp"] == false)
        // Many errors take at most a third of the pane, then say how many more.
        let worse = fixtureBundle(extraRootItems: (0..<8).map { _ in spec("PSTextFieldSpecifier", ["Title": "Name"]) })
        let (small, _, _) = makePilot(worse, columns: 60, rows: 12)
        #expect(small.content[1...4] == [
            "! Root.plist item 0: PSTextFieldSpecifier has no Key",
            "! Root.plist item 1: PSTextFieldSpecifier has no Key",
            "! … and 6 more schema errors",
            " General",
        ])
    }

    @Test func aClickSelectsAndASecondClickActs() throws {
        let (pilot, screen, store) = makePilot()
        try pilot.click(x: 10, y: 3)
        #expect(line(pilot, "Shields")?.hasPrefix("▸") == true)
        #expect(store.writes.isEmpty)
        try pilot.click(x: 10, y: 3)
        #expect(store.values["shields"] == "up")
        try pilot.click(x: 10, y: 7)  // a blank line: nothing
        #expect(screen.state.selectedRowID == "shields")
        try pilot.wheel(down: true, x: 10, y: 5)
        #expect(screen.state.selectedRowID == "units#0")
    }

    @Test func onlyTheVisibleLinesAreDrawnAndTheSelectionStaysInView() throws {
        let many = (0..<2000).map { spec("PSToggleSwitchSpecifier", ["Title": .string("Option \($0)"), "Key": .string("option\($0)"), "DefaultValue": false]) }
        let bundle = SettingsBundle.load(files: ["Root.plist": paneFile([spec("PSGroupSpecifier", ["Title": "Many"])] + many)])
        let (pilot, screen, _) = makePilot(bundle, columns: 40, rows: 10)
        #expect(pilot.content[1...2] == [" Many", "▸ Option 0                     [ ] Off"])
        try pilot.press(.end)
        #expect(pilot.content.last == "▸ Option 1999                  [ ] Off")
        try pilot.press(.pageUp)
        #expect(screen.state.selectedRowID == "option1992")
        #expect(pilot.content[1].contains("Option 1992"))
        try pilot.press(.home)
        #expect(pilot.content[1...2] == [" Many", "▸ Option 0                     [ ] Off"])
        #expect(screen.state.scrollOffset == 0)
    }

    @Test func movingUpShowsTheGroupTitleAndTheLastRowShowsTheFooter() throws {
        let (pilot, screen, _) = makePilot(columns: 50, rows: 10)  // 8 lines of list
        try select(screen, "pane:More", in: pilot)
        #expect(pilot.content.last == "▸ More Settings                                ›")
        try select(screen, "name", in: pilot)
        try select(screen, "units#1", in: pilot)
        try select(screen, "units#0", in: pilot)
        #expect(pilot.content[1...2] == [" Units", "▸ (•) Kilometres"])
    }

    @Test func stateRoundTripsThroughApply() throws {
        let (pilot, screen, store) = makePilot()
        try select(screen, "name", in: pilot)
        try pilot.press(.enter)
        try pilot.type("half-typ")
        let saved = screen.state
        #expect(saved == SettingsPaneState(selectedRowID: "name", scrollOffset: 0, editingKey: "name", editingText: "half-typ", editingCursor: 8))

        let (restored, other, _) = makePilot(store: store)
        other.apply(saved)
        try restored.press()
        #expect(other.isEditing)
        #expect(line(restored, "Name") == "▸ Name                 half-typ")
        try restored.type("ed")
        try restored.press(.enter)
        #expect(store.values["name"] == "Half-typed")
        // Ids that are gone fall back to the first row and drop the edit.
        other.apply(SettingsPaneState(selectedRowID: "gone", editingKey: "gone", editingText: "x"))
        #expect(other.state.selectedRowID == "warp")
        #expect(!other.isEditing)
    }

    @Test func theAppBundleShowsItsDefaults() throws {
        let bundle = SettingsBundle.load(directory: appSettingsBundle)
        #expect(bundle.errors.isEmpty)
        let (pilot, screen, store) = makePilot(bundle, columns: 60, rows: 50)
        #expect(line(pilot, "Handoff Drafts")?.hasSuffix("[ ] Off") == true)
        #expect(line(pilot, "Tracking Mode")?.hasSuffix("Follow ›") == true)
        #expect(line(pilot, "Map Type")?.hasSuffix("Standard ›") == true)
        #expect(line(pilot, "Kilometres") == "  (•) Kilometres")
        #expect(line(pilot, "Text Width")?.hasSuffix("←→  72") == true)
        #expect(line(pilot, "Sync Locations")?.hasSuffix("[ ] Off") == true)
        #expect(store.object(forKey: "WLVersion") != nil)
        try select(screen, "pane:Profile", in: pilot)
        try pilot.press(.enter)
        #expect(pilot.content[0] == " Settings › Profile")
        #expect(line(pilot, "Version") != nil)
    }

    @Test func anUnknownPaneShowsAnError() throws {
        let screen = SettingsScreen(bundle: fixtureBundle(), paneName: "Nowhere", store: InMemoryPreferenceStore())
        let pilot = Pilot(screen, columns: 60, rows: 10)
        #expect(pilot.content[0...1] == ["! Nowhere.plist: no such pane in the settings bundle", "  No settings here."])
    }
}
