import Testing
@testable import Terminal

/// What a terminal sends that is not a key — replies to queries, strings, reports — consumed
/// whole, with nothing reaching a screen, and the keys around them intact.
@Suite("Terminal replies and strings")
struct TerminalReplyTests {
    static func decode(_ bytes: [UInt8], quiet: Bool = true) -> [Event] {
        var decoder = InputDecoder()
        var events = decoder.feed(bytes)
        if quiet && decoder.isWaiting { events += decoder.timeout() }
        return events
    }
    static func decode(_ text: String, quiet: Bool = true) -> [Event] { decode(Array(text.utf8), quiet: quiet) }

    static let replies: [(String, String)] = [
        ("XTVERSION from tmux", "\u{1B}P>|tmux 3.3a\u{1B}\\"),
        ("XTVERSION from xterm", "\u{1B}P>|XTerm(379)\u{1B}\\"),
        ("DECRQSS reply", "\u{1B}P1$r0;1m\u{1B}\\"),
        ("XTGETTCAP reply", "\u{1B}P1+r544e=787465726d\u{1B}\\"),
        ("sixel image", "\u{1B}Pq#0;2;0;0;0#1;2;100;100;0#1~~@@vv@@~~@@~~$#2??}}GG}}??}}??-#1!14@\u{1B}\\"),
        ("OSC 11 colour reply, BEL", "\u{1B}]11;rgb:ffff/ffff/dddd\u{07}"),
        ("OSC 10 colour reply, ST", "\u{1B}]10;rgb:0000/0000/0000\u{1B}\\"),
        ("OSC 4 palette reply", "\u{1B}]4;1;rgb:cdcd/0000/0000\u{1B}\\"),
        ("OSC 52 clipboard reply", "\u{1B}]52;c;cXVpdCBub3cK\u{07}"),
        ("OSC with UTF-8 title", "\u{1B}]l“quoted”\u{1B}\\"),
        ("APC", "\u{1B}_Gi=31;OK\u{1B}\\"),
        ("PM", "\u{1B}^privacy message q\u{1B}\\"),
        ("SOS", "\u{1B}Xstart of string q\u{1B}\\"),
        ("primary device attributes", "\u{1B}[?62;22c"), ("secondary device attributes", "\u{1B}[>41;379;0c"),
        ("tertiary device attributes", "\u{1B}P!|00000000\u{1B}\\"),
        ("cursor position report", "\u{1B}[12;40R"), ("cursor position report at row 24", "\u{1B}[24;1R"),
        ("status report", "\u{1B}[0n"), ("DEC mode report", "\u{1B}[?2004;2$y"), ("ANSI mode report", "\u{1B}[4;2$y"),
        ("window size report", "\u{1B}[8;24;80t"), ("keyboard protocol flags", "\u{1B}[?0u"),
        ("focus in", "\u{1B}[I"), ("focus out", "\u{1B}[O"),
        ("cursor style report", "\u{1B}P1$r2 q\u{1B}\\"),
        ("8-bit DCS", "\u{90}>|XTerm(379)\u{1B}\\"), ("8-bit OSC", "\u{9D}11;rgb:0/0/0\u{07}"),
        ("8-bit CSI reply", "\u{9B}?62;22c"),
    ]

    @Test("a reply gives no event", arguments: replies)
    func replyGivesNothing(_ name: String, _ bytes: String) {
        #expect(Self.decode(bytes).isEmpty, "\(name)")
        #expect(Self.decode("a" + bytes + "b") == [.key(.character("a")), .key(.character("b"))], "\(name) between keys")
    }

    @Test("8-bit C1 introducers, raw or written in UTF-8")
    func eightBitIntroducers() {
        // 0x9B is CSI itself, sent raw (not as the UTF-8 of U+009B).
        #expect(Self.decode([0x9B, 0x41]) == [.key(.up)])
        #expect(Self.decode([0x8F, 0x50]) == [.key(.function(1))])
        #expect(Self.decode([0x90, 0x71, 0x23, 0x1B, 0x5C, 0x71]) == [.key(.character("q"))])
    }

    @Test func aStringSplitAcrossReadsIsStillSwallowed() {
        var decoder = InputDecoder()
        var events: [Event] = []
        for byte in Array("\u{1B}P>|tmux 3.3a\u{1B}\\x".utf8) { events += decoder.feed([byte]) }
        #expect(events == [.key(.character("x"))])
    }

    @Test func aStringWhoseEndNeverComesEndsWhenTheInputFallsQuiet() {
        var decoder = InputDecoder()
        #expect(decoder.feed(Array("\u{1B}Pq#0;2;0;0;0~~@@qqqq".utf8)).isEmpty)
        #expect(decoder.isWaiting)
        #expect(decoder.timeout().isEmpty)
        #expect(!decoder.isWaiting)
        #expect(decoder.feed(Array("q".utf8)) == [.key(.character("q"))])
    }

    @Test func aHugeStringKeepsNothingAndEndsAtItsTerminator() {
        let body = String(repeating: "q#0;2;0;0;0~~@@vv", count: 200_000)  // 3.4 MB of sixel-like bytes
        #expect(Self.decode("\u{1B}Pq" + body + "\u{1B}\\x") == [.key(.character("x"))])
    }

    @Test func cancelOrAnotherEscapeEndsAString() {
        #expect(Self.decode("\u{1B}]11;rgb\u{18}x") == [.key(.character("x"))])
        #expect(Self.decode("\u{1B}]11;rgb\u{1A}x") == [.key(.character("x"))])
        // An Esc that is not the terminator cancels the string and starts a sequence.
        #expect(Self.decode("\u{1B}P>|tm\u{1B}[A") == [.key(.up)])
    }

    @Test func altWithAStringIntroducerAloneIsStillAKey() {
        #expect(Self.decode("\u{1B}P") == [.key(Key.character("P").adding(.alt))])
        #expect(Self.decode("\u{1B}]") == [.key(Key.character("]").adding(.alt))])
        #expect(Self.decode("\u{1B}_") == [.key(Key.character("_").adding(.alt))])
        #expect(Self.decode("\u{1B}X") == [.key(Key.character("X").adding(.alt))])
    }

    @Test func aKeyboardProtocolReportOfAControlIsNoText() {
        #expect(Self.decode("\u{1B}[133u").isEmpty)   // U+0085, a C1 control
        #expect(Self.decode("\u{1B}[127u") == [.key(.backspace)])
        #expect(Self.decode("\u{1B}[233u") == [.key(.character("é"))])
    }

    @Test func modifiedF1ToF4AreStillKeys() {
        #expect(Self.decode("\u{1B}[1;2P") == [.key(Key.function(1).adding(.shift))])
        #expect(Self.decode("\u{1B}[1;5R") == [.key(Key.function(3).adding(.control))])
        #expect(Self.decode("\u{1B}[R") == [.key(.function(3))])
    }
}

@Suite("Keys as the terminfo entry spells them")
struct TerminfoKeyTests {
    static func decode(_ text: String, _ keys: TerminfoKeys) -> [Event] {
        var decoder = InputDecoder(terminfoKeys: keys)
        var events = decoder.feed(Array(text.utf8))
        if decoder.isWaiting { events += decoder.timeout() }
        return events
    }

    @Test func theEntryWinsWhereItDisagreesWithTheBuiltInTable() {
        // FreeBSD's console (cons25) numbers its function keys by letter: `CSI Q` is its F5,
        // where the table has xterm's old F2; `CSI N` is a key only there.
        let cons25 = TerminfoKeys(entries: [("kf5", Array("\u{1B}[Q".utf8)), ("kf2", Array("\u{1B}[N".utf8))])
        #expect(Self.decode("\u{1B}[Q", cons25) == [.key(.function(5))])
        #expect(Self.decode("\u{1B}[N", cons25) == [.key(.function(2))])
        #expect(Self.decode("\u{1B}[Q", TerminfoKeys()) == [.key(.function(2))])
        #expect(Self.decode("\u{1B}[N", TerminfoKeys()).isEmpty)
    }

    @Test func aBareCSIPIsDeleteAsStSendsItOutsideKeypadMode() {
        #expect(Self.decode("\u{1B}[P", TerminfoKeys()) == [.key(.delete)])
        #expect(Self.decode("\u{1B}OP", TerminfoKeys()) == [.key(.function(1))])
    }

    @Test func modifiedKeysFromExtendedCapabilities() {
        let keys = TerminfoKeys(entries: [("kLFT5", Array("\u{1B}[1;5D".utf8)), ("kDC3", Array("\u{1B}[3;3~".utf8)),
                                          ("kf12", Array("\u{1B}[24~".utf8))])
        #expect(Self.decode("\u{1B}[1;5D", keys) == [.key(Key.left.adding(.control))])
        #expect(Self.decode("\u{1B}[3;3~", keys) == [.key(Key.delete.adding(.alt))])
        #expect(Self.decode("\u{1B}\u{1B}[24~", keys) == [.key(Key.function(12).adding(.alt))])
    }

    @Test func valuesThatAreNotEscapeSequencesAreLeftOut() {
        let keys = TerminfoKeys(entries: [("kbs", [0x08]), ("kdch1", [0x7F]), ("kcuu1", Array("\u{1B}A".utf8)), ("kmous", Array("\u{1B}[M".utf8))])
        #expect(keys.isEmpty)
        #expect(Self.decode("\u{7F}", keys) == [.key(.backspace)])
    }

    @Test func theFirstNameForASequenceKeepsIt() {
        let keys = TerminfoKeys(entries: [("khome", Array("\u{1B}[1~".utf8)), ("kfnd" /* not a key */, Array("\u{1B}[1~".utf8)),
                                          ("kend", Array("\u{1B}[1~".utf8))])
        #expect(Self.decode("\u{1B}[1~", keys) == [.key(.home)])
    }
}

@Suite("Typed text in the locale's charset")
struct InputCharsetTests {
    static func decode(_ bytes: [UInt8], _ charset: InputCharset) -> [Event] {
        var decoder = InputDecoder(charset: charset)
        var events = decoder.feed(bytes)
        if decoder.isWaiting { events += decoder.timeout() }
        return events
    }

    @Test func latin1BytesAreTheirCharacters() {
        #expect(Self.decode([0xE9], .latin1) == [.key(.character("é"))])
        #expect(Self.decode([0x63, 0x61, 0x66, 0xE9], .latin1).count == 4)
        #expect(Self.decode([0x1B, 0xE9], .latin1) == [.key(Key.character("é").adding(.alt))])
        // C1 controls are no text.
        #expect(Self.decode([0x85, 0x41], .latin1) == [.key(.character("A"))])
    }

    @Test func latin1PasteIsReadInTheCharset() {
        #expect(Self.decode(Array("\u{1B}[200~".utf8) + [0x63, 0xE9, 0x0D, 0x0A, 0xE0] + Array("\u{1B}[201~".utf8), .latin1)
                == [.paste("cé\nà")])
    }

    @Test func aSingleByteTableMapsWhatItsCharsetHas() {
        // ISO 8859-15 puts € at 0xA4.
        let latin9 = InputCharset.singleByte(SingleByteTable { $0 == 0xA4 ? "€" : Unicode.Scalar($0) })
        #expect(Self.decode([0xA4], latin9) == [.key(.character("€"))])
    }

    @Test func anASCIILocaleReadsUTF8AndEightBitMeta() {
        #expect(Self.decode(Array("é".utf8), .ascii) == [.key(.character("é"))])
        // Stock xterm's Alt-f, Alt-b and Alt-Backspace without metaSendsEscape.
        #expect(Self.decode([0xE6], .ascii) == [.key(Key.character("f").adding(.alt))])
        #expect(Self.decode([0xE2, 0x61], .ascii) == [.key(Key.character("b").adding(.alt)), .key(.character("a"))])
        #expect(Self.decode([0xFF], .ascii) == [.key(Key.backspace.adding(.alt))])
    }

    @Test func utf8DropsBrokenCharactersAsBefore() {
        #expect(Self.decode([0xE6, 0x41], .utf8) == [.key(.character("A"))])
    }
}

@Suite("What a frame outside UTF-8 keeps")
struct CharsetFallbackTests {
    @Test func aLatin1TerminalKeepsItsLettersAndLosesTheRest() {
        var frame = CellBuffer(size: Size(columns: 4, rows: 1))
        frame[0, 0] = Cell("é")
        frame[1, 0] = Cell("€")
        frame[2, 0] = Cell("⠿")
        frame[3, 0] = Cell("a")
        #expect(GlyphFallback.asciiFrame(frame, keeping: .latin1).lines == ["é?:a"])
        #expect(GlyphFallback.asciiFrame(frame).lines == ["??:a"])
    }
}
