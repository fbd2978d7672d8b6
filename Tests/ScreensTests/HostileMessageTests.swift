import Screens
import ScreensTesting
import Terminal
import Testing
import TextSafety

/// Messages quote input; on screen they are made visible and bounded whatever screen shows them.
@Suite("Hostile messages on screen")
struct HostileMessageTests {
    /// A screen whose status line is whatever a test sets.
    final class StatusScreen: Screen {
        var status: String?
        var body: [String] = []
        override var statusText: String? { status }
        override func draw(in canvas: Canvas) {
            for (row, line) in body.enumerated() { canvas.write(line, x: 0, y: row) }
        }
    }

    private let hostile = "Home\u{202E}gpj.exe \u{1B}[31mred\u{7}\u{9B}\u{7F}"
    private let shownHostile = "Home\u{FFFD}gpj.exe ␛[31mred␇\u{FFFD}␡"

    @Test func aTitleDrawnByAScreenShowsStandIns() throws {
        let screen = StatusScreen(title: "Pins")
        screen.body = [hostile]
        let pilot = Pilot(screen, columns: 60)
        #expect(pilot.content[0] == shownHostile)
    }

    @Test func anAlertQuotingInputShowsStandIns() throws {
        let pilot = Pilot(StatusScreen(title: "Pins"), columns: 60, rows: 16)
        pilot.app.presentModal(Alert(title: "Clear the pin", message: "Forget “\(hostile)”?"))
        try pilot.press()
        #expect(pilot.lines.contains { $0.contains("Forget “" + shownHostile + "”?") })
        #expect(!pilot.lines.joined().unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E })
    }

    @Test func aMegabyteAlertIsBoundedLineByLine() throws {
        let line = String(repeating: "w", count: 1 << 20)
        let alert = Alert(title: "Sync", message: line + "\n" + String(repeating: "x\n", count: 100_000))
        let lines = alert.message.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 13)
        #expect(lines[0] == Substring(String(repeating: "w", count: SafeText.messageLimit) + "…"))
        #expect(lines.last == "…")
        alert.message = line
        #expect(alert.message.count == SafeText.messageLimit + 1)

        let pilot = Pilot(StatusScreen(title: "Pins"), columns: 80, rows: 24)
        pilot.app.presentModal(alert)
        try pilot.press()
        let box = pilot.lines.filter { $0.contains("│ w") }
        #expect(box.count == 4)  // 200 characters and the ellipsis, wrapped to the box's 56 columns
        #expect(pilot.lines.contains { $0.contains("w…") })
    }

    @Test func aMegabyteStatusIsCutToTheHintBar() throws {
        let screen = StatusScreen(title: "Pins")
        screen.status = String(repeating: "s", count: 1 << 20) + "\u{1B}"
        let pilot = Pilot(screen, columns: 60)
        // The status takes what help and quit leave (60 - 16 - 2 columns), and is kept in the
        // message log, bounded, to be read with M.
        #expect(pilot.hintBar == "? Help  q Quit   " + String(repeating: "s", count: 41) + "…")
        #expect(pilot.terminal.lines.count == 12)
        #expect(pilot.app.messageLog.entries.map(\.count) == [MessageLog.entryLimit + 1])
    }

    @Test func theEditorCursorFollowsStandInsForTabsAndControls() throws {
        let editor = TextEditorScreen(title: "Notes", text: "a\tb\u{1B}c")
        let pilot = Pilot(editor)
        #expect(pilot.lines[0] == " a␉b␛c")
        try pilot.press(.end)
        #expect(pilot.cursor == Point(x: 6, y: 0))
        #expect(pilot.hintBar.hasSuffix(" Ln 1, Col 6"))
    }
}
