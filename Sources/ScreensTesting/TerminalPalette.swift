/// The sixteen colours of a terminal and its default text colours, as one terminal ships them,
/// with the ways it shows attributes in colour: what a style check resolves a cell's style
/// against (see ``TerminalPalette/shownColors(of:)``).
public struct TerminalPalette: Sendable {
    public let name: String
    /// Colours 0–15 in ANSI order: black, red, green, yellow, blue, magenta, cyan, white, then
    /// the bright eight.
    public let colors: [RGB]
    /// The colour of text that sets none (SGR 39).
    public let defaultForeground: RGB
    /// The background of cells that set none (SGR 49).
    public let defaultBackground: RGB
    /// The entries the default colours are, on a terminal whose defaults are palette entries
    /// (the Linux console's are 7 on 0): bold brightens them like any other colour.
    public let defaultIndexes: (foreground: Int, background: Int)?
    /// The colour a terminal draws faint text in, when it does not fade the foreground (the
    /// Linux console draws it in colour 8).
    public let faintColor: Int?
    /// The colour a terminal draws underlined text in instead of a line (the Linux console:
    /// colour 6).
    public let underlineColor: Int?
    /// Whether curses leaves out underline and faint on cells with a colour of their own, as
    /// the terminal's terminfo entry asks (`ncv#18` for TERM=linux: those attributes would
    /// turn the colour into another).
    public let dropsUnderlineAndFaintWithColor: Bool

    public init(name: String, colors: [UInt32], defaultForeground: UInt32, defaultBackground: UInt32,
                defaultIndexes: (foreground: Int, background: Int)? = nil, faintColor: Int? = nil, underlineColor: Int? = nil,
                dropsUnderlineAndFaintWithColor: Bool = false) {
        precondition(colors.count == 16, "a palette has sixteen colours")
        self.name = name
        self.colors = colors.map(RGB.init)
        self.defaultForeground = RGB(defaultForeground)
        self.defaultBackground = RGB(defaultBackground)
        self.defaultIndexes = defaultIndexes
        self.faintColor = faintColor
        self.underlineColor = underlineColor
        self.dropsUnderlineAndFaintWithColor = dropsUnderlineAndFaintWithColor
    }
}

extension TerminalPalette {
    /// Every palette a style check holds the app to.
    public static let common: [TerminalPalette] = [xterm, linuxConsole, tangoLight, tangoDark, solarizedDark, solarizedLight, alacritty]

    /// xterm as installed: XTerm-col.ad (xterm's colour app-defaults) names color0–15 black, red3,
    /// green3, yellow3, blue2, magenta3, cyan3, gray90, gray50, red, green, yellow, rgb:5c/5c/ff,
    /// magenta, cyan, white (their values from X11's rgb.txt), and sets boldColors on: bold
    /// colours 0–7 are shown as 8–15. The default text is XtDefaultForeground on
    /// XtDefaultBackground: black on white.
    public static let xterm = TerminalPalette(
        name: "xterm",
        colors: [0x000000, 0xCD0000, 0x00CD00, 0xCDCD00, 0x0000EE, 0xCD00CD, 0x00CDCD, 0xE5E5E5,
                 0x7F7F7F, 0xFF0000, 0x00FF00, 0xFFFF00, 0x5C5CFF, 0xFF00FF, 0x00FFFF, 0xFFFFFF],
        defaultForeground: 0x000000, defaultBackground: 0xFFFFFF)

    /// The Linux console: the VGA colours of drivers/tty/vt/vt.c (`default_red`, `default_grn`,
    /// `default_blu`), its default colour 7 on 0 (`default_color`), and `build_attr`'s rules in
    /// the same file: faint text is drawn in colour 8 (`vc_halfcolor`), underlined text in cyan
    /// (`default_underline_color`, 3 in VGA order), then reverse swaps the colours and bold
    /// brightens whatever foreground results. Its terminfo entry's `ncv#18` has curses send
    /// neither underline nor faint with a colour pair.
    public static let linuxConsole = TerminalPalette(
        name: "Linux console",
        colors: [0x000000, 0xAA0000, 0x00AA00, 0xAA5500, 0x0000AA, 0xAA00AA, 0x00AAAA, 0xAAAAAA,
                 0x555555, 0xFF5555, 0x55FF55, 0xFFFF55, 0x5555FF, 0xFF55FF, 0x55FFFF, 0xFFFFFF],
        defaultForeground: 0xAAAAAA, defaultBackground: 0x000000,
        defaultIndexes: (foreground: 7, background: 0), faintColor: 8, underlineColor: 6,
        dropsUnderlineAndFaintWithColor: true)

    /// GNOME Terminal's Tango palette, as src/profile-editor.cc lists it (`terminal_palettes`,
    /// "Tango palette").
    static let tango: [UInt32] = [0x2E3436, 0xCC0000, 0x4E9A06, 0xC4A000, 0x3465A4, 0x75507B, 0x06989A, 0xD3D7CF,
                                  0x555753, 0xEF2929, 0x8AE234, 0xFCE94F, 0x729FCF, 0xAD7FA8, 0x34E2E2, 0xEEEEEC]

    /// The Tango palette with GNOME Terminal's "Tango light" scheme (`color_schemes` in the
    /// same file): #2e3436 on #eeeeec.
    public static let tangoLight = TerminalPalette(name: "Tango light", colors: tango,
                                                   defaultForeground: 0x2E3436, defaultBackground: 0xEEEEEC)

    /// The Tango palette with the "Tango dark" scheme: #d3d7cf on #2e3436.
    public static let tangoDark = TerminalPalette(name: "Tango dark", colors: tango,
                                                  defaultForeground: 0xD3D7CF, defaultBackground: 0x2E3436)

    /// Solarized's sixteen (Ethan Schoonover's solarized, xresources/solarized): color0 base02,
    /// 1 red, 2 green, 3 yellow, 4 blue, 5 magenta, 6 cyan, 7 base2, 8 base03, 9 orange,
    /// 10 base01, 11 base00, 12 base0, 13 violet, 14 base1, 15 base3 — the same table GNOME
    /// Terminal ships as its Solarized palette.
    static let solarized: [UInt32] = [0x073642, 0xDC322F, 0x859900, 0xB58900, 0x268BD2, 0xD33682, 0x2AA198, 0xEEE8D5,
                                      0x002B36, 0xCB4B16, 0x586E75, 0x657B83, 0x839496, 0x6C71C4, 0x93A1A1, 0xFDF6E3]

    /// Solarized dark: base0 on base03.
    public static let solarizedDark = TerminalPalette(name: "Solarized dark", colors: solarized,
                                                      defaultForeground: 0x839496, defaultBackground: 0x002B36)

    /// Solarized light: base00 on base3.
    public static let solarizedLight = TerminalPalette(name: "Solarized light", colors: solarized,
                                                       defaultForeground: 0x657B83, defaultBackground: 0xFDF6E3)

    /// alacritty's defaults, from alacritty/src/config/color.rs (`PrimaryColors`, `NormalColors`,
    /// `BrightColors`): #c5c8c6 on #1d1f21.
    public static let alacritty = TerminalPalette(
        name: "alacritty",
        colors: [0x1D1F21, 0xCC6666, 0xB5BD68, 0xF0C674, 0x81A2BE, 0xB294BB, 0x8ABEB7, 0xC5C8C6,
                 0x666666, 0xD54E53, 0xB9CA4A, 0xE7C547, 0x7AA6DA, 0xC397D8, 0x70C0B1, 0xEAEAEA],
        defaultForeground: 0xC5C8C6, defaultBackground: 0x1D1F21)
}
