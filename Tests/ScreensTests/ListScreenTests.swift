import Testing
import Screens
import ScreensTesting
import Terminal

@Suite("ListScreen")
struct ListScreenTests {
    /// 50 items in a 40×8 terminal: seven list rows (0...6), the hint bar on row 7.
    private func pilot(_ count: Int = 50, rows: Int = 8) -> (Pilot, ListScreen) {
        let list = ListScreen(title: "People", items: numberedItems(count))
        return (Pilot(list, rows: rows, minimumSize: Size(columns: 20, rows: 5)), list)
    }

    private func rows(_ pilot: Pilot) -> [String] { pilot.content }

    @Test func aFilterLongerThanEveryRowMatchesNothingAndSaysSoInARow() throws {
        let (pilot, list) = pilot()
        try pilot.press(.character("/"))
        try pilot.paste(String(repeating: "Item ", count: 4_000))  // 20 KB
        #expect(list.visibleItems.isEmpty)
        #expect(pilot.content[1].contains("No match for “Item Item"), "\(pilot.numberedScreen)")
        try pilot.press(.control("u"))
        try pilot.type("Item 4")
        #expect(list.visibleItems.map(\.title).first == "Item 4")
    }

    @Test func drawsOnlyTheRowsThatFitWithTheSelectionMarked() {
        let (pilot, list) = pilot()
        #expect(rows(pilot) == ["▸ Item 1", "  Item 2", "  Item 3", "  Item 4", "  Item 5", "  Item 6", "  Item 7"])
        #expect(list.selectedItem?.id == "item-1")
        #expect(pilot.terminal.frame[0, 0].style == Style(reverse: true))
        #expect(pilot.terminal.frame[39, 0].style.reverse)  // the bar spans the row
        #expect(!pilot.terminal.frame[0, 1].style.reverse)
    }

    @Test func movingDownScrollsToKeepTheSelectionVisible() throws {
        let (pilot, list) = pilot()
        for _ in 0..<10 { try pilot.press(.down) }
        #expect(list.selectedItem?.title == "Item 11")
        #expect(rows(pilot) == ["  Item 5", "  Item 6", "  Item 7", "  Item 8", "  Item 9", "  Item 10", "▸ Item 11"])
        #expect(list.state.scrollOffset == 4)
        try pilot.press(.up, .up, .up, .up, .up, .up, .up)
        #expect(rows(pilot).first == "▸ Item 4")
        #expect(rows(pilot).last == "  Item 10")
        try pilot.press(.character("j"), .character("k"), .character("k"))
        #expect(list.selectedItem?.title == "Item 3")
        #expect(rows(pilot).first == "▸ Item 3")
    }

    @Test func homeEndAndPagesJump() throws {
        let (pilot, list) = pilot()
        try pilot.press(.end)
        #expect(list.selectedItem?.title == "Item 50")
        #expect(rows(pilot) == ["  Item 44", "  Item 45", "  Item 46", "  Item 47", "  Item 48", "  Item 49", "▸ Item 50"])
        try pilot.press(.down)  // stays on the last row
        #expect(list.selectedItem?.title == "Item 50")
        try pilot.press(.home)
        #expect(rows(pilot).first == "▸ Item 1")
        try pilot.press(.pageDown)  // a page is the list height less one row of context
        #expect(list.selectedItem?.title == "Item 7")
        try pilot.press(.pageDown)
        #expect(list.selectedItem?.title == "Item 13")
        #expect(rows(pilot).last == "▸ Item 13")
        try pilot.press(.pageUp)
        #expect(list.selectedItem?.title == "Item 7")
        try pilot.press(.character("G"), .character("g"))
        #expect(list.selectedItem?.title == "Item 1")
    }

    @Test func shrinkingTheTerminalKeepsTheSelectionOnScreen() throws {
        let (pilot, list) = pilot(rows: 24)
        for _ in 0..<20 { try pilot.press(.down) }
        #expect(rows(pilot).contains("▸ Item 21"))
        try pilot.resize(columns: 40, rows: 10)
        #expect(list.selectedItem?.title == "Item 21")
        #expect(rows(pilot).last == "▸ Item 21")
        #expect(rows(pilot).count == 9)
    }

    @Test func slashFiltersAndKeepsTheSelectionByID() throws {
        let (pilot, list) = pilot()
        for _ in 0..<24 { try pilot.press(.down) }
        #expect(list.selectedItem?.id == "item-25")
        try pilot.press(.character("/"))
        #expect(list.state.isEditingFilter)
        #expect(rows(pilot)[0] == " /")
        #expect(pilot.cursor == Point(x: 3, y: 0))
        try pilot.type("5")
        #expect(rows(pilot) == [" / 5", "  Item 5", "  Item 15", "▸ Item 25", "  Item 35", "  Item 45", "  Item 50"])
        #expect(list.selectedItem?.id == "item-25")
        #expect(pilot.cursor == Point(x: 4, y: 0))
        #expect(pilot.hintBar.hasSuffix(" 6/50"))
        #expect(pilot.style(of: "5", row: 0)?.underline == true)
    }

    @Test func filterThatHidesTheSelectionFallsBackToTheFirstMatch() throws {
        let (pilot, list) = pilot()
        try pilot.press(.down)  // Item 2
        try pilot.press(.character("/"))
        try pilot.type("30")
        #expect(rows(pilot) == [" / 30", "▸ Item 30", "", "", "", "", ""])
        #expect(list.selectedItem?.id == "item-30")
        try pilot.press(.escape)  // clears the filter, keeps the selection by id
        #expect(!list.state.isEditingFilter)
        #expect(list.state.filter.isEmpty)
        #expect(list.selectedItem?.id == "item-30")
        #expect(rows(pilot).last == "▸ Item 30")
        #expect(list.visibleItems.count == 50)
    }

    @Test func filterMatchesDetailsCaseInsensitively() throws {
        let list = ListScreen(title: "Characters", items: [
            ListItem(id: "alice", title: "Alice", detail: "a girl who follows a rabbit"),
            ListItem(id: "rabbit", title: "White Rabbit", detail: "always late"),
            ListItem(id: "hatter", title: "Hatter", detail: "keeps tea-time forever"),
        ])
        let pilot = Pilot(list)
        #expect(pilot.lines[0] == "▸ Alice  a girl who follows a rabbit")
        #expect(pilot.lines[1] == "  White Rabbit  always late")
        #expect(pilot.style(of: "always late", row: 1) == .plain, "not faint: faint text does not read on every terminal")
        #expect(pilot.style(of: "a girl", row: 0) == .reverse, "no bold: bold on reverse video is grey on the Linux console")
        try pilot.press(.character("/"))
        try pilot.type("RABBIT")
        #expect(list.visibleItems.map(\.id) == ["alice", "rabbit"])
        try pilot.press(.backspace, .backspace, .backspace, .backspace, .backspace, .backspace)
        try pilot.type("TEA")
        #expect(list.visibleItems.map(\.id) == ["hatter"])
    }

    @Test func emptyMatchShowsAMessage() throws {
        let (pilot, list) = pilot()
        try pilot.press(.character("/"))
        try pilot.type("zzz")
        #expect(rows(pilot)[0] == " / zzz")
        #expect(rows(pilot)[1] == "  No match for “zzz”.")
        #expect(list.selectedItem == nil)
        #expect(pilot.hintBar.hasSuffix(" 0/50"))
        try pilot.press(.enter)  // nothing to open: no crash
        try pilot.press(.escape)
        #expect(rows(pilot)[0] == "▸ Item 1")
    }

    @Test func emptyListShowsItsEmptyMessage() {
        let list = ListScreen(title: "Nobody", items: [])
        list.emptyMessage = "No characters yet."
        let pilot = Pilot(list)
        #expect(pilot.lines[0] == "  No characters yet.")
        #expect(list.selectedItem == nil)
    }

    @Test func lettersAreFilterTextWhileEditingTheFilter() throws {
        let (pilot, list) = pilot()
        try pilot.press(.character("/"))
        try pilot.type("jkq?G")
        #expect(list.state.filter.text == "jkq?G")
        #expect(pilot.app.terminationReason == nil)
        #expect(pilot.app.modals.isEmpty)
        #expect(!pilot.hintBar.contains("q Quit"))
    }

    @Test func enterEndsFilterEditingAndOpensTheSelection() throws {
        let (pilot, list) = pilot()
        var opened: [String] = []
        list.onActivate = { opened.append($0.id) }
        try pilot.press(.character("/"))
        try pilot.type("12")
        try pilot.press(.enter)
        #expect(opened == ["item-12"])
        #expect(!list.state.isEditingFilter)
        #expect(list.state.filter.text == "12")
        #expect(rows(pilot)[0] == " / 12")  // the filter stays, no longer edited
        #expect(pilot.cursor == nil)
        try pilot.press(.character("q"))  // a command again
        #expect(pilot.app.terminationReason == .quit)
    }

    @Test func escapeClearsAnAppliedFilter() throws {
        let (pilot, list) = pilot()
        try pilot.press(.character("/"))
        try pilot.type("12")
        try pilot.press(.enter, .escape)
        #expect(list.state.filter.isEmpty)
        #expect(rows(pilot)[0] == "  Item 6")  // Item 12 stays selected, at the bottom
        #expect(rows(pilot)[6] == "▸ Item 12")
    }

    @Test func clickSelectsAndClickOnTheSelectionOpensIt() throws {
        let (pilot, list) = pilot()
        var opened: [String] = []
        list.onActivate = { opened.append($0.id) }
        try pilot.click(x: 5, y: 3)
        #expect(list.selectedItem?.id == "item-4")
        #expect(opened.isEmpty)
        #expect(rows(pilot)[3] == "▸ Item 4")
        try pilot.click(x: 5, y: 3)
        #expect(opened == ["item-4"])
    }

    @Test func clickAccountsForScrollAndTheFilterRow() throws {
        let (pilot, list) = pilot()
        try pilot.press(.end)
        try pilot.click(x: 1, y: 0)
        #expect(list.selectedItem?.id == "item-44")
        try pilot.press(.character("/"))
        try pilot.type("4")
        try pilot.click(x: 1, y: 0)  // the filter row: nothing selected
        #expect(list.selectedItem?.id == "item-44")
        // Item 44 stays selected, so the filtered list scrolls to it.
        #expect(rows(pilot) == [" / 4", "▸ Item 44", "  Item 45", "  Item 46", "  Item 47", "  Item 48", "  Item 49"])
        try pilot.click(x: 1, y: 2)
        #expect(list.selectedItem?.id == "item-45")
    }

    @Test func wheelMovesTheSelectionByThree() throws {
        let (pilot, list) = pilot()
        try pilot.wheel(down: true, x: 3, y: 3)
        #expect(list.selectedItem?.id == "item-4")
        try pilot.wheel(down: true, x: 3, y: 3)
        try pilot.wheel(down: false, x: 3, y: 3)
        #expect(list.selectedItem?.id == "item-4")
    }

    @Test func applyingSavedStateRestoresSelectionAndFilter() throws {
        let (pilot, list) = pilot()
        var saved = ListState()
        saved.selectedID = "item-40"
        saved.filter = TextFieldState("4")
        list.apply(saved)
        try pilot.press()
        #expect(list.visibleItems.count == 14)
        #expect(list.selectedItem?.id == "item-40")
        var stale = ListState()
        stale.selectedID = "gone"
        list.apply(stale)
        #expect(list.selectedItem?.id == "item-1")
        list.select(id: "item-33")
        #expect(list.selectedIndex == 32)
    }

    @Test func asciiTerminalShowsAnASCIIMarker() {
        let list = ListScreen(title: "People", items: numberedItems(3))
        let pilot = Pilot(list, capabilities: .init(colors: false, unicode: false))
        #expect(pilot.lines[0] == "> Item 1")
        #expect(pilot.terminal.frame[0, 0].style.reverse)
        #expect(pilot.hintBar.hasPrefix("^v Move  Enter Open"))
    }
}
