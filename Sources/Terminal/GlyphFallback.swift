/// What a terminal without UTF-8 or colours shows instead. Screens always draw the real glyphs;
/// the terminal translates at the last moment, so no screen needs to know about locales.
public enum GlyphFallback {
    /// An ASCII stand-in for one grapheme, keeping its display width.
    public static func ascii(_ text: String) -> String {
        guard let scalar = text.unicodeScalars.first else { return text }
        if scalar.value < 0x80 {  // an ASCII base keeps itself; its marks and selectors cannot show
            return String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value < 0x80 }))
        }
        let v = scalar.value
        switch v {
        case 0x2500, 0x2501, 0x2504, 0x2505, 0x2508, 0x2509, 0x254C, 0x254D, 0x2550: return "-"
        case 0x2502, 0x2503, 0x2506, 0x2507, 0x250A, 0x250B, 0x254E, 0x254F, 0x2551: return "|"
        case 0x2500...0x257F: return "+"
        case 0x2580...0x259F: return "#"  // block elements
        case 0x2800: return " "
        case 0x2801...0x28FF: return brailleDots(v - 0x2800) > 3 ? ":" : "."
        case 0x2190, 0x25C0, 0x25C2, 0x2039, 0x00AB: return "<"
        case 0x2192, 0x25B6, 0x25B8, 0x203A, 0x00BB: return ">"
        case 0x2191, 0x25B2, 0x25B4: return "^"
        case 0x2193, 0x25BC, 0x25BE: return "v"
        case 0x2022, 0x25CF, 0x25CB, 0x00B7: return "*"
        case 0x2026: return "~"
        case 0x2014, 0x2013: return "-"
        case 0x2018, 0x2019: return "'"
        case 0x201C, 0x201D: return "\""
        default: return DisplayWidth.of(text) == 2 ? "??" : "?"
        }
    }

    /// The frame with every non-ASCII cell replaced by ``ascii(_:)``'s stand-in, keeping the layout:
    /// what a terminal without UTF-8 is sent. A wide glyph becomes two `?` cells. A cell of one
    /// character the locale's charset has (é in ISO 8859-1) is kept, as curses can write it.
    public static func asciiFrame(_ frame: CellBuffer, keeping charset: InputCharset = .ascii) -> CellBuffer {
        var copy = frame
        for y in 0..<frame.size.rows {
            for x in 0..<frame.size.columns {
                let cell = frame[x, y]
                guard !cell.isContinuation, cell.text.utf8.contains(where: { $0 >= 0x80 }) else { continue }
                if charset.canShow(cell.text) { continue }
                let replacement = ascii(cell.text)
                if replacement.count == 2 && x + 1 < frame.size.columns {
                    copy[x, y] = Cell("?", style: cell.style)
                    copy[x + 1, y] = Cell("?", style: cell.style)
                } else {
                    copy[x, y] = Cell(replacement, style: cell.style)
                }
            }
        }
        return copy
    }

    /// The frame with every colour removed, attributes kept: what a NO_COLOR or monochrome
    /// terminal is sent.
    public static func monochrome(_ frame: CellBuffer) -> CellBuffer {
        var copy = frame
        copy.restyle(frame.bounds) { $0 = $0.withoutColor }
        return copy
    }

    private static func brailleDots(_ bits: UInt32) -> Int { bits.nonzeroBitCount }
}
