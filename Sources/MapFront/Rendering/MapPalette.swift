import Terminal

/// The map's looks. With colours, land and sea are told apart by background colour; without
/// (NO_COLOR, monochrome terminals) by the glyphs themselves — land as dots, sea blank — so
/// no map type depends on colour to be read.
///
/// With colours the map is drawn on black, land green: black is the one background that
/// every common palette's light text and line colours read on (white 9:1 or more, yellow
/// 4:1 or more as lines), where the terminal's own background may be white or black. Nothing
/// on it is bold: bold may show a colour as its bright twin, and Solarized's bright yellow is
/// a grey that does not read on black.
struct MapPalette {
    let colors: Bool

    /// Cells with nothing in them, in every map type.
    var sea: Style { colors ? Style(background: .black) : .plain }
    var coast: Style { colors ? Style(foreground: .white, background: .black) : .plain }
    /// Without colours, bold tells borders from coasts: faint would not read (the Linux console
    /// draws it dark grey on black).
    var border: Style { colors ? Style(foreground: .yellow, background: .black) : .bold }
    var land: Style { colors ? Style(background: .green) : .plain }
    /// A cell with both land and sea in it: land dots on the sea colour.
    var shore: Style { colors ? Style(foreground: .green, background: .black) : .plain }
    /// A border through land is drawn in black on the land's green, where yellow would not show.
    func borderOver(land: Bool) -> Style {
        guard colors else { return .plain }
        return land ? Style(foreground: .black, background: .green) : border
    }
    var label: Style { colors ? Style(foreground: .white, background: .black, bold: true) : .bold }
    var marker: Style { label }

    /// The pin and the current location, with their titles: the terminal's black on white in
    /// colour, reverse video without.
    static let ownMark = Style(foreground: .white, background: .black, reverse: true)
    /// The place found with `/`: underlined on the map's black.
    static let foundPlace = Style(foreground: .white, background: .black, underline: true)

    static let markerGlyph = "•"
}
