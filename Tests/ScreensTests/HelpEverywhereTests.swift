import Testing
import Screens
import ScreensTesting
import Terminal

/// F1 opens help over every modal, prompt, list and overlay, `?` too where it is not text,
/// and every help lists each key once.
@Suite("Help everywhere")
struct HelpEverywhereTests {
    private func pilot(rows: Int = 30) -> (Pilot, RecordingScreen) {
        let root = RecordingScreen("Root")
        root.bindings = [KeyBinding(.escape, help: "Back") {}, KeyBinding(.character("x"), help: "Mark") {}]
        return (Pilot(root, columns: 80, rows: rows), root)
    }

    private func expectEachKeyOnce(_ pilot: Pilot, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let labels = pilot.shownHelpKeyLabels else {
            Issue.record("no help on screen:\n\(pilot.numberedScreen)", sourceLocation: sourceLocation)
            return
        }
        #expect(!labels.isEmpty, sourceLocation: sourceLocation)
        #expect(Set(labels).count == labels.count, "\(labels)", sourceLocation: sourceLocation)
    }

    @Test func f1OverAPromptShowsItsKeysAndLeavesTheTextAsTyped() throws {
        let (pilot, root) = pilot()
        var answers: [String?] = []
        root.present(Prompt(title: "Find", message: "Search for:") { answers.append($0) })
        try pilot.type("rabbit?")
        try pilot.press(.function(1))
        pilot.expectScreen(contains: "Keys: Find")
        #expect(Array((pilot.shownHelpKeyLabels ?? []).prefix(2)) == ["Enter", "Esc"])
        pilot.expectScreen(contains: " OK ")
        // The field's own keys are listed too, declared once with what they do.
        pilot.expectScreen(contains: "Delete the word before the cursor (also M-Bksp)")
        pilot.expectScreen(contains: "Start / end of the text (also ^A/^E)")
        expectEachKeyOnce(pilot)
        try pilot.press(.escape)  // closes the help only
        #expect(pilot.app.modals.count == 1)
        try pilot.press(.enter)
        #expect(answers == ["rabbit?"])
    }

    @Test func f2OverAPromptShowsTheMessages() throws {
        let (pilot, root) = pilot()
        root.present(Prompt(title: "Find", message: "Search for:"))
        try pilot.press(.function(2))
        pilot.expectScreen(contains: "─ Messages ─")
        try pilot.press(.function(2))  // F2 closes them again
        #expect(pilot.app.modals.count == 1)
    }

    @Test func helpReachesTheMessagesAndItsOwnKeysCloseIt() throws {
        let (pilot, _) = pilot()
        try pilot.press(.character("M"))
        try pilot.press(.function(1))
        pilot.expectScreen(contains: "Keys: Messages")
        expectEachKeyOnce(pilot)
        try pilot.press(.function(1))  // F1 closes the help it opened
        #expect(pilot.app.modals.count == 1)
        pilot.expectScreen(contains: "─ Messages ─")
        try pilot.press(.character("?"))
        pilot.expectScreen(contains: "Keys: Messages")
        try pilot.press(.character("?"))
        pilot.expectScreen(doesNotContain: "Keys: ")
    }

    @Test func questionMarkOpensHelpOverAConfirmButIsTextInAPrompt() throws {
        let (pilot, root) = pilot()
        root.present(Confirm(title: "Leave", message: "Quit the tea party?"))
        try pilot.press(.character("?"))
        pilot.expectScreen(contains: "Keys: Leave")
        expectEachKeyOnce(pilot)
        try pilot.press(.escape, .escape)
        #expect(pilot.app.modals.isEmpty)
        root.present(Prompt(title: "Name", message: "Who?"))
        try pilot.press(.character("?"))
        pilot.expectScreen(doesNotContain: "Keys: ")
    }

    @Test func theEditorListsEscOnceUnderAPageThatAlsoBindsIt() throws {
        let page = RecordingScreen("Page")
        page.bindings = [KeyBinding(.escape, help: "Back") {}, KeyBinding([.escape, .character("b")], label: "Esc", help: "Back") {}]
        let editor = TextEditorScreen(title: "Notes")
        let holder = HolderScreen(page: page, editor: editor)
        let pilot = Pilot(holder, columns: 80, rows: 40)
        try pilot.press(.function(1))
        expectEachKeyOnce(pilot)
        let labels = pilot.shownHelpKeyLabels ?? []
        #expect(labels.filter { $0 == "Esc" }.count == 1, "\(labels)")
    }
}

/// A page with an editor focused inside it, as a character's page holds its notes editor.
private final class HolderScreen: Screen {
    let page: RecordingScreen
    let editor: TextEditorScreen
    init(page: RecordingScreen, editor: TextEditorScreen) {
        self.page = page
        self.editor = editor
        super.init(title: "Page")
        adopt(editor)
    }
    override var children: [Screen] { [editor] }
    override var visibleChildren: [Screen] { [editor] }
    override var keyBindings: [KeyBinding] { page.bindings }
    override func draw(in canvas: Canvas) { editor.render(in: canvas) }
}
