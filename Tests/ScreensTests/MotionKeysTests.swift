import Foundation
import Testing
@testable import Screens
import ScreensTesting
import Terminal

/// The same motion keys in every list, pager and overlay, from the bytes terminals send.
@Suite("Motion keys everywhere")
struct MotionKeysTests {
    static let tmuxHome = MotionKeyCheck.tmuxHome
    static let tmuxEnd = MotionKeyCheck.tmuxEnd

    /// Every screen that lists or scrolls, as a new one would be built: each must answer to
    /// every motion key, which it gets by asking `MotionKeys` for its bindings.
    static func everyScrollingScreen() -> [(String, Screen)] {
        [
            ("list", ListScreen(title: "Items", items: numberedItems(30))),
            ("pager", PagerScreen(title: "Text", text: "words")),
            ("help", HelpOverlay(bindings: [], title: "Items")),
            ("messages", MessagesOverlay(entries: ["one"])),
        ]
    }

    @Test func theCheckNamesEveryMotionKeyAScreenLacks() {
        let problems = MotionKeyCheck.problems(of: Screen(title: "Plain"), named: "plain")
        #expect(problems.count == MotionKeyCheck.everyMotionKey.count + 1, "\(problems)")
        #expect(problems.contains("plain lacks ^A"))
    }

    @Test("each list, pager and overlay binds ↑↓, PgUp/PgDn, Home/End and ^A/^E, and lists them in its help")
    func everyScreenHasEveryMotionKey() {
        for (name, screen) in Self.everyScrollingScreen() {
            MotionKeyCheck.expectEveryMotionKey(screen, named: name)
        }
    }

    @Test("a list: tmux's End and Home bytes, ^E and ^A, PgDn and the wheel")
    func listMotion() throws {
        let list = ListScreen(title: "Items", items: numberedItems(30))
        let pilot = Pilot(list, columns: 40, rows: 12)
        try pilot.sendBytes(Self.tmuxEnd)
        #expect(list.selectedItem?.id == "item-30")
        try pilot.sendBytes(Self.tmuxHome)
        #expect(list.selectedItem?.id == "item-1")
        try pilot.sendBytes([0x05])  // Ctrl-E
        #expect(list.selectedItem?.id == "item-30")
        try pilot.sendBytes([0x01])  // Ctrl-A
        #expect(list.selectedItem?.id == "item-1")
        try pilot.sendBytes(Array("\u{1B}[6~".utf8))  // PgDn: a page is the rows shown, less one
        #expect(list.selectedItem?.id == "item-11")
        try pilot.wheel(down: false, x: 5, y: 3)
        #expect(list.selectedItem?.id == "item-8")
        #expect(pilot.app.terminationReason == nil)
    }

    @Test("while a list's filter is typed, ^A and ^E edit the filter; ↑↓ still move")
    func filterKeepsTheLineKeys() throws {
        let list = ListScreen(title: "Items", items: numberedItems(30))
        let pilot = Pilot(list, columns: 40, rows: 12)
        try pilot.type("/tem 2")
        try pilot.press(.control("a"))
        try pilot.type("I")
        #expect(list.state.filter.text == "Item 2")
        try pilot.press(.down)
        #expect(list.selectedItem?.id == "item-20")
        try pilot.press(.control("e"))
        try pilot.type("9")
        #expect(list.state.filter.text == "Item 29")
    }

    @Test("a pager: ^E to the end, tmux's Home back to the start")
    func pagerMotion() throws {
        let text = (1...60).map { "Line \($0)" }.joined(separator: "\n")
        let pager = PagerScreen(title: "Text", text: text)
        let pilot = Pilot(pager, columns: 40, rows: 12)
        try pilot.press(.control("e"))
        #expect(pilot.content.last?.contains("Line 60") == true)
        try pilot.sendBytes(Self.tmuxHome)
        #expect(pilot.content.first?.contains("Line 1") == true)
    }

    @Test("the help overlay at 40×10: ^E shows its last rows, ^A its first")
    func helpMotion() throws {
        let list = ListScreen(title: "Items", items: numberedItems(3))
        let pilot = Pilot(list, columns: 40, rows: 10)
        try pilot.type("?")
        let first = pilot.content
        try pilot.press(.control("e"))
        #expect(pilot.content != first)
        #expect(pilot.content.contains { $0.contains("Quit (from anywhere)") })
        try pilot.press(.control("a"))
        #expect(pilot.content == first)
    }
}
