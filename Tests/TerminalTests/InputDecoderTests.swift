import Testing
@testable import Terminal

/// Byte sequences as real terminals send them (xterm's ctlseqs, the tmux, screen, rxvt and
/// linux terminfo entries), each fed whole and followed by the input falling quiet.
@Suite("InputDecoder")
struct InputDecoderTests {
    static func decode(_ text: String, quiet: Bool = true) -> [Event] {
        var decoder = InputDecoder()
        var events = decoder.feed(Array(text.utf8))
        if quiet && decoder.isWaiting { events += decoder.timeout() }
        return events
    }

    static let keys: [(String, String, Key)] = [
        // xterm, normal and application cursor modes
        ("xterm up", "\u{1B}[A", .up), ("xterm down", "\u{1B}[B", .down),
        ("xterm right", "\u{1B}[C", .right), ("xterm left", "\u{1B}[D", .left),
        ("xterm app up", "\u{1B}OA", .up), ("xterm app down", "\u{1B}OB", .down),
        ("xterm app right", "\u{1B}OC", .right), ("xterm app left", "\u{1B}OD", .left),
        ("xterm home", "\u{1B}[H", .home), ("xterm end", "\u{1B}[F", .end),
        ("xterm app home", "\u{1B}OH", .home), ("xterm app end", "\u{1B}OF", .end),
        ("insert", "\u{1B}[2~", .insert), ("delete", "\u{1B}[3~", .delete),
        ("page up", "\u{1B}[5~", .pageUp), ("page down", "\u{1B}[6~", .pageDown),
        ("xterm F1", "\u{1B}OP", .function(1)), ("xterm F2", "\u{1B}OQ", .function(2)),
        ("xterm F3", "\u{1B}OR", .function(3)), ("xterm F4", "\u{1B}OS", .function(4)),
        ("F5", "\u{1B}[15~", .function(5)), ("F6", "\u{1B}[17~", .function(6)),
        ("F7", "\u{1B}[18~", .function(7)), ("F8", "\u{1B}[19~", .function(8)),
        ("F9", "\u{1B}[20~", .function(9)), ("F10", "\u{1B}[21~", .function(10)),
        ("F11", "\u{1B}[23~", .function(11)), ("F12", "\u{1B}[24~", .function(12)),
        ("xterm shift up", "\u{1B}[1;2A", Key.up.adding(.shift)),
        ("xterm alt left", "\u{1B}[1;3D", Key.left.adding(.alt)),
        ("xterm ctrl right", "\u{1B}[1;5C", Key.right.adding(.control)),
        ("xterm ctrl left", "\u{1B}[1;5D", Key.left.adding(.control)),
        ("xterm ctrl shift down", "\u{1B}[1;6B", Key.down.adding([.control, .shift])),
        ("xterm meta up", "\u{1B}[1;9A", Key.up.adding(.alt)),
        ("xterm shift home", "\u{1B}[1;2H", Key.home.adding(.shift)),
        ("xterm ctrl end", "\u{1B}[1;5F", Key.end.adding(.control)),
        ("xterm shift delete", "\u{1B}[3;2~", Key.delete.adding(.shift)),
        ("xterm ctrl page down", "\u{1B}[6;5~", Key.pageDown.adding(.control)),
        ("xterm shift F1", "\u{1B}[1;2P", Key.function(1).adding(.shift)),
        ("xterm ctrl F5", "\u{1B}[15;5~", Key.function(5).adding(.control)),
        ("xterm alt F12", "\u{1B}[24;3~", Key.function(12).adding(.alt)),
        ("back tab", "\u{1B}[Z", .backTab),
        ("CSI u ctrl enter", "\u{1B}[13;5u", Key.enter.adding(.control)),
        // tmux and screen
        ("tmux home", "\u{1B}[1~", .home), ("tmux end", "\u{1B}[4~", .end),
        ("tmux alt up (no xterm-keys)", "\u{1B}\u{1B}[A", Key.up.adding(.alt)),
        ("tmux alt right, app mode", "\u{1B}\u{1B}OC", Key.right.adding(.alt)),
        // rxvt
        ("rxvt home", "\u{1B}[7~", .home), ("rxvt end", "\u{1B}[8~", .end),
        ("rxvt F1", "\u{1B}[11~", .function(1)), ("rxvt F4", "\u{1B}[14~", .function(4)),
        ("rxvt shift up", "\u{1B}[a", Key.up.adding(.shift)),
        ("rxvt shift left", "\u{1B}[d", Key.left.adding(.shift)),
        ("rxvt ctrl right", "\u{1B}Oc", Key.right.adding(.control)),
        ("rxvt ctrl left", "\u{1B}Od", Key.left.adding(.control)),
        ("rxvt shift home", "\u{1B}[7$", Key.home.adding(.shift)),
        ("rxvt shift delete", "\u{1B}[3$", Key.delete.adding(.shift)),
        ("rxvt ctrl end", "\u{1B}[8^", Key.end.adding(.control)),
        ("rxvt ctrl shift delete", "\u{1B}[3@", Key.delete.adding([.control, .shift])),
        ("rxvt ctrl F1", "\u{1B}[11^", Key.function(1).adding(.control)),
        ("rxvt keypad 7", "\u{1B}Ow", .character("7")),
        // Linux console
        ("linux F1", "\u{1B}[[A", .function(1)), ("linux F5", "\u{1B}[[E", .function(5)),
        ("linux alt F2", "\u{1B}\u{1B}[[B", Key.function(2).adding(.alt)),
        // single bytes and Alt as an Esc prefix
        ("lone Esc", "\u{1B}", .escape),
        ("enter (CR)", "\r", .enter), ("enter (LF)", "\n", .enter), ("tab", "\t", .tab),
        ("backspace (DEL)", "\u{7F}", .backspace), ("backspace (BS)", "\u{08}", .backspace),
        ("ctrl-a", "\u{01}", .control("a")), ("ctrl-e", "\u{05}", .control("e")), ("ctrl-space", "\u{00}", .control(" ")),
        ("alt-b", "\u{1B}b", Key.character("b").adding(.alt)),
        ("alt-f", "\u{1B}f", Key.character("f").adding(.alt)),
        ("alt-backspace", "\u{1B}\u{7F}", Key.backspace.adding(.alt)),
        ("alt-é", "\u{1B}é", Key.character("é").adding(.alt)),
        ("alt-[ alone", "\u{1B}[", Key.character("[").adding(.alt)),
        ("UTF-8 two bytes", "é", .character("é")), ("UTF-8 three bytes", "世", .character("世")),
        ("UTF-8 four bytes", "🙂", .character("🙂")),
    ]

    @Test("one sequence, one key", arguments: keys)
    func decodesKey(_ name: String, _ bytes: String, _ key: Key) {
        #expect(Self.decode(bytes) == [.key(key)], "\(name)")
    }

    @Test func theTableIsBigEnough() {
        #expect(Self.keys.count >= 60)
    }

    @Test("unknown sequences are consumed whole and give nothing", arguments: [
        "\u{1B}[99z", "\u{1B}[?1;2c", "\u{1B}[>0;276;0c", "\u{1B}[200;5q", "\u{1B}[1;2;3;4;5;6X",
        "\u{1B}[99~", "\u{1B}O~", "\u{1B}[[Z", "\u{1B}[I", "\u{1B}[O", "\u{1B}[201~", "\u{1C}",
    ])
    func unknownSequenceGivesNothing(_ bytes: String) {
        #expect(Self.decode(bytes).isEmpty)
    }

    @Test func unknownSequenceLeavesNoStrayCharactersBehind() {
        #expect(Self.decode("a\u{1B}[99zb") == [.key(.character("a")), .key(.character("b"))])
        #expect(Self.decode("\u{1B}[1~1") == [.key(.home), .key(.character("1"))])
    }

    @Test func anOverlongSequenceIsSkippedToItsFinalByte() {
        let long = "\u{1B}[" + String(repeating: "1;", count: 5000) + "Ax"
        #expect(Self.decode(long) == [.key(.character("x"))])
    }

    @Test func aSequenceSplitAcrossReadsIsStillOneKey() {
        var decoder = InputDecoder()
        #expect(decoder.feed([0x1B]).isEmpty)
        #expect(decoder.isWaiting)
        #expect(decoder.feed([0x5B, 0x31]).isEmpty)
        #expect(decoder.feed([0x7E]) == [.key(.home)])
        #expect(!decoder.isWaiting)
    }

    @Test func escapeThenAKeyAfterTheDelayIsTwoKeys() {
        var decoder = InputDecoder()
        #expect(decoder.feed([0x1B]).isEmpty)
        #expect(decoder.timeout() == [.key(.escape)])
        #expect(decoder.feed(Array("1".utf8)) == [.key(.character("1"))])
    }

    @Test func escapePressedTwiceQuicklyIsTwoEscapes() {
        #expect(Self.decode("\u{1B}\u{1B}") == [.key(.escape), .key(.escape)])
        #expect(Self.decode("\u{1B}\u{1B}x") == [.key(.escape), .key(Key.character("x").adding(.alt))])
    }

    @Test func aHalfSequenceAtTheTimeoutIsDropped() {
        var decoder = InputDecoder()
        #expect(decoder.feed(Array("\u{1B}[1;".utf8)).isEmpty)
        #expect(decoder.timeout().isEmpty)
        #expect(decoder.feed(Array("x".utf8)) == [.key(.character("x"))])
    }

    @Test func brokenUTF8IsDroppedAndTheNextByteStillCounts() {
        var decoder = InputDecoder()
        #expect(decoder.feed([0xE4, 0xB8, 0x41]) == [.key(.character("A"))])
        #expect(decoder.feed([0xFF, 0x80, 0x42]) == [.key(.character("B"))])
    }

    @Test("SGR mouse reports", arguments: [
        ("\u{1B}[<0;10;5M", MouseEvent(.press, button: .left, at: Point(x: 9, y: 4))),
        ("\u{1B}[<0;10;5m", MouseEvent(.release, button: .left, at: Point(x: 9, y: 4))),
        ("\u{1B}[<2;1;1M", MouseEvent(.press, button: .right, at: Point(x: 0, y: 0))),
        ("\u{1B}[<32;12;6M", MouseEvent(.drag, button: .left, at: Point(x: 11, y: 5))),
        ("\u{1B}[<64;3;4M", MouseEvent(.wheelUp, button: .none, at: Point(x: 2, y: 3))),
        ("\u{1B}[<65;3;4M", MouseEvent(.wheelDown, button: .none, at: Point(x: 2, y: 3))),
        ("\u{1B}[<80;1;1M", MouseEvent(.wheelUp, button: .none, at: Point(x: 0, y: 0))),
        ("\u{1B}[M !!", MouseEvent(.press, button: .left, at: Point(x: 0, y: 0))),
        ("\u{1B}[M#*%", MouseEvent(.release, at: Point(x: 9, y: 4))),
        ("\u{1B}[Ma!!", MouseEvent(.wheelDown, button: .none, at: Point(x: 0, y: 0))),
    ])
    func mouse(_ bytes: String, _ expected: MouseEvent) {
        #expect(Self.decode(bytes) == [.mouse(expected)])
    }

    @Test func plainMotionAndSidewaysWheelAreIgnored() {
        #expect(Self.decode("\u{1B}[<35;5;5M\u{1B}[<66;5;5M").isEmpty)
    }

    @Test func bracketedPasteIsTextWithLineBreaks() {
        let pasted = "\u{1B}[200~first\r\nsecond\rthird\nq\u{1B}[1~\u{1B}[201~x"
        #expect(Self.decode(pasted) == [.paste("first\nsecond\nthird\nq\u{1B}[1~"), .key(.character("x"))])
    }

    @Test func aPasteSplitAcrossReadsArrivesWhole() {
        var decoder = InputDecoder()
        let bytes = Array("\u{1B}[200~héllo wörld\u{1B}[201~".utf8)
        var events: [Event] = []
        for byte in bytes { events += decoder.feed([byte]) }
        #expect(events == [.paste("héllo wörld")])
    }

    @Test func aPasteWithoutItsEndIsDeliveredAtTheTimeout() {
        var decoder = InputDecoder()
        #expect(decoder.feed(Array("\u{1B}[200~abc".utf8)).isEmpty)
        #expect(decoder.isInPaste)
        #expect(decoder.timeout() == [.paste("abc")])
        #expect(!decoder.isWaiting)
    }

    @Test func aHugePasteComesInBoundedPiecesAndLosesNothing() {
        var decoder = InputDecoder()
        let body = String(repeating: "ab\r\nü", count: 500_000)  // 3.5 MB
        let events = decoder.feed(Array(("\u{1B}[200~" + body + "\u{1B}[201~").utf8))
        #expect(events.count > 1)
        var joined = ""
        for event in events {
            guard case .paste(let piece) = event else { Issue.record("not a paste: \(event)"); return }
            #expect(piece.utf8.count <= InputDecoder.pasteChunkLimit)
            joined += piece
        }
        #expect(joined == String(repeating: "ab\nü", count: 500_000))
    }

    @Test func parameterNumbersAreBounded() {
        #expect(InputDecoder.numbers(Array("1;5".utf8)) == [1, 5])
        #expect(InputDecoder.numbers(Array(";2".utf8)) == [0, 2])
        #expect(InputDecoder.numbers(Array("1:2;3".utf8)) == [1, 3])
        #expect(InputDecoder.numbers(Array(String(repeating: "9", count: 40).utf8)) == [99_999])
    }
}

@Suite("Escape delay")
struct EscapeDelayTests {
    @Test func defaultOursThenCursesOwnAndBounded() {
        #expect(NcursesTerminal.escapeDelay([:]) == 0.025)
        #expect(NcursesTerminal.escapeDelay(["ESCDELAY": "100"]) == 0.1)
        #expect(NcursesTerminal.escapeDelay(["WONDERLAND_ESCDELAY": "50", "ESCDELAY": "100"]) == 0.05)
        #expect(NcursesTerminal.escapeDelay(["WONDERLAND_ESCDELAY": "999999"]) == 1)
        #expect(NcursesTerminal.escapeDelay(["WONDERLAND_ESCDELAY": "-5"]) == 0)
        #expect(NcursesTerminal.escapeDelay(["WONDERLAND_ESCDELAY": "soon", "ESCDELAY": "40"]) == 0.04)
    }
}
