import Testing
@testable import Terminal

@Suite("NcursesKeyMap")
struct KeyMapTests {
    @Test("control and printable characters", arguments: [
        (9, Key.tab), (10, .enter), (13, .enter), (27, .escape), (127, .backspace), (8, .backspace),
        (1, .control("a")), (3, .control("c")), (11, .control("k")), (21, .control("u")), (26, .control("z")),
        (0, .control(" ")), (65, .character("A")), (32, .character(" ")), (0x4E16, .character("世")),
        (0x1F642, .character("🙂")),
    ] as [(UInt32, Key)])
    func characterKeys(_ value: UInt32, _ expected: Key) {
        #expect(NcursesKeyMap.key(forCharacter: value) == expected)
    }

    @Test func unmappedCharactersGiveNoKey() {
        for value: UInt32 in [28, 29, 30, 31, 0xD800, 0x110000] {
            #expect(NcursesKeyMap.key(forCharacter: value) == nil, "\(value)")
        }
    }

    @Test func functionKeyCodes() {
        // ncurses' key codes (curses.h): KEY_DOWN 0402, KEY_UP 0403, KEY_LEFT 0404, KEY_RIGHT 0405,
        // KEY_HOME 0406, KEY_BACKSPACE 0407, KEY_F(n) 0410+n, KEY_DC 0512, KEY_NPAGE 0522,
        // KEY_PPAGE 0523, KEY_ENTER 0527, KEY_BTAB 0541, KEY_END 0550.
        let expected: [(Int32, Key)] = [
            (0o402, .down), (0o403, .up), (0o404, .left), (0o405, .right), (0o406, .home), (0o407, .backspace),
            (0o411, .function(1)), (0o424, .function(12)), (0o512, .delete), (0o522, .pageDown), (0o523, .pageUp),
            (0o527, .enter), (0o541, .backTab), (0o550, .end),
        ]
        for (code, key) in expected { #expect(NcursesKeyMap.key(forCode: code) == key, "\(code)") }
        #expect(NcursesKeyMap.key(forCode: 0o777) == nil)
    }
}

@Suite("HeadlessTerminal")
struct HeadlessTerminalTests {
    @Test func queuesEventsInOrderAndNeverWaits() {
        let terminal = HeadlessTerminal(size: Size(columns: 10, rows: 3))
        #expect(terminal.nextEvent(timeout: nil) == nil)
        terminal.enqueue(.key(.up))
        terminal.resize(to: Size(columns: 20, rows: 5))
        #expect(terminal.size == Size(columns: 20, rows: 5))
        #expect(terminal.hasPendingEvents)
        #expect(terminal.nextEvent(timeout: 0) == .key(.up))
        #expect(terminal.nextEvent(timeout: 0) == .resize(Size(columns: 20, rows: 5)))
        #expect(!terminal.hasPendingEvents)
    }

    @Test func presentKeepsTheFrameAndCounts() {
        let terminal = HeadlessTerminal(size: Size(columns: 6, rows: 2))
        var frame = CellBuffer(size: terminal.size)
        frame.write("┌世┐", at: Point(x: 0, y: 0), style: Style(foreground: .green))
        terminal.present(frame, full: true)
        terminal.present(frame, full: false)
        #expect(terminal.framesPresented == 2)
        #expect(terminal.fullRepaints == 1)
        #expect(terminal.lines == ["┌世┐", ""])
        #expect(terminal.text == "┌世┐\n")
        #expect(terminal.frame[0, 0].style.foreground == .green)
    }

    @Test func asciiAndMonochromeTerminalTranslatesAtPresent() {
        let terminal = HeadlessTerminal(size: Size(columns: 6, rows: 1), capabilities: .init(colors: false, unicode: false))
        var frame = CellBuffer(size: terminal.size)
        frame.write("┌世┐", at: Point(x: 0, y: 0), style: Style(foreground: .green, bold: true))
        terminal.present(frame, full: false)
        #expect(terminal.lines == ["+??+"])
        #expect(terminal.frame.cells.allSatisfy { $0.style.foreground == nil })
        #expect(terminal.frame[0, 0].style.bold)
    }

    @Test func suspendAndRestoreAreRecorded() {
        let terminal = HeadlessTerminal()
        terminal.suspend()
        #expect(terminal.suspendCount == 1)
        #expect(!terminal.isRestored)
        terminal.restore()
        terminal.restore()
        #expect(terminal.isRestored)
    }
}
