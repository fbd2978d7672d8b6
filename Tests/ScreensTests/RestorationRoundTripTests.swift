import Foundation
import KeyedArchive
import Restoration
@testable import Screens
import ScreensTesting
import Terminal
import Testing

/// Saves a screen tree through the real engine and restores it into a freshly made one, as a
/// relaunch does: `make` builds the tree the app would create at start-up.
private func relaunch<Root: Screen>(_ make: () -> Root, registry: RestorationClassRegistry = RestorationClassRegistry(),
                                    before: (Root, Pilot) throws -> Void) throws -> (Root, RestorationEngine.Report) {
    let first = make()
    let pilot = Pilot(first, columns: 60, rows: 14)
    try before(first, pilot)
    let engine = RestorationEngine(registry: registry, duplicatePolicy: .fail)
    let header = RestorationHeader(appVersion: "test", timestamp: Date(), terminalColumns: 60, terminalRows: 14)
    let data = try engine.preserve(root: first, modals: pilot.app.restorableModals, header: header).data
    let second = make()
    let report = try engine.restore(from: data, root: second)
    return (second, report)
}

private let people = (1...30).map { ListItem(id: "p\($0)", title: "Person \($0)") }

@Suite("Every screen type survives a relaunch")
struct RestorationRoundTripTests {
    @Test func tabScreenKeepsTheSelectedTabByIdentifier() throws {
        let (restored, _) = try relaunch({
            TabScreen(title: "T", tabs: [Screen(title: "A", restorationIdentifier: "A"), Screen(title: "B", restorationIdentifier: "B"),
                                         Screen(title: "C", restorationIdentifier: "C")], restorationIdentifier: "Tabs")
        }) { _, pilot in try pilot.press(.character("3")) }
        #expect(restored.selectedIndex == 2)

        // Reordered tabs: the same tab by identifier, not by position.
        let first = TabScreen(title: "T", tabs: [Screen(title: "A", restorationIdentifier: "A"), Screen(title: "C", restorationIdentifier: "C")], restorationIdentifier: "Tabs")
        first.select(1)
        let data = try RestorationEngine().preserve(root: first, header: RestorationHeader(appVersion: "t", timestamp: Date(), terminalColumns: 1, terminalRows: 1)).data
        let reordered = TabScreen(title: "T", tabs: [Screen(title: "C", restorationIdentifier: "C"), Screen(title: "B", restorationIdentifier: "B"),
                                                     Screen(title: "A", restorationIdentifier: "A")], restorationIdentifier: "Tabs")
        _ = try RestorationEngine().restore(from: data, root: reordered)
        #expect(reordered.selectedTab.restorationIdentifier == "C")
    }

    @Test func navigationStackRebuildsScreensPushedInCode() throws {
        var registry = RestorationClassRegistry()
        registry.register("Editor") { _, _ in
            let editor = TextEditorScreen(title: "Notes", restorationIdentifier: "Editor")
            editor.restorationClassName = "Editor"
            return editor
        }
        let (restored, report) = try relaunch({
            NavigationStack(root: ListScreen(title: "People", items: people, restorationIdentifier: "List"), restorationIdentifier: "Nav")
        }, registry: registry) { nav, pilot in
            let editor = TextEditorScreen(title: "Notes", restorationIdentifier: "Editor")
            editor.restorationClassName = "Editor"
            nav.push(editor)
            try pilot.type("half a no")
        }
        #expect(restored.stack.count == 2)
        let editor = try #require(restored.topScreen as? TextEditorScreen)
        #expect(editor.state.text == "half a no" && editor.state.column == 9)
        #expect(editor.parent === restored)
        #expect(report.restoredPaths == ["Nav", "Nav/List", "Nav/Editor"])
    }

    @Test func navigationStackWithoutARestorationClassFallsBackToItsRoot() throws {
        let (restored, report) = try relaunch({
            NavigationStack(root: Screen(title: "Root", restorationIdentifier: "Root"), restorationIdentifier: "Nav")
        }) { nav, _ in nav.push(Screen(title: "Pushed", restorationIdentifier: "Pushed")) }
        #expect(restored.stack.count == 1)
        #expect(report.log.contains { $0.hasPrefix("Nav/Pushed") })
    }

    @Test func listKeepsSelectionAndScrollByIdentifier() throws {
        let (restored, _) = try relaunch({ ListScreen(title: "People", items: people, restorationIdentifier: "List") }) { _, pilot in
            for _ in 0..<20 { try pilot.press(.down) }
        }
        #expect(restored.state.selectedID == "p21")
        let pilot = Pilot(restored, columns: 60, rows: 14)
        #expect(pilot.content.contains { $0.contains("▸ Person 21") })
        // The selection sits on the same screen row as before the relaunch (the last row).
        #expect(pilot.content.firstIndex { $0.contains("Person 21") } == 12)
    }

    @Test func listLandsOnTheSameItemAfterTheDataIsReordered() throws {
        let list = ListScreen(title: "People", items: people, restorationIdentifier: "List")
        list.select(id: "p7")
        let data = try archive(list)
        let reordered = ListScreen(title: "People", items: people.reversed(), restorationIdentifier: "List")
        _ = try RestorationEngine().restore(from: data, root: reordered)
        #expect(reordered.selectedItem?.id == "p7")
        #expect(reordered.selectedIndex == 23)
    }

    @Test func listLandsOnTheNearestNeighbourWhenTheItemVanished() throws {
        let list = ListScreen(title: "People", items: people, restorationIdentifier: "List")
        list.select(id: "p7")
        let data = try archive(list)
        let thinned = ListScreen(title: "People", items: people.filter { !["p6", "p7", "p8"].contains($0.id) }, restorationIdentifier: "List")
        _ = try RestorationEngine().restore(from: data, root: thinned)
        #expect(thinned.selectedItem?.id == "p9")  // after first, at equal distance
        let gone = ListScreen(title: "People", items: people.filter { !["p7", "p8", "p9"].contains($0.id) }, restorationIdentifier: "List")
        _ = try RestorationEngine().restore(from: data, root: gone)
        #expect(gone.selectedItem?.id == "p6")
    }

    @Test func listKeepsItsFilterAndTheSelectionInsideIt() throws {
        let (restored, _) = try relaunch({ ListScreen(title: "People", items: people, restorationIdentifier: "List") }) { _, pilot in
            try pilot.type("/Person 2")
            try pilot.press(.down, .down)
        }
        #expect(restored.state.filter.text == "Person 2")
        #expect(restored.state.isEditingFilter)
        #expect(restored.selectedItem?.id == "p21")  // p2, p20, p21
        #expect(restored.visibleItems.count == 11)
    }

    @Test func pagerKeepsTheSameTextOnTop() throws {
        let text = (1...200).map { "Line \($0) of the text." }.joined(separator: "\n")
        let (restored, _) = try relaunch({ PagerScreen(title: "Book", text: text, restorationIdentifier: "Book") }) { _, pilot in
            try pilot.press(.character(" "), .character(" "))
        }
        let pilot = Pilot(restored, columns: 40, rows: 10)
        #expect(restored.anchorOffset > 0)
        #expect(pilot.content.first?.trimmingCharacters(in: .whitespaces).hasPrefix("Line 25") == true, "\(pilot.content)")
    }

    @Test func editorKeepsTheDraftAndItsCursor() throws {
        let (restored, _) = try relaunch({ TextEditorScreen(title: "Notes", restorationIdentifier: "Notes") }) { _, pilot in
            try pilot.type("first line")
            try pilot.press(.enter)
            try pilot.type("sec")
            try pilot.press(.left)
        }
        #expect(restored.state.text == "first line\nsec")
        #expect(restored.state.line == 1 && restored.state.column == 2)
    }

    @Test func editorKeepsTheRowsItShowedNotOnlyTheCursor() throws {
        var shown: [String] = []
        let (restored, _) = try relaunch({ TextEditorScreen(title: "Notes", restorationIdentifier: "Notes") }) { _, pilot in
            try pilot.paste((1...60).map { "Line \($0) of a note long enough to wrap at sixty columns, twice over" }.joined(separator: "\n"))
            // Up from the end: the cursor leaves the bottom row, the view stays where it was.
            for _ in 0..<5 { try pilot.press(.up) }
            shown = pilot.content
        }
        let pilot = Pilot(restored, columns: 60, rows: 14)
        #expect(pilot.content == shown, "\(pilot.content)")
    }

    @Test func aPromptWithADraftPolicyComesBackAsTyped() throws {
        var registry = RestorationClassRegistry()
        registry.register("TitlePrompt") { _, _ in Self.titlePrompt() }
        let root = Screen(title: "Root", restorationIdentifier: "Root")
        let pilot = Pilot(root)
        pilot.app.presentModal(Self.titlePrompt())
        try pilot.type("Home swe")
        let engine = RestorationEngine(registry: registry)
        let header = RestorationHeader(appVersion: "t", timestamp: Date(), terminalColumns: 40, terminalRows: 12)
        let data = try engine.preserve(root: root, modals: pilot.app.restorableModals, header: header).data

        var presented: [Screen] = []
        _ = try engine.restore(from: data, root: Screen(title: "Root", restorationIdentifier: "Root")) { presented.append($0 as! Screen) }
        let prompt = try #require(presented.first as? Prompt)
        #expect(prompt.field.text == "Home swe")
    }

    @Test func secretsAlertsAndConfirmationsAreNeverSaved() throws {
        let root = Screen(title: "Root", restorationIdentifier: "Root")
        let pilot = Pilot(root)
        let secret = Self.titlePrompt()
        secret.isSecure = true
        pilot.app.presentModal(Alert(title: "Hi", message: "there", restorationIdentifier: "Alert"))
        pilot.app.presentModal(Confirm(title: "Sure?", message: "", restorationIdentifier: "Confirm"))
        pilot.app.presentModal(secret)
        try pilot.type("hunter2")
        #expect(pilot.app.restorableModals.isEmpty)
        #expect(pilot.content.contains { $0.contains("•••••••") })
        #expect(!pilot.content.contains { $0.contains("hunter2") })
    }

    static func titlePrompt() -> Prompt {
        let prompt = Prompt(title: "Remember this place", message: "Title:", restorationIdentifier: "TitlePrompt")
        prompt.restorationClassName = "TitlePrompt"
        prompt.preservesDraft = true
        return prompt
    }

    private func archive(_ root: Screen) throws -> Data {
        try RestorationEngine().preserve(root: root, header: RestorationHeader(appVersion: "t", timestamp: Date(), terminalColumns: 1, terminalRows: 1)).data
    }
}
