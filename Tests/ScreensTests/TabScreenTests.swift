import Testing
import Screens
import ScreensTesting
import Terminal

@Suite("TabScreen")
struct TabScreenTests {
    @Test func showsTheTabBarAndTheFirstTab() {
        let (root, _) = threeTabs()
        let pilot = Pilot(root)
        #expect(pilot.lines[0] == "  1 Map   2 Characters   3 Book")
        #expect(pilot.lines[1] == "[Map]")
        #expect(pilot.lines.count == 12)
    }

    @Test func numberKeysSelectTabs() throws {
        let (root, _) = threeTabs()
        let pilot = Pilot(root)
        try pilot.press(.character("2"))
        #expect(root.selectedIndex == 1)
        #expect(pilot.lines[1] == "[Characters]")
        try pilot.press(.character("3"))
        #expect(pilot.lines[1] == "[Book]")
        try pilot.press(.character("1"))
        #expect(pilot.lines[1] == "[Map]")
        try pilot.press(.character("4"))  // no fourth tab: not bound
        #expect(root.selectedIndex == 0)
    }

    @Test func tabAndShiftTabWrapAround() throws {
        let (root, _) = threeTabs()
        let pilot = Pilot(root)
        try pilot.press(.backTab)
        #expect(root.selectedIndex == 2)
        #expect(pilot.lines[1] == "[Book]")
        try pilot.press(.tab)
        #expect(root.selectedIndex == 0)
        try pilot.press(.tab, .tab)
        #expect(pilot.lines[1] == "[Book]")
        try pilot.press(.backTab)
        #expect(pilot.lines[1] == "[Characters]")
    }

    @Test func clickingATabNameSwitchesToIt() throws {
        let (root, _) = threeTabs()
        let pilot = Pilot(root)
        let characters = try #require(pilot.column(of: "2 Characters", row: 0))
        try pilot.click(x: characters + 4, y: 0)
        #expect(pilot.lines[1] == "[Characters]")
        try pilot.click(x: try #require(pilot.column(of: "Book", row: 0)), y: 0)
        #expect(pilot.lines[1] == "[Book]")
        try pilot.click(x: 38, y: 0)  // on the bar, past the last tab
        #expect(pilot.lines[1] == "[Book]")
        try pilot.click(x: 3, y: 5)  // in the content, not the bar
        #expect(pilot.lines[1] == "[Book]")
    }

    @Test func selectedTabIsReverseVideoInColourToo() {
        // The terminal's own colours: they read in every palette, which no fixed pair does.
        let (root, _) = threeTabs()
        let pilot = Pilot(root)
        #expect(pilot.style(of: "1 Map", row: 0) == Style(reverse: true))
        #expect(pilot.style(of: "2 Characters", row: 0) == Style(underline: true))
        #expect(pilot.terminal.frame[39, 0].style.underline)  // the bar spans the width
    }

    @Test func selectedTabIsReverseVideoWithoutColours() throws {
        let (root, _) = threeTabs()
        let pilot = Pilot(root, capabilities: .init(colors: false, unicode: true))
        try pilot.press(.character("2"))
        #expect(pilot.terminal.frame.cells.allSatisfy { $0.style.foreground == nil && $0.style.background == nil })
        #expect(pilot.style(of: "2 Characters", row: 0)?.reverse == true)
        #expect(pilot.style(of: "1 Map", row: 0)?.reverse == false)
        #expect(pilot.terminal.frame[39, 0].style.underline)
    }

    @Test func switchingTabsRunsTheLifecycleCalls() throws {
        let log = CallLog()
        let (root, screens) = threeTabs(log: log)
        let pilot = Pilot(root)
        #expect(log.take() == ["Map.didLoad", "Map.willAppear", "Map.didAppear"])
        #expect(!screens[1].isViewLoaded && !screens[2].isViewLoaded)

        try pilot.press(.character("2"))
        #expect(log.take() == ["Map.willDisappear", "Map.didDisappear", "Characters.didLoad", "Characters.willAppear", "Characters.didAppear"])
        #expect(!screens[0].isVisible && screens[1].isVisible)

        try pilot.press(.character("1"))
        #expect(log.take() == ["Characters.willDisappear", "Characters.didDisappear", "Map.willAppear", "Map.didAppear"])

        try pilot.press(.character("1"))  // already there: no calls
        #expect(log.take() == [])
        try pilot.press(.character("2"), .character("1"), .character("2"))
        #expect(!log.entries.contains("Characters.didLoad"))  // viewDidLoad runs once
    }

    @Test func tabsAreChildrenWithTheirParent() {
        let (root, screens) = threeTabs()
        #expect(root.children.count == 3)
        #expect(screens.allSatisfy { $0.parent === root })
        #expect(root.visibleChildren.map(\.title) == ["Map"])
    }
}
