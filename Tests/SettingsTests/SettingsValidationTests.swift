import Foundation
import Testing
import Defaults
import PropertyList
import Screens
import ScreensTesting
import Settings
import Terminal

/// Two formatted fields and a free one on the root pane, one formatted field on a child pane.
private let bundle = SettingsBundle.load(files: [
    "Root.plist": paneFile([
        spec("PSGroupSpecifier", ["Title": "Where", "FooterText": "A place and a port."]),
        spec("PSTextFieldSpecifier", ["Title": "Place", "Key": "place", "DefaultValue": "1,2"]),
        spec("PSTextFieldSpecifier", ["Title": "Port", "Key": "port"]),
        spec("PSTextFieldSpecifier", ["Title": "Nickname", "Key": "nickname"]),
        spec("PSToggleSwitchSpecifier", ["Title": "Beacon", "Key": "beacon", "DefaultValue": false]),
        spec("PSChildPaneSpecifier", ["Title": "More", "File": "More"]),
    ]),
    "More.plist": paneFile([
        spec("PSTextFieldSpecifier", ["Title": "Mail", "Key": "mail"]),
    ]),
])

/// Checks as the app's parsers would make them: a word for what is wrong, nil when all is well.
private let formats = SettingFormats([
    "place": { $0.split(separator: ",").count == 2 ? nil : "expected LAT,LON in decimal degrees, like 48.8566,2.3522" },
    "port": { Int($0).map { (1...65_535).contains($0) } == true ? nil : "port “\($0)” is not a number from 1 to 65535" },
    "mail": { $0.contains("@") ? nil : "expected an address like alice@example.org" },
])

@Suite("Settings: text of the wrong form is shown and never saved")
struct SettingsValidationTests {
    @Test func aPageOfTextInAFieldWithAFormIsRefusedByItsLengthWithoutAParse() throws {
        let parsed = Parses()
        let counting = SettingFormats(["place": { text in parsed.count += 1; return text.isEmpty ? nil : "no" }])
        let page = String(repeating: "48.8566,2.3522 ", count: 1_400)  // 21 KB
        #expect(counting.problem(forKey: "place", text: page) == "longer than 4096 bytes")
        #expect(parsed.count == 0)
        #expect(counting.problem(forKey: "place", text: "48.8566,2.3522") == "no")
        #expect(parsed.count == 1)
        // On screen: pasted into the field, the line under it says so.
        let (pilot, pane, _) = makePilot(rows: 20)
        #expect(pane.select(rowID: "place"))
        try pilot.press(.enter)
        try pilot.paste(page)
        pilot.expectScreen(contains: "! longer than 4096 bytes")
    }

    private func makePilot(columns: Int = 60, rows: Int = 16, minimumSize: Size? = nil, rowKeys: [String: [SettingsRowKey]] = [:],
                           store: InMemoryPreferenceStore = InMemoryPreferenceStore()) -> (Pilot, SettingsScreen, InMemoryPreferenceStore) {
        let root = SettingsScreen.makeRoot(bundle: bundle, store: store, formats: formats, rowKeys: rowKeys)
        let pilot = Pilot(root, columns: columns, rows: rows, minimumSize: minimumSize)
        return (pilot, root.topScreen as! SettingsScreen, store)
    }

    /// Opens the field `key` for editing and empties it.
    private func edit(_ key: String, on screen: SettingsScreen, _ pilot: Pilot) throws {
        #expect(screen.select(rowID: key))
        try pilot.press(.enter)
        #expect(screen.isEditing)
        for _ in 0..<20 { try pilot.press(.backspace) }
    }

    private func row(_ pilot: Pilot, _ text: String) -> Int? { pilot.content.firstIndex { $0.contains(text) } }

    @Test func theProblemShowsUnderTheFieldAsItIsTypedAndGoesWhenTheTextIsRight() throws {
        let (pilot, screen, _) = makePilot()
        try edit("port", on: screen, pilot)
        #expect(!pilot.content.joined().contains("!"), "an empty field means not set: nothing to say")
        try pilot.type("99x")
        let field = try #require(row(pilot, "Port"))
        #expect(pilot.content[field + 1].contains("! port “99x” is not a number from 1 to 65535"), "\(pilot.content)")
        #expect(pilot.style(of: "! port", row: field + 1) == .bold, "the terminal's own colours: a yellow would not read on every background")
        #expect(pilot.content[field + 2].contains("Nickname"), "the rows below move down a line, none hidden")
        try pilot.press(.backspace)
        #expect(!pilot.content.joined().contains("! port"))
        #expect(screen.draftProblem == nil)
        #expect(pilot.content[field + 1].contains("Nickname"))
    }

    @Test func enterOnAWrongTextKeepsTheFieldOpenAndSavesNothingEscCancels() throws {
        let (pilot, screen, store) = makePilot()
        store.set(.string("8080"), forKey: "port")
        try edit("port", on: screen, pilot)
        try pilot.type("70000")
        try pilot.press(.enter)
        #expect(screen.isEditing, "Enter refuses")
        #expect(screen.state.editingText == "70000", "the text stays to be put right")
        #expect(store.object(forKey: "port") == .string("8080"))
        #expect(pilot.content.contains { $0.contains("! port “70000”") })
        try pilot.press(.escape)
        #expect(!screen.isEditing)
        #expect(store.object(forKey: "port") == .string("8080"))
        #expect(!pilot.content.joined().contains("!"))
        #expect(row(pilot, "8080") != nil, "the old value shows again")
    }

    @Test func aRightTextIsSavedAndAnEmptyOneClearsTheSetting() throws {
        let (pilot, screen, store) = makePilot()
        try edit("port", on: screen, pilot)
        try pilot.type("2947")
        try pilot.press(.enter)
        #expect(!screen.isEditing)
        #expect(store.object(forKey: "port") == .string("2947"))
        try edit("port", on: screen, pilot)
        try pilot.press(.enter)
        #expect(store.object(forKey: "port") == .string(""), "empty means not set, and is always allowed")
    }

    @Test func aFieldWithoutAFormTakesAnything() throws {
        let (pilot, screen, store) = makePilot()
        try edit("nickname", on: screen, pilot)
        try pilot.type("70000,,,")
        try pilot.press(.enter)
        #expect(store.object(forKey: "nickname") == .string("70000,,,"))
    }

    @Test func aPasteIsCheckedLikeTyping() throws {
        let (pilot, screen, store) = makePilot()
        try edit("place", on: screen, pilot)
        try pilot.paste("48.85;2.35")
        #expect(pilot.content.contains { $0.contains("! expected LAT,LON") })
        try pilot.press(.enter)
        #expect(screen.isEditing)
        #expect(store.object(forKey: "place") == .string("1,2"), "still the default")
    }

    @Test func atFortyColumnsTheProblemIsOneLineCutWithAnEllipsis() throws {
        let (pilot, screen, _) = makePilot(columns: 40, rows: 12)
        try edit("place", on: screen, pilot)
        try pilot.type("48.8")
        let field = try #require(row(pilot, "Place"))
        let problem = pilot.content[field + 1]
        #expect(problem.contains("! expected LAT,LON"))
        #expect(problem.trimmingCharacters(in: .whitespaces).hasSuffix("…"), "\(problem)")
        #expect(DisplayWidth.of(problem) <= 40)
        #expect(pilot.content[field + 2].contains("Port"), "one line only")
    }

    @Test func theProblemLineIsScrolledIntoViewOnAShortTerminal() throws {
        // 5 rows: the navigation path, 3 lines of list (the group title, Place, Port), the hint bar.
        let (pilot, screen, _) = makePilot(columns: 50, rows: 5, minimumSize: Size(columns: 20, rows: 4))
        try edit("port", on: screen, pilot)
        try pilot.type("0")
        let field = try #require(row(pilot, "Port"))
        #expect(field + 1 < pilot.content.count, "\(pilot.content)")
        #expect(pilot.content[field + 1].contains("! port “0”"), "\(pilot.content)")
    }

    @Test func leavingTheFieldByClickOrSelectionDoesNotSaveAWrongText() throws {
        let (pilot, screen, store) = makePilot()
        try edit("port", on: screen, pilot)
        try pilot.type("abc")
        #expect(!screen.select(rowID: "nickname"), "the field stays open")
        #expect(screen.isEditing)
        let nickname = try #require(row(pilot, "Nickname"))
        try pilot.click(x: 5, y: nickname)
        #expect(screen.isEditing)
        #expect(screen.state.selectedRowID == "port")
        #expect(store.object(forKey: "port") == nil)
        // Put right, the click moves on and saves.
        for _ in 0..<3 { try pilot.press(.backspace) }
        try pilot.type("443")
        let after = try #require(row(pilot, "Nickname"))
        try pilot.click(x: 5, y: after)
        #expect(!screen.isEditing)
        #expect(store.object(forKey: "port") == .string("443"))
    }

    @Test func aRestoredDraftOfTheWrongFormIsStillCheckedBeforeItIsSaved() throws {
        let (pilot, screen, store) = makePilot()
        // What the restoration engine hands back for a field left half typed.
        screen.apply(SettingsPaneState(selectedRowID: "place", editingKey: "place", editingText: "91", editingCursor: 2))
        try pilot.press()
        #expect(pilot.content.contains { $0.contains("! expected LAT,LON") })
        try pilot.press(.enter)
        #expect(screen.isEditing)
        #expect(store.object(forKey: "place") == .string("1,2"), "still the default")
        try pilot.type(",5")
        try pilot.press(.enter)
        #expect(store.object(forKey: "place") == .string("91,5"))
    }

    @Test func aChildPaneChecksItsFieldsToo() throws {
        let (pilot, screen, store) = makePilot()
        #expect(screen.select(rowID: "pane:More"))
        try pilot.press(.enter)
        let more = try #require(screen.navigationStack?.topScreen as? SettingsScreen)
        try edit("mail", on: more, pilot)
        try pilot.type("alice")
        try pilot.press(.enter)
        #expect(more.isEditing)
        #expect(pilot.content.contains { $0.contains("! expected an address like alice@example.org") })
        try pilot.type("@example.org")
        try pilot.press(.enter)
        #expect(store.object(forKey: "mail") == .string("alice@example.org"))
    }

    @Test func aWrongValueSavedByAnotherToolIsMarkedAndItsProblemShownWhenSelected() throws {
        let store = InMemoryPreferenceStore(values: ["port": .string("99999")])
        let (pilot, screen, _) = makePilot(columns: 180, store: store)
        let portRow = try #require(row(pilot, "Port"))
        #expect(pilot.content[portRow].contains("! 99999"))
        #expect(pilot.style(of: "! 99999", row: portRow)?.underline == true)
        #expect(screen.select(rowID: "port"))
        try pilot.press()
        #expect(pilot.hintBar.hasSuffix(" ! port “99999” is not a number from 1 to 65535"), "\(pilot.hintBar)")
        // Editing starts from the saved text, which must be put right before it is saved again.
        try pilot.press(.enter)
        #expect(screen.state.editingText == "99999")
        try pilot.press(.enter)
        #expect(screen.isEditing)
    }

    @Test func aRowKeyShowsOnItsRowOnlyAndRuns() throws {
        var ran: [String] = []
        let keys = ["beacon": [SettingsRowKey(.character("c"), help: "Call the beacon") { pane in ran.append(pane.pane.name) }]]
        let (pilot, screen, _) = makePilot(columns: 80, rowKeys: keys)
        #expect(screen.select(rowID: "port"))
        try pilot.press()
        #expect(!pilot.hintBar.contains("Call the beacon"))
        try pilot.type("c")
        #expect(ran.isEmpty)
        #expect(screen.select(rowID: "beacon"))
        try pilot.press()
        #expect(pilot.hintBar.contains("Call the beacon"), "\(pilot.hintBar)")
        try pilot.type("c")
        #expect(ran == ["Root"])
    }
}

/// Counts the calls of a check.
private final class Parses: @unchecked Sendable {
    var count = 0
}
