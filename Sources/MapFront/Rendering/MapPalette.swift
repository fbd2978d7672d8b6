import Terminal

/// The map's looks. With colours, land and sea are told apart by background colour; without
/// (NO_COLOR, monochrome terminals) by the glyphs themselves — land as dots, sea blank — so
/// no map type depends on colour to be read.
struct MapPalette {
    let colors: Bool

    var coast: Style { colors ? Style(foreground: .green) : .plain }
    var border: Style { colors ? Style(foreground: .yellow) : .dim }
    var sea: Style { colors ? Style(foreground: .cyan, background: .blue) : .plain }
    var land: Style { colors ? Style(foreground: .green, background: .green) : .plain }
    /// A cell with both land and sea in it: land dots on the sea colour.
    var shore: Style { colors ? Style(foreground: .green, background: .blue) : .plain }
    func borderOver(land: Bool) -> Style {
        colors ? Style(foreground: .yellow, background: land ? .green : .blue, bold: true) : .plain
    }
    var label: Style { colors ? Style(foreground: .white, background: .black, bold: true) : .bold }
    var marker: Style { colors ? Style(foreground: .red, background: .black, bold: true) : .bold }

    static let markerGlyph = "•"
}
