import Testing
import Screens
import ScreensTesting
import Terminal

@Suite("NavigationStack")
struct NavigationStackTests {
    private func makeStack() -> (NavigationStack, RecordingScreen, CallLog) {
        let log = CallLog()
        let a = RecordingScreen("A", log: log)
        return (NavigationStack(root: a), a, log)
    }

    @Test func pushShowsTheTitlePath() throws {
        let (nav, _, _) = makeStack()
        let pilot = Pilot(nav)
        #expect(pilot.lines[0] == " A")
        #expect(pilot.lines[1] == "[A]")
        nav.push(RecordingScreen("B"))
        try pilot.press()
        #expect(pilot.lines[0] == " A › B")
        #expect(pilot.lines[1] == "[B]")
        #expect(pilot.style(of: "A › B", row: 0)?.bold == true)
        nav.push(RecordingScreen("C"))
        try pilot.press()
        #expect(pilot.lines[0] == " A › B › C")
        #expect(nav.stack.map(\.title) == ["A", "B", "C"])
    }

    @Test func longTitlePathIsTruncated() throws {
        let (nav, _, _) = makeStack()
        let pilot = Pilot(nav, columns: 40)
        nav.push(RecordingScreen("The Mock Turtle's Story, told slowly and at length"))
        try pilot.press()
        #expect(pilot.lines[0] == " A › The Mock Turtle's Story, told slo…")  // a column of margin each side
    }

    @Test(arguments: [Key.escape, .backspace, .left])
    func backKeysPop(_ key: Key) throws {
        let (nav, a, _) = makeStack()
        let pilot = Pilot(nav)
        let b = RecordingScreen("B")
        nav.push(b)
        try pilot.press(key)
        #expect(nav.stack.count == 1)
        #expect(pilot.lines[0] == " A")
        #expect(pilot.lines[1] == "[A]")
        #expect(b.parent == nil)
        #expect(a.parent === nav)
    }

    @Test func popAtRootDoesNothingAndPassesTheKeyOn() throws {
        let (nav, _, log) = makeStack()
        let outer = CatchAllScreen(nav)
        let pilot = Pilot(outer)
        _ = log.take()
        try pilot.press(.escape, .left)
        #expect(nav.stack.count == 1)
        #expect(nav.pop() == nil)
        #expect(outer.received == [.key(.escape), .key(.left)])
        #expect(log.take() == [])

        nav.push(RecordingScreen("B"))
        try pilot.press(.escape)
        #expect(outer.received == [.key(.escape), .key(.left)])  // taken by the stack this time
    }

    @Test func pushAndPopRunTheAppearanceCalls() throws {
        let (nav, _, log) = makeStack()
        let pilot = Pilot(nav)
        #expect(log.take() == ["A.didLoad", "A.willAppear", "A.didAppear"])
        let b = RecordingScreen("B", log: log)
        nav.push(b)
        #expect(log.take() == ["A.willDisappear", "A.didDisappear", "B.didLoad", "B.willAppear", "B.didAppear"])
        try pilot.press(.escape)
        #expect(log.take() == ["B.willDisappear", "B.didDisappear", "A.willAppear", "A.didAppear"])
        #expect(!b.isVisible)
    }

    @Test func pushBeforeAppearingDefersTheCalls() {
        let (nav, _, log) = makeStack()
        nav.push(RecordingScreen("B", log: log))
        #expect(log.take() == [])
        _ = Pilot(nav)
        #expect(log.take() == ["B.didLoad", "B.willAppear", "B.didAppear"])  // only the top appears
    }

    @Test func setStackReplacesTheScreens() throws {
        let (nav, a, log) = makeStack()
        let pilot = Pilot(nav)
        _ = log.take()
        let x = RecordingScreen("X", log: log), y = RecordingScreen("Y", log: log)
        nav.setStack([x, y])
        try pilot.press()
        #expect(log.take() == ["A.willDisappear", "A.didDisappear", "Y.didLoad", "Y.willAppear", "Y.didAppear"])
        #expect(pilot.lines[0] == " X › Y")
        #expect(a.parent == nil && x.parent === nav && y.parent === nav)
        nav.setStack([])
        #expect(nav.stack.count == 2)
    }

    @Test func backBindingShowsInTheHintBarOnlyWhenThereIsSomewhereToGo() throws {
        let (nav, _, _) = makeStack()
        let pilot = Pilot(nav, columns: 60)
        #expect(!pilot.hintBar.contains("Back"))
        nav.push(RecordingScreen("B"))
        try pilot.press()
        #expect(pilot.hintBar.hasPrefix("Esc Back to A  "))
    }

    @Test func clickOnTheTitlePathGoesBack() throws {
        let (nav, _, _) = makeStack()
        let pilot = Pilot(nav)
        nav.push(RecordingScreen("B"))
        try pilot.press()
        try pilot.click(x: 2, y: 1)  // on B's content: not a back click
        #expect(nav.stack.count == 2)
        try pilot.click(x: 2, y: 0)
        #expect(nav.stack.count == 1)
        #expect(pilot.lines[0] == " A")
    }
}
