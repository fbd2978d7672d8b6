import Terminal
import Testing
import TextSafety

/// Text from outside (a pin title, a note, a book, an error) drawn through the cell buffer and
/// the headless terminal: nothing that could steer a terminal or reorder a line reaches a cell.
@Suite("Hostile text on screen")
struct HostileTextTests {
    /// Scalars no cell may hold: C0, DEL, C1, and the bidi embeddings, overrides, isolates, marks.
    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return v < 0x20 || (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
            || v == 0x200E || v == 0x200F || v == 0x061C || v == 0x2028 || v == 0x2029
    }

    private func shown(_ text: String, columns: Int = 40) -> (terminal: HeadlessTerminal, advanced: Int) {
        let terminal = HeadlessTerminal(size: Size(columns: columns, rows: 2))
        var frame = CellBuffer(size: terminal.size)
        let advanced = frame.write(text, at: Point(x: 0, y: 0))
        terminal.present(frame, full: true)
        return (terminal, advanced)
    }

    @Test("each kind of dangerous character comes out as its stand-in", arguments: [
        ("\u{202E}", "\u{FFFD}"),  // right-to-left override
        ("\u{1B}", "␛"), ("\u{7}", "␇"), ("\u{9B}", "\u{FFFD}"), ("\u{7F}", "␡"), ("\u{0}", "␀"),
        ("\u{2066}", "\u{FFFD}"), ("\u{2069}", "\u{FFFD}"), ("\u{200F}", "\u{FFFD}"), ("\u{61C}", "\u{FFFD}"),
        ("\n", "␤"), ("\r\n", "␤"), ("\u{85}", "␤"), ("\u{2028}", "␤"),
    ] as [(String, String)])
    func standIn(_ dangerous: String, _ expected: String) {
        let (terminal, advanced) = shown("a" + dangerous + "b")
        #expect(terminal.lines[0] == "a" + expected + "b")
        #expect(advanced == 3)
        #expect(DisplayWidth.of("a" + dangerous + "b") == 3)
    }

    @Test func aHostilePinTitleShowsItsBytesAndMovesNothing() {
        let title = "Home\u{202E}txt.exe \u{1B}[31mred\u{1B}[0m \u{7}\u{9B}2J\u{7F}end"
        let (terminal, advanced) = shown(title)
        #expect(terminal.lines[0] == "Home\u{FFFD}txt.exe ␛[31mred␛[0m ␇\u{FFFD}2J␡end")
        #expect(advanced == DisplayWidth.of(title))
        #expect(advanced == DisplayWidth.of(terminal.lines[0]))
        let frame = terminal.frame
        #expect(!frame.cells.contains { $0.text.unicodeScalars.contains(where: Self.isUnsafe) })
    }

    @Test func aBidiOverrideNeverRidesOnThePreviousCell() {
        // A format character is zero-width and would be attached to the cell before it; an
        // override must not be, or it would reach the terminal inside that cell.
        let (terminal, _) = shown("ab\u{202E}cd")
        #expect(terminal.frame[1, 0].text == "b")
        #expect(terminal.frame[2, 0].text == "\u{FFFD}")
        #expect(terminal.lines[0] == "ab\u{FFFD}cd")
    }

    @Test func legitimateJoinersAndMarksStay() {
        let (terminal, advanced) = shown("e\u{301} 👩\u{200D}💻 x\u{200B}y שָׁלוֹם")
        #expect(terminal.lines[0] == "e\u{301} 👩\u{200D}💻 x\u{200B}y שָׁלוֹם")
        #expect(advanced == DisplayWidth.of("e\u{301} 👩\u{200D}💻 x\u{200B}y שָׁלוֹם"))
    }

    @Test func standInsKeepWidthsOfWideTextAroundThem() {
        let (terminal, advanced) = shown("世\u{1B}界")
        #expect(terminal.lines[0] == "世␛界")
        #expect(advanced == 5)
        #expect(terminal.frame[3, 0].text == "界")
    }

    @Test func anASCIITerminalShowsQuestionMarksForStandIns() {
        let terminal = HeadlessTerminal(size: Size(columns: 10, rows: 1), capabilities: .init(colors: false, unicode: false))
        var frame = CellBuffer(size: terminal.size)
        frame.write("a\u{1B}b\u{202E}c", at: Point(x: 0, y: 0))
        terminal.present(frame, full: true)
        #expect(terminal.lines == ["a?b?c"])
    }

    @Test func aMegabyteLineIsCutToTheScreenWithoutMeasuringAllOfIt() {
        let huge = String(repeating: "x\u{1B}", count: 500_000)
        let cut = DisplayWidth.truncate(huge, to: 10)
        #expect(cut == "x\u{1B}x\u{1B}x\u{1B}x\u{1B}x…")
        #expect(DisplayWidth.of(cut) == 10)
        let (terminal, advanced) = shown(huge, columns: 12)
        #expect(terminal.lines[0] == "x␛x␛x␛x␛x␛x␛")
        #expect(advanced == 12)
    }
}

@Suite("SafeText")
struct SafeTextTests {
    @Test func boundedKeepsShortTextAndCutsLongTextWithAnEllipsis() {
        #expect(SafeText.bounded("Alice") == "Alice")
        #expect(SafeText.bounded(String(repeating: "a", count: 200)) == String(repeating: "a", count: 200))
        let megabyte = String(repeating: "é", count: 1 << 20)
        let cut = SafeText.bounded(megabyte)
        #expect(cut == String(repeating: "é", count: 200) + "…")
        #expect(SafeText.bounded("Alice in Wonderland", to: 5) == "Alice…")
        #expect(SafeText.bounded(Substring("Alice"), to: 0) == "…")
    }

    @Test func visibleReplacesOnlyWhatIsUnsafe() {
        #expect(SafeText.visible("plain, 世界, e\u{301}") == "plain, 世界, e\u{301}")
        #expect(SafeText.visible("a\u{1B}[2J\nb\u{202E}c") == "a␛[2J␤b\u{FFFD}c")
    }
}
