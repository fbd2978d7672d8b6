import Screens
import ScreensTesting
import Terminal
import Testing
import WonderlandApp

private final class SweepPilot: DrivesApplication {
    let terminal: HeadlessTerminal
    let app: Application

    init(columns: Int, rows: Int) {
        terminal = HeadlessTerminal(size: Size(columns: columns, rows: rows))
        app = Application(terminal: terminal, root: RootScreen.make())
        app.launch()
    }
}

/// Every screen of the app at the sizes a terminal user has: nothing wraps onto a row of its
/// own, the tab bar and the hint bar stay whole rows, and the keys to learn more stay in sight.
@Suite("Every screen at every size")
struct SizeSweepTests {
    static let sizes = [(40, 10), (40, 12), (80, 24), (200, 60)]

    /// The checks every frame must pass; `where` names the screen for a failure.
    private func checkFrame(_ pilot: SweepPilot, _ place: String, columns: Int, modal: Bool = false) {
        let lines = pilot.lines
        for line in lines { #expect(DisplayWidth.of(line) <= columns, "\(place): \(line)") }
        let hintBar = lines.last ?? ""
        #expect(hintBar.contains("Help") || hintBar.contains("Esc") || hintBar.contains("Close"), "\(place): hint bar “\(hintBar)”")
        guard !modal else { return }
        #expect(lines[0].contains("1 Map") && lines[0].contains("3 Book"), "\(place): tab bar “\(lines[0])”")
    }

    @Test("tabs, a character, its notes, the help, the messages and the settings", arguments: sizes)
    func everyScreen(_ size: (Int, Int)) throws {
        let (columns, rows) = size
        let pilot = SweepPilot(columns: columns, rows: rows)
        checkFrame(pilot, "Map", columns: columns)
        try pilot.type("2")
        checkFrame(pilot, "Characters", columns: columns)
        #expect(pilot.lines.contains { $0.contains("▸ Alice") })
        try pilot.press(.enter)
        checkFrame(pilot, "Alice", columns: columns)
        #expect(pilot.lines.contains { $0.contains("─ Notes (e to edit)") })
        try pilot.type("e")
        try pilot.type(String(repeating: "Curiouser and curiouser! ", count: 12))
        checkFrame(pilot, "Alice's notes", columns: columns)
        #expect(pilot.lines.last?.contains("Ln 1, Col 301") == true, "\(pilot.lines.last ?? "")")
        try pilot.press(.escape, .escape)
        try pilot.type("3")
        checkFrame(pilot, "Book", columns: columns)
        try pilot.type("?")
        checkFrame(pilot, "help", columns: columns, modal: true)
        try pilot.press(.end)
        #expect(pilot.lines.contains { $0.contains("Quit (from anywhere)") }, "\(pilot.lines)")
        try pilot.press(.escape)
        try pilot.type("M")
        checkFrame(pilot, "messages", columns: columns, modal: true)
        try pilot.press(.escape, .character(","))
        checkFrame(pilot, "settings", columns: columns, modal: true)
        try pilot.press(.control("e"))
        checkFrame(pilot, "settings, last row", columns: columns, modal: true)
        try pilot.press(.escape)
        #expect(pilot.app.modals.isEmpty)
    }

    @Test("a character's description: End shows its last lines, Home its first, the wheel scrolls it")
    func characterDescriptionMotion() throws {
        let pilot = SweepPilot(columns: 40, rows: 12)
        try pilot.type("2")
        try pilot.press(.enter)
        #expect(pilot.lines.contains { $0.contains("↓ more") })
        try pilot.press(.end)
        #expect(pilot.lines.contains { $0.contains("↑ more") && !$0.contains("↑↓") })
        try pilot.press(.control("a"))
        #expect(pilot.lines.contains { $0.contains(" ↓ more") && !$0.contains("↑↓") })
        try pilot.send(.mouse(MouseEvent(.wheelDown, button: .none, at: Point(x: 5, y: 3))))
        #expect(pilot.lines.contains { $0.contains("↑↓ more") })
    }
}
