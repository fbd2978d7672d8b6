import Testing
import Screens
import ScreensTesting
import Terminal

@Suite("Application")
struct ApplicationTests {
    /// Three tabs; the first answers to x (shown) and z (help only).
    private func app(columns: Int = 80, rows: Int = 24) -> (Pilot, TabScreen, [RecordingScreen]) {
        let (tabs, screens) = threeTabs()
        screens[0].bindings = [
            KeyBinding(.character("x"), help: "Xylophone: play a note") { screens[0].body.append("note") },
            KeyBinding(.character("z"), help: "Zap", showsInHintBar: false) {},
        ]
        return (Pilot(tabs, columns: columns, rows: rows), tabs, screens)
    }

    // MARK: hint bar

    @Test func hintBarListsTheFocusedScreenFirstThenItsContainersThenPinnedKeys() {
        let (pilot, _, _) = app()
        #expect(pilot.hintBar == DisplayWidth.pad("x Xylophone  1-3 Go to a tab  Tab Next tab", to: 64) + "? Help  q Quit")
        #expect(pilot.style(of: "x Xylophone", row: 23) == Style(bold: true))  // the key stands out
        #expect(pilot.style(of: "Xylophone", row: 23) == Style(reverse: true))
        #expect(pilot.terminal.frame[50, 23].style.reverse)  // the bar spans the row
    }

    @Test func hintBarFollowsTheFocus() throws {
        let log = CallLog()
        let nav = NavigationStack(root: RecordingScreen("A", log: log))
        let tabs = TabScreen(title: "Root", tabs: [nav, RecordingScreen("Other")])
        let pilot = Pilot(tabs, columns: 80)
        let b = RecordingScreen("B", log: log)
        b.bindings = [KeyBinding(.character("e"), help: "Edit") {}]
        nav.push(b)
        try pilot.press()
        #expect(pilot.hintBar == DisplayWidth.pad("e Edit  Esc Back to A  1-2 Go to a tab  Tab Next tab", to: 64) + "? Help  q Quit")
    }

    @Test func narrowHintBarDropsScreenKeysButKeepsThePinnedOnes() {
        let (pilot, _, _) = app(columns: 40, rows: 12)
        #expect(pilot.hintBar == "x Xylophone             ? Help  q Quit")
    }

    @Test func modalHintBarShowsOnlyTheModalsKeys() throws {
        let (pilot, tabs, _) = app()
        tabs.present(Confirm(title: "Sure", message: "Really?"))
        try pilot.press()
        #expect(pilot.hintBar == "y Yes  n No  ←→ Choose  Enter Answer  Esc Cancel                        ? Help")
    }

    // MARK: help

    @Test func questionMarkOpensHelpListingEveryBindingAndEscClosesIt() throws {
        let (pilot, _, screens) = app()
        let before = pilot.lines
        try pilot.press(.character("?"))
        #expect(pilot.app.modals.count == 1)
        let text = pilot.lines
        #expect(text.contains { $0.hasPrefix("        ┌─ Keys: Map ─") })
        for row in ["x      Xylophone: play a note", "z      Zap", "1-3    Go to a tab: Map, Characters, Book", "Tab    Next tab",
                    "S-Tab  Previous tab", "?      Help: every key of this screen", "q      Quit",
                    "^C     Quit (from anywhere)"] {
            #expect(text.contains { $0.hasPrefix("        │ " + row) }, "\(row)")
        }
        #expect(pilot.hintBar == "Esc Close help")
        try pilot.press(.character("x"))  // the overlay takes keys: not the screen's
        #expect(screens[0].body.isEmpty)
        try pilot.press(.escape)
        #expect(pilot.app.modals.isEmpty)
        #expect(pilot.lines == before)
    }

    @Test func aContainerModalThatLeavesQuestionMarkAloneGetsHelpForItsOwnKeys() throws {
        let (pilot, _, _) = app()
        let pane = RecordingScreen("Sheet")
        pane.bindings = [KeyBinding(.character("s"), help: "Sort the sheet") {}]
        pilot.app.presentModal(NavigationStack(root: pane))
        try pilot.press()
        #expect(pilot.hintBar.contains("? Help"), "the bar offers it: \(pilot.hintBar)")
        try pilot.press(.character("?"))
        #expect(pilot.app.modals.count == 2)
        #expect(pilot.lines.contains { $0.contains("┌─ Keys: Sheet ─") })
        #expect(pilot.lines.contains { $0.contains("│ s ") && $0.contains("Sort the sheet") }, "\(pilot.lines)")
        #expect(!pilot.lines.contains { $0.contains("Xylophone") }, "the screen under the sheet is not what its keys reach")
        try pilot.press(.character("?"))
        #expect(pilot.app.modals.count == 1, "? on the help closes it, it does not open another")
        try pilot.press(.function(1))
        #expect(pilot.app.modals.count == 2)
    }

    @Test func qAndQuestionMarkCloseHelpWithoutQuitting() throws {
        let (pilot, _, _) = app()
        try pilot.press(.character("?"), .character("q"))
        #expect(pilot.app.modals.isEmpty)
        #expect(pilot.app.terminationReason == nil)
        try pilot.press(.function(1), .character("?"))
        #expect(pilot.app.modals.isEmpty)
    }

    // MARK: ending

    @Test func qQuitsAndCallsWillTerminate() throws {
        let (pilot, _, _) = app()
        let recorder = LifecycleRecorder()
        pilot.app.addLifecycleObserver(recorder)
        pilot.app.addLifecycleObserver(recorder)  // once only
        let frames = pilot.app.framesRendered
        try pilot.press(.character("q"), .character("2"))
        #expect(pilot.app.terminationReason == .quit)
        #expect(pilot.app.state == .notRunning)
        #expect(recorder.log == ["willTerminate(quit)"])
        #expect(pilot.app.framesRendered == frames)  // nothing drawn after the end
        #expect(pilot.terminal.hasPendingEvents)  // the key after q is left alone
    }

    @Test(arguments: [
        (Event.key(.control("c")), TerminationReason.interrupt),
        (.terminate(.hangup), .hangup), (.terminate(.terminate), .terminate), (.terminate(.interrupt), .interrupt),
    ])
    func signalsAndCtrlCEndTheAppWithTheirReason(_ event: Event, _ reason: TerminationReason) throws {
        let (pilot, _, _) = app()
        let recorder = LifecycleRecorder()
        pilot.app.addLifecycleObserver(recorder)
        try pilot.send(event)
        #expect(pilot.app.terminationReason == reason)
        #expect(recorder.log == ["willTerminate(\(reason))"])
    }

    @Test func ctrlCEndsTheAppWhileTyping() throws {
        let editor = TextEditorScreen(title: "Notes")
        let pilot = Pilot(editor)
        try pilot.type("q")
        try pilot.press(.control("c"))
        #expect(pilot.app.terminationReason == .interrupt)
    }

    @Test func launchNotifiesObserversAndBecomesActive() {
        let terminal = HeadlessTerminal()
        let app = Application(terminal: terminal, root: RecordingScreen("Root"))
        let recorder = LifecycleRecorder()
        app.addLifecycleObserver(recorder)
        #expect(app.state == .notRunning)
        app.launch()
        #expect(recorder.log == ["didFinishLaunching"])
        #expect(app.state == .active)
        #expect(terminal.framesPresented == 1)
        #expect(terminal.fullRepaints == 1)
    }

    // MARK: background

    @Test func suspendGoesToTheBackgroundAroundTheTerminalsSuspend() throws {
        let terminal = LoggingTerminal()
        let recorder = LifecycleRecorder()
        recorder.terminal = terminal
        let app = Application(terminal: terminal, root: RecordingScreen("Root"))
        app.addLifecycleObserver(recorder)
        app.launch()
        #expect(terminal.log == ["didFinishLaunching", "present(full)"])
        terminal.log = []
        terminal.inner.enqueue(.suspend)
        try app.processPendingEvents()
        #expect(terminal.log == ["didEnterBackground", "suspend", "willEnterForeground", "present(full)"])
        #expect(app.state == .active)
        #expect(terminal.inner.suspendCount == 1)
    }

    @Test func resumeWithoutSuspendRepaintsFullyWithoutLifecycleCalls() throws {
        let terminal = LoggingTerminal()
        let recorder = LifecycleRecorder()
        recorder.terminal = terminal
        let app = Application(terminal: terminal, root: RecordingScreen("Root"))
        app.addLifecycleObserver(recorder)
        app.launch()
        terminal.log = []
        terminal.inner.enqueue(.resume)
        try app.processPendingEvents()
        #expect(terminal.log == ["present(full)"])
    }

    // MARK: size

    @Test func tooSmallTerminalShowsAMessageUntilEnlarged() throws {
        let (tabs, _) = threeTabs()
        let pilot = Pilot(tabs, columns: 20, rows: 6)
        #expect(pilot.lines == ["", " Terminal too small", "  20×6, need 40×10", "Enlarge it, or q to…", "", ""])
        #expect(pilot.style(of: "Terminal too small", row: 1)?.bold == true)
        try pilot.press(.character("2"), .tab)  // screens get no keys meanwhile
        #expect(tabs.selectedIndex == 0)
        try pilot.resize(columns: 40, rows: 12)
        #expect(pilot.lines[0] == "  1 Map   2 Characters   3 Book")
        #expect(pilot.lines[1] == "[Map]")
        #expect(pilot.lines.count == 12)
        try pilot.resize(columns: 39, rows: 12)
        #expect(pilot.lines[4] == "          Terminal too small")
        #expect(pilot.lines[5] == "           39×12, need 40×10")
    }

    @Test func qAndCtrlCStillWorkWhenTooSmall() throws {
        let small = Pilot(RecordingScreen("Root"), columns: 20, rows: 6)
        try small.press(.character("q"))
        #expect(small.app.terminationReason == .quit)
        let other = Pilot(RecordingScreen("Root"), columns: 20, rows: 6)
        try other.press(.control("c"))
        #expect(other.app.terminationReason == .interrupt)
    }

    @Test func resizeRepaintsEverything() throws {
        let (pilot, _, _) = app(columns: 40, rows: 12)
        #expect(pilot.terminal.fullRepaints == 1)
        try pilot.press(.character("2"))
        #expect(pilot.terminal.fullRepaints == 1)
        try pilot.resize(columns: 60, rows: 15)
        #expect(pilot.terminal.fullRepaints == 2)
        #expect(pilot.terminal.frame.size == Size(columns: 60, rows: 15))
        #expect(pilot.lines.count == 15)
        #expect(pilot.lines[1] == "[Characters]")
    }

    // MARK: drawing economy

    @Test func eventsThatChangeNothingDrawNothing() throws {
        let (pilot, tabs, _) = app()
        let frames = pilot.app.framesRendered
        try pilot.press(.character("w"), .function(7), .insert)  // bound nowhere
        try pilot.send(.mouse(MouseEvent(.release, at: Point(x: 5, y: 5))))
        try pilot.send(.mouse(MouseEvent(.press, at: Point(x: 5, y: 5))))  // on a screen with no mouse use
        #expect(pilot.app.framesRendered == frames)
        #expect(pilot.terminal.framesPresented == frames)

        tabs.present(Alert(title: "Note", message: "Hi"))
        try pilot.press()
        let withModal = pilot.app.framesRendered
        try pilot.press(.character("w"), .down)  // keys the alert ignores
        #expect(pilot.app.framesRendered == withModal)
    }

    @Test func manyEventsInOneTickDrawOneFrame() throws {
        let (pilot, tabs, _) = app()
        let frames = pilot.app.framesRendered
        try pilot.press(.tab, .tab, .backTab, .character("x"))
        #expect(pilot.app.framesRendered == frames + 1)
        #expect(tabs.selectedIndex == 1)
        try pilot.press()
        #expect(pilot.app.framesRendered == frames + 1)  // nothing pending: no frame
    }

    // MARK: errors

    @Test func anErrorFromAKeyBindingPropagates() throws {
        let root = RecordingScreen("Root")
        root.bindings = [KeyBinding(.character("!"), help: "Fail") { throw TestError(message: "boom") }]
        let pilot = Pilot(root)
        #expect(throws: TestError(message: "boom")) { try pilot.press(.character("!")) }
        #expect(pilot.app.terminationReason == nil)
    }

    @Test func runReturnsTheReasonAndRethrowsErrors() throws {
        let terminal = HeadlessTerminal()
        terminal.enqueue(.key(.tab))
        terminal.enqueue(.key(.character("q")))
        let (tabs, _) = threeTabs()
        let app = Application(terminal: terminal, root: tabs)
        #expect(try app.run() == .quit)
        #expect(tabs.selectedIndex == 1)

        let failing = RecordingScreen("Root")
        failing.bindings = [KeyBinding(.character("!"), help: "Fail") { throw TestError(message: "from run") }]
        let other = HeadlessTerminal()
        other.enqueue(.key(.character("!")))
        #expect(throws: TestError(message: "from run")) { try Application(terminal: other, root: failing).run() }
    }

    @Test func runCanStopAfterTheFirstFrame() throws {
        let terminal = HeadlessTerminal()
        terminal.enqueue(.key(.tab))
        let app = Application(terminal: terminal, root: threeTabs().0)
        #expect(try app.run(exitAfterFirstFrame: true) == .quit)
        #expect(terminal.framesPresented == 1)
        #expect(terminal.lines[0] == "  1 Map   2 Characters   3 Book")
        #expect(terminal.hasPendingEvents)
    }
}
