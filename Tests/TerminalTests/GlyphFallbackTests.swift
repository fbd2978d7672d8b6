import Testing
import Terminal

@Suite("GlyphFallback")
struct GlyphFallbackTests {
    @Test("ASCII stand-ins", arguments: [
        ("a", "a"), ("─", "-"), ("═", "-"), ("│", "|"), ("║", "|"), ("┌", "+"), ("┘", "+"), ("┼", "+"), ("╭", "+"),
        ("█", "#"), ("▒", "#"), ("\u{2800}", " "), ("\u{2801}", "."), ("\u{2807}", "."), ("\u{280F}", ":"),
        ("\u{28FF}", ":"), ("▸", ">"), ("›", ">"), ("←", "<"), ("↑", "^"), ("↓", "v"), ("•", "*"), ("…", "~"),
        ("—", "-"), ("“", "\""), ("’", "'"), ("世", "??"), ("🙂", "??"), ("🇫🇷", "??"), ("é", "?"), ("λ", "?"),
    ] as [(String, String)])
    func asciiStandIn(_ glyph: String, _ expected: String) {
        #expect(GlyphFallback.ascii(glyph) == expected)
        #expect(DisplayWidth.of(GlyphFallback.ascii(glyph)) == DisplayWidth.of(glyph))
    }

    @Test func combiningMarksOnAnASCIIBaseAreDropped() {
        // A non-UTF-8 terminal cannot show U+0301: the base letter alone is the honest fallback.
        #expect(GlyphFallback.ascii("e\u{301}") == "e")
        #expect(GlyphFallback.ascii("1\u{FE0F}\u{20E3}") == "1")
    }

    @Test func asciiFrameReplacesEveryNonASCIICell() {
        var frame = CellBuffer(size: Size(columns: 12, rows: 2))
        frame.write("┌─┐世▸e\u{301}", at: Point(x: 0, y: 0), style: .bold)
        frame.write("\u{28FF}\u{2801}🇫🇷", at: Point(x: 0, y: 1))
        let ascii = GlyphFallback.asciiFrame(frame)
        #expect(ascii.lines == ["+-+??>e", ":.??"])
        #expect(!ascii.cells.contains { $0.isContinuation })
        #expect(ascii.cells.allSatisfy { $0.text.unicodeScalars.allSatisfy { $0.value < 0x80 } })
        #expect(ascii[3, 0].style == .bold && ascii[4, 0].style == .bold)
        #expect(frame.lines[0] == "┌─┐世▸e\u{301}")  // the original frame is untouched
    }

    @Test func monochromeDropsColoursButKeepsAttributes() {
        var frame = CellBuffer(size: Size(columns: 4, rows: 1))
        frame.write("ab", at: Point(x: 0, y: 0), style: Style(foreground: .red, background: .blue, bold: true, reverse: true))
        let mono = GlyphFallback.monochrome(frame)
        #expect(mono[0, 0].style == Style(bold: true, reverse: true))
        #expect(mono.cells.allSatisfy { $0.style.foreground == nil && $0.style.background == nil })
        #expect(mono.lines == ["ab"])
    }
}
