import Testing
import Screens
import ScreensTesting
import Terminal

@Suite("Modals")
struct ModalTests {
    /// A plain root, 40×12: the content is rows 0...10, the hint bar row 11.
    private func pilot() -> (Pilot, RecordingScreen) {
        let root = RecordingScreen("Root")
        root.bindings = [KeyBinding(.character("x"), help: "Mark") { root.body.append("x pressed") }]
        return (Pilot(root), root)
    }

    @Test func alertShowsItsBoxAndClosesWithEnterEscOrSpace() throws {
        for key in [Key.enter, .escape, .character(" ")] {
            let (pilot, root) = pilot()
            var closed = 0
            root.present(Alert(title: "Note", message: "Your place is saved.") { closed += 1 })
            try pilot.press()
            #expect(Array(pilot.lines[2...8]) == [
                "     ┌─ Note ─────────────────────┐",
                "     │ Your place is saved.       │",
                "     │                            │",
                "     │           [ OK ]           │",
                "     │                            │",
                "     └────────────────────────────┘",
                "",
            ])
            #expect(pilot.style(of: "[ OK ]", row: 5)?.reverse == true)
            #expect(pilot.hintBar == "Enter Close                     ? Help")
            try pilot.press(key)
            #expect(closed == 1)
            #expect(pilot.app.modals.isEmpty)
            #expect(pilot.lines[0] == "[Root]")
            #expect(pilot.lines[3] == "")
        }
    }

    @Test func anAlertThatCameUnaskedPassesOnTheKeyThatClosesIt() throws {
        let (pilot, root) = pilot()
        let alert = Alert(title: "Sync", message: "The local copy was moved aside.")
        alert.passesOtherKeysOn = true
        root.present(alert)
        try pilot.press()
        try pilot.press(.character("x"))
        #expect(pilot.app.modals.isEmpty)
        #expect(root.body.contains("x pressed"), "the key the user typed is not lost")
        #expect(pilot.app.messageLog.entries.contains("Sync: The local copy was moved aside."))
        // Its own keys only close it.
        let again = Alert(title: "Sync", message: "Again.")
        again.passesOtherKeysOn = true
        root.present(again)
        try pilot.press(.enter)
        #expect(pilot.app.modals.isEmpty)
        #expect(root.body.filter { $0 == "x pressed" }.count == 1)
        // A plain alert still takes every key.
        root.present(Alert(title: "Note", message: "Asked for."))
        try pilot.press(.character("x"))
        #expect(pilot.app.modals.count == 1)
        #expect(root.body.filter { $0 == "x pressed" }.count == 1)
    }

    @Test func modalWrapsALongMessage() throws {
        let (pilot, root) = pilot()
        root.present(Alert(title: "Off with her head", message: "The Queen had only one way of settling all difficulties, great or small."))
        try pilot.press()
        #expect(Array(pilot.lines[1...9]) == [
            "┌─ Off with her head ──────────────────┐",
            "│ The Queen had only one way of        │",
            "│ settling all difficulties, great or  │",
            "│ small.                               │",
            "│                                      │",
            "│                [ OK ]                │",
            "│                                      │",
            "└──────────────────────────────────────┘",
            "",
        ])
    }

    @Test func confirmAnswersWithYAndN() throws {
        for (key, expected) in [(Key.character("y"), true), (.character("n"), false), (.escape, false), (.enter, true)] {
            let (pilot, root) = pilot()
            var answers: [Bool] = []
            root.present(Confirm(title: "Leave", message: "Quit the tea party?") { answers.append($0) })
            try pilot.press(key)
            #expect(answers == [expected], "\(key)")
            #expect(pilot.app.modals.isEmpty)
        }
    }

    @Test func confirmArrowsMoveTheHighlightAndEnterTakesIt() throws {
        let (pilot, root) = pilot()
        var answers: [Bool] = []
        root.present(Confirm(title: "Leave", message: "Quit the tea party?") { answers.append($0) })
        try pilot.press()
        let row = try #require(pilot.lines.firstIndex { $0.contains("[ Yes ]") })
        #expect(pilot.lines[row] == "     │      [ Yes ]  [ No ]       │")
        #expect(pilot.style(of: "[ Yes ]", row: row)?.reverse == true)
        #expect(pilot.style(of: "[ No ]", row: row)?.reverse == false)
        try pilot.press(.right)
        #expect(pilot.style(of: "[ Yes ]", row: row)?.reverse == false)
        #expect(pilot.style(of: "[ No ]", row: row)?.reverse == true)
        try pilot.press(.tab, .left)  // twice more: back to Yes, then No again
        #expect(pilot.style(of: "[ No ]", row: row)?.reverse == true)
        #expect(answers.isEmpty)
        try pilot.press(.enter)
        #expect(answers == [false])
    }

    @Test func confirmAnswersWithAClickOnAButton() throws {
        for (button, expected) in [("[ No ]", false), ("[ Yes ]", true)] {
            let (pilot, root) = pilot()
            var answers: [Bool] = []
            root.present(Confirm(title: "Leave", message: "Quit the tea party?") { answers.append($0) })
            try pilot.press()
            let row = try #require(pilot.lines.firstIndex { $0.contains(button) })
            let column = try #require(pilot.lines[row].firstRange(of: button)).lowerBound.utf16Offset(in: pilot.lines[row])
            try pilot.click(x: column + 2, y: row)
            #expect(answers == [expected], "\(button)")
            #expect(pilot.app.modals.isEmpty)
        }
    }

    @Test func confirmIgnoresClicksBesideTheButtons() throws {
        let (pilot, root) = pilot()
        var answers: [Bool] = []
        root.present(Confirm(title: "Leave", message: "Quit the tea party?") { answers.append($0) })
        try pilot.press()
        try pilot.click(x: 0, y: 0)
        #expect(answers.isEmpty)
        #expect(pilot.app.modals.count == 1)
    }

    @Test func promptTakesTextIncludingWideCharactersAndReturnsItOnEnter() throws {
        let (pilot, root) = pilot()
        var results: [String?] = []
        root.present(Prompt(title: "Name", message: "Who are you?") { results.append($0) })
        try pilot.press()
        #expect(pilot.lines[3] == "     │ Who are you?               │")
        #expect(pilot.cursor == Point(x: 7, y: 5))
        try pilot.type("Alice 世")
        #expect(pilot.lines[5] == "     │ Alice 世                   │")
        #expect(pilot.cursor == Point(x: 15, y: 5))  // 7 + "Alice " (6) + 世 (2)
        try pilot.press(.backspace)
        try pilot.type("界q?")
        #expect(pilot.lines[5] == "     │ Alice 界q?                 │")
        #expect(pilot.app.terminationReason == nil)  // q was text, not Quit
        #expect(pilot.app.modals.count == 1)  // ? was text, not Help
        #expect(pilot.hintBar == "Enter OK  Esc Cancel           F1 Help")
        try pilot.press(.enter)
        #expect(results == ["Alice 界q?"])
        #expect(pilot.app.modals.isEmpty)
        #expect(pilot.cursor == nil)
    }

    @Test func promptEscReturnsNil() throws {
        let (pilot, root) = pilot()
        var results: [String?] = []
        root.present(Prompt(title: "Name", message: "Who are you?", text: "Ali") { results.append($0) })
        try pilot.press(.escape)
        #expect(results == [nil])
    }

    @Test func promptScrollsALongTextToKeepTheCursorInTheField() throws {
        let (pilot, root) = pilot()
        root.present(Prompt(title: "Name", message: "Who are you?"))
        try pilot.type(String(repeating: "abcdefghij", count: 3))
        // The field is 26 columns at x 7; the cursor, after the text, takes its last column.
        #expect(pilot.lines[5] == "     │ fghijabcdefghijabcdefghij  │")
        #expect(pilot.cursor == Point(x: 32, y: 5))
        try pilot.press(.home)
        #expect(pilot.lines[5] == "     │ abcdefghijabcdefghijabcdef │")
        #expect(pilot.cursor == Point(x: 7, y: 5))
    }

    @Test func aModalSwallowsKeysMeantForTheScreensBelow() throws {
        let (tabs, _) = threeTabs()
        let pilot = Pilot(tabs)
        tabs.present(Alert(title: "Note", message: "Hello"))
        try pilot.press(.character("2"), .character("q"), .tab)
        #expect(tabs.selectedIndex == 0)
        #expect(pilot.app.terminationReason == nil)
        #expect(pilot.app.modals.count == 1)
        try pilot.press(.character("?"))  // help is the one way out of an alert but its own keys
        #expect(pilot.app.modals.count == 2)
        pilot.expectScreen(contains: "Keys: Note")
    }

    @Test func ctrlCEndsTheAppEvenUnderAModal() throws {
        for modal: Screen in [Alert(title: "A", message: "m"), Confirm(title: "C", message: "m"), Prompt(title: "P", message: "m")] {
            let (pilot, root) = pilot()
            root.present(modal)
            try pilot.press(.control("c"))
            #expect(pilot.app.terminationReason == .interrupt, "\(modal.title)")
        }
    }

    @Test func modalsStackAndCloseTopFirst() throws {
        let (pilot, root) = pilot()
        var order: [String] = []
        root.present(Alert(title: "First", message: "one") { order.append("first") })
        root.present(Alert(title: "Second", message: "two") { order.append("second") })
        try pilot.press()
        #expect(pilot.lines.contains { $0.contains("Second") })
        try pilot.press(.enter)
        #expect(order == ["second"])
        #expect(pilot.lines.contains { $0.contains("First") })
        try pilot.press(.enter)
        #expect(order == ["second", "first"])
    }

    @Test func presentingRunsTheModalsLifecycle() throws {
        let (pilot, root) = pilot()
        let log = CallLog()
        let sheet = RecordingScreen("Sheet", log: log)
        root.present(sheet)
        #expect(log.take() == ["Sheet.didLoad", "Sheet.willAppear", "Sheet.didAppear"])
        #expect(sheet.application === pilot.app)
        pilot.app.dismissModal(sheet)
        #expect(log.take() == ["Sheet.willDisappear", "Sheet.didDisappear"])
    }

    @Test func asciiTerminalDrawsTheBoxInASCII() throws {
        let root = RecordingScreen("Root")
        let pilot = Pilot(root, capabilities: .init(colors: false, unicode: false))
        root.present(Alert(title: "Note", message: "Your place is saved…"))
        try pilot.press()
        #expect(pilot.lines[2] == "     +- Note ---------------------+")
        #expect(pilot.lines[3] == "     | Your place is saved~       |")
        #expect(pilot.lines[7] == "     +----------------------------+")
    }
}
