import Defaults
import Foundation
import Screens
import ScreensTesting
import Settings
import Terminal
import Testing
@testable import WonderlandApp

/// Walks the app's screens, prompts, lists and fields pressing F1 (and `?` where it is not
/// text): each shows help, and each help lists every key once.
@Suite("Help in every place")
struct HelpWalkTests {
    private func launch() -> Pilot {
        Pilot(RootScreen.make(services: AppServices(store: InMemoryPreferenceStore(), bundle: .embedded)), columns: 100, rows: 60)
    }

    /// Opens help with `key`, checks it, and closes it with Esc.
    private func expectHelp(_ pilot: Pilot, key: Key = .function(1), _ place: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let modals = pilot.app.modals.count
        try pilot.press(key)
        guard let labels = pilot.shownHelpKeyLabels else {
            Issue.record("\(place): no help\n\(pilot.numberedScreen)", sourceLocation: sourceLocation)
            return
        }
        #expect(!labels.isEmpty, "\(place)", sourceLocation: sourceLocation)
        let repeated = Dictionary(grouping: labels, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
        #expect(repeated.isEmpty, "\(place) lists \(repeated) more than once: \(labels)", sourceLocation: sourceLocation)
        try pilot.press(.escape)
        #expect(pilot.app.modals.count == modals, "\(place): Esc closes the help only", sourceLocation: sourceLocation)
    }

    @Test func theMapAndItsPrompts() throws {
        let pilot = launch()
        try expectHelp(pilot, key: .character("?"), "the map")
        try expectHelp(pilot, "the map")
        try pilot.press(.character("/"))
        try pilot.type("par")
        try expectHelp(pilot, "Find a place")
        #expect(pilot.lines.contains { $0.contains("Name: par") }, "the typed name is kept")
        try pilot.press(.escape)
        try pilot.press(.character("r"))
        #expect(pilot.app.modals.count == 1)
        try expectHelp(pilot, "Remember this place")
        try pilot.press(.escape)
        try pilot.press(.character("M"))
        try expectHelp(pilot, "the messages")
        try expectHelp(pilot, key: .character("?"), "the messages")
    }

    @Test func theCharactersTheirFilterPageAndNotesEditor() throws {
        let pilot = launch()
        try pilot.press(.character("2"))
        try expectHelp(pilot, key: .character("?"), "the characters")
        try pilot.press(.character("/"))
        try pilot.type("ha")
        try expectHelp(pilot, "the characters' filter")
        try pilot.press(.escape, .escape)
        try pilot.press(.enter)
        try expectHelp(pilot, key: .character("?"), "a character's page")
        try pilot.press(.character("e"))
        try expectHelp(pilot, "the notes editor")
    }

    @Test func theBookAndItsOpenPrompt() throws {
        let pilot = launch()
        try pilot.press(.character("3"))
        try expectHelp(pilot, key: .character("?"), "the book")
        try pilot.press(.character("o"))
        #expect(pilot.app.modals.count == 1)
        try expectHelp(pilot, "Open a book")
    }

    @Test func theSettingsAndATextFieldBeingEdited() throws {
        let pilot = launch()
        try pilot.press(.character(","))
        try expectHelp(pilot, key: .character("?"), "the settings")
        let sheet = try #require(pilot.app.modals.first as? SettingsSheet)
        let pane = try #require(sheet.navigation.topScreen as? SettingsScreen)
        #expect(pane.select(rowID: CloudSettings.syncServerKey))
        try pilot.press(.enter)
        try pilot.type("postgres://")
        try expectHelp(pilot, "a settings text field")
        try pilot.press(.function(2))
        pilot.expectScreen(contains: "─ Messages ─")
    }
}
