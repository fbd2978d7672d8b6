import Screens
import ScreensTesting
import Terminal
import Testing

/// The testing library itself: named keys, raw bytes, clicks by text, and the checks' messages.
@Suite("Pilot")
struct PilotTests {
    private func fruitPilot() -> (Pilot, ListScreen) {
        let list = ListScreen(title: "Fruit", items: ["Apple", "Pear", "Quince"].map { ListItem(id: $0.lowercased(), title: $0) })
        return (Pilot(list, columns: 30, rows: 6, minimumSize: Size(columns: 20, rows: 4)), list)
    }

    @Test(arguments: [
        ("enter", Key.enter), ("Esc", .escape), ("escape", .escape), ("tab", .tab), ("shift+tab", .backTab),
        ("up", .up), ("PageDown", .pageDown), ("pgup", .pageUp), ("home", .home), ("delete", .delete), ("backspace", .backspace),
        ("f5", .function(5)), ("space", .character(" ")), ("q", .character("q")), ("+", .character("+")), ("?", .character("?")),
        ("ctrl+s", .control("s")), ("CTRL+S", .control("s")), ("shift+a", .character("A")),
        ("alt+left", Key.left.adding(.alt)), ("alt+b", Key.character("b").adding(.alt)), ("ctrl+right", Key.right.adding(.control)),
        ("shift+home", Key.home.adding(.shift)), ("ctrl++", Key.character("+").adding(.control)), ("ctrl+alt+x", Key.control("x").adding(.alt)),
    ])
    func keysAreFoundByName(_ name: String, _ key: Key) {
        #expect(Key(name: name) == key, "\(name)")
    }

    @Test(arguments: ["", "hyper+x", "ctrl+", "enterr", "f0", "f25", "ctrl+nothing", "+x"])
    func unknownNamesAreNoKey(_ name: String) {
        #expect(Key(name: name) == nil, "\(name)")
    }

    @Test func aNamedKeyActsAsTheKeyItselfAndAnUnknownOneSendsNothing() throws {
        let (pilot, list) = fruitPilot()
        try pilot.press("down", "down")
        #expect(list.selectedItem?.title == "Quince")
        let handled = pilot.app.inputEventsHandled
        #expect(throws: PilotError.unknownKeyName("sideways")) { try pilot.press("up", "sideways") }
        #expect(pilot.app.inputEventsHandled == handled, "nothing of a bad list is sent")
        #expect(list.selectedItem?.title == "Quince")
    }

    @Test func rawBytesGoThroughTheTerminalsDecoder() throws {
        let (pilot, list) = fruitPilot()
        try pilot.sendBytes("\u{1B}[B")  // ↓ as xterm sends it
        #expect(list.selectedItem?.title == "Pear")
        try pilot.sendBytes([0x1B, 0x4F, 0x41])  // ↑ in application cursor mode
        #expect(list.selectedItem?.title == "Apple")
    }

    @Test func clickingOnTextClicksWhereItIsShown() throws {
        let (pilot, list) = fruitPilot()
        try pilot.click(on: "Quince")
        #expect(list.selectedItem?.title == "Quince")
        #expect(throws: PilotError.self) { try pilot.click(on: "Banana") }
        do {
            try pilot.click(on: "Banana")
        } catch {
            #expect("\(error)".hasPrefix("“Banana” is not on the screen:\nscreen 30×6"))
            #expect("\(error)".contains("0│  Apple"))
        }
    }

    @Test func readingTheScreenByRowRegionAndStyle() throws {
        let (pilot, _) = fruitPilot()
        #expect(pilot.row(containing: "Pear") == 1)
        #expect(pilot.column(of: "Pear", row: 1) == 2)
        #expect(pilot.region(Rect(x: 2, y: 0, width: 4, height: 2)) == ["Appl", "Pear"])
        #expect(pilot.region(Rect(x: 28, y: 4, width: 10, height: 10)).count == 2, "cut to the screen")
        #expect(pilot.styles(of: "Apple", row: 0)?.allSatisfy(\.reverse) == true)
        #expect(pilot.cell(x: 2, y: 1).text == "P")
        pilot.expectRow(1, equals: "  Pear")
        pilot.expectRow(2, contains: "Quin")
        pilot.expectScreen(contains: "Quince")
        pilot.expectScreen(doesNotContain: "Banana")
        pilot.expectRegion(Rect(x: 0, y: 0, width: 8, height: 3), equals: ["▸ Apple", "  Pear", "  Quince"])
        pilot.expectStyle(of: "Apple", row: 0, has: .reverse)
        pilot.expectStyle(of: "Pear", row: 1, lacks: .reverse)
        pilot.expectCursor(at: nil)
    }

    @Test func mismatchesSayWhatDiffersAndShowTheScreen() throws {
        let (pilot, _) = fruitPilot()
        let row = try #require(pilot.mismatch(row: 1, equals: "  Peach"))
        #expect(row.hasPrefix("row 1 is\n  “  Pear”\nnot\n  “  Peach”\n        ^ from column 5\nscreen 30×6, cursor hidden:\n"))
        #expect(row.contains("\n0│▸ Apple"), "the rows are numbered and the right edge marked")
        #expect(pilot.mismatch(row: 9, equals: "x")?.hasPrefix("there is no row 9") == true)
        #expect(pilot.mismatch(row: 0, contains: "Pear")?.hasPrefix("row 0 does not show “Pear” (it is on row 1)") == true)
        #expect(pilot.mismatch(screenDoesNotContain: "Pear")?.hasPrefix("“Pear” is on the screen, on row 1") == true)
        let region = try #require(pilot.mismatch(region: Rect(x: 0, y: 1, width: 8, height: 2), equals: ["  Pear", "  Plum"]))
        #expect(region.hasPrefix("the region at 0,1 (8×2) differs:\n  row 1: “  Pear”\n  row 2: “  Quince”, expected “  Plum”\n"))
        #expect(pilot.mismatch(cursorAt: Point(x: 3, y: 0))?.hasPrefix("the cursor is hidden, expected at 3,0") == true)
        let style = try #require(pilot.mismatch(styleOf: "Pear", row: 1, has: [.reverse]))
        #expect(style.hasPrefix("“Pear” on row 1 is not reverse video: the cell at column 2 is plain"))
        let unwanted = try #require(pilot.mismatch(styleOf: "Apple", row: 0, lacks: [.underline, .reverse]))
        #expect(unwanted.hasPrefix("“Apple” on row 0 should not be reverse video: the cell at column 2 is reverse video"))
    }

    @Test func aFailedCheckIsRecordedAtTheCallersLine() {
        let (pilot, _) = fruitPilot()
        withKnownIssue {
            #expect(pilot.expectRow(0, equals: "▸ Banana") == false)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.hasPrefix("row 0 is") }
        }
        #expect(pilot.expectRow(0, equals: "▸ Apple"))
    }

    @Test func resizesPastesAndQuitsReachTheApplication() throws {
        let field = Prompt(title: "Name", message: "Who?")
        let pilot = Pilot(RecordingScreen("Home"), columns: 40, rows: 12)
        pilot.app.presentModal(field)
        try pilot.settle()
        try pilot.paste("Alice\nq")
        #expect(pilot.cursor != nil, "a focused field shows the cursor")
        pilot.expectScreen(contains: "Alice")
        try pilot.resize(columns: 50, rows: 14)
        #expect(pilot.lines.count == 14)
        try pilot.quit()
        #expect(pilot.app.terminationReason == .quit)
    }

    @Test func thePilotsDocumentedExampleHolds() throws {
        let fruit = ["Apple", "Pear"].map { ListItem(id: $0, title: $0) }
        let pilot = Pilot(NavigationStack(root: ListScreen(title: "Fruit", items: fruit)), columns: 40, rows: 10)
        try pilot.press("down")
        #expect(pilot.expectRow(2, equals: "▸ Pear"))
        #expect(pilot.expectStyle(of: "Pear", row: 2, has: .reverse))
    }

    @Test func aCanvasDrawsOffAnyTerminal() {
        let frame = Canvas.drawing(size: Size(columns: 6, rows: 3)) { canvas in
            canvas.drawBox()
            canvas.write("Hi", x: 1, y: 1, style: .bold)
        }
        #expect(frame.lines == ["┌────┐", "│Hi  │", "└────┘"])
        #expect(frame[1, 1].style.bold && !frame[3, 1].style.bold)
    }
}
