import Terminal

/// Every style a run of frames drew with something to see in it, and a sample of what: the
/// input of a contrast check that holds an app to what it really draws, not to what its code
/// seems to say.
///
/// ```swift
/// var drawn = DrawnStyles()
/// drawn.collect(pilot.terminal.frame)   // after every step worth seeing
/// #expect(drawn.contrastProblems().isEmpty, "\(drawn.contrastProblems().joined(separator: "\n"))")
/// ```
public struct DrawnStyles: Sendable {
    /// Styles of cells holding letters, digits, punctuation and symbols, with a sample of each.
    public private(set) var text: [Style: String] = [:]
    /// Styles of cells holding braille patterns (a map's land and lines): pictures, not words.
    public private(set) var graphics: [Style: String] = [:]

    public init() {}

    /// Takes the styles of `frame`'s visible characters. Blank cells show no foreground, so
    /// they need none to be read.
    public mutating func collect(_ frame: CellBuffer) {
        for y in 0..<frame.size.rows {
            for x in 0..<frame.size.columns {
                let cell = frame[x, y]
                guard !cell.isContinuation, let first = cell.text.unicodeScalars.first,
                      !cell.text.unicodeScalars.allSatisfy(\.properties.isWhitespace) else { continue }
                if (0x2800...0x28FF).contains(first.value) {
                    note(cell.style, sample: frame.text(row: y), in: &graphics)
                } else {
                    note(cell.style, sample: frame.text(row: y), in: &text)
                }
            }
        }
    }

    private func note(_ style: Style, sample row: String, in styles: inout [Style: String]) {
        if styles[style] == nil { styles[style] = row.trimmingTrailingSpaces() }
    }

    /// One line for each style and palette whose weakest reading falls under its minimum:
    /// text under `textMinimum` (WCAG's 4.5:1 for text), braille under `graphicsMinimum`
    /// (WCAG's 3:1 for the parts of a picture needed to understand it). The terminal's own text
    /// colours are held to what the palette itself gives them, which is all an app can do.
    public func contrastProblems(in palettes: [TerminalPalette] = TerminalPalette.common,
                                 textMinimum: Double = 4.5, graphicsMinimum: Double = 3) -> [String] {
        var problems: [String] = []
        for (styles, minimum, kind) in [(text, textMinimum, "text"), (graphics, graphicsMinimum, "braille")] {
            for (style, sample) in styles.sorted(by: { $0.value < $1.value }) {
                for palette in palettes {
                    for pair in palette.shownColors(of: style) where pair.contrast < Self.floor(minimum, pair, palette) {
                        problems.append("\(palette.name): \(kind) \(StyleAttribute.describe(style)) as \(pair.foreground) on \(pair.background) (\(pair.reading)) is \(Self.ratio(pair.contrast)):1, under \(Self.ratio(minimum)):1 — in “\(sample)”")
                    }
                }
            }
        }
        return problems
    }

    /// The lowest contrast any text this run drew has in each palette, for a report; the
    /// terminal's own text colours are left out, being the palette's and not the app's.
    public func weakestTextContrast(in palettes: [TerminalPalette] = TerminalPalette.common) -> [(palette: String, ratio: Double, style: String)] {
        palettes.map { palette in
            var weakest: (Double, String) = (21, "none")
            for style in text.keys {
                for pair in palette.shownColors(of: style) where pair.contrast < weakest.0 && !palette.isDefaultText(pair) {
                    weakest = (pair.contrast, "\(StyleAttribute.describe(style)) (\(pair.reading))")
                }
            }
            return (palette.name, weakest.0, weakest.1)
        }
    }

    private static func floor(_ minimum: Double, _ pair: ShownColors, _ palette: TerminalPalette) -> Double {
        palette.isDefaultText(pair) ? min(minimum, pair.contrast) : minimum
    }

    /// Two decimals, as contrast ratios are quoted.
    public static func ratio(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }
}
