/// The eight ANSI colours every colour terminal has. Anything richer would need a fallback
/// path of its own, and the app's look does not depend on it.
public enum Color: Int, Hashable, Sendable, CaseIterable {
    /// The colours in ANSI order, numbered as the terminal numbers them (black 0 to white 7).
    case black = 0, red, green, yellow, blue, magenta, cyan, white
}

/// How a cell looks. Colours are optional so that a monochrome or NO_COLOR terminal still shows
/// structure through the attributes alone (selection is always reverse video, never colour only).
public struct Style: Hashable, Sendable {
    /// The text colour; nil for the terminal's own.
    public var foreground: Color?
    /// The background colour; nil for the terminal's own.
    public var background: Color?
    /// Bold (or bright) text. Where bold means bright (xterm's boldColors, the Linux console),
    /// bold black is grey and bold on reverse video lights the black swapped in: the app keeps
    /// bold off black text and off reverse video.
    public var bold: Bool
    /// Faint text. Terminals draw it below a readable contrast (the Linux console in dark grey,
    /// 2.8:1 on its black; others faded into the background), so the app gives it to nothing
    /// that must be read.
    public var dim: Bool
    /// Underlined text (text fields use it).
    public var underline: Bool
    /// Foreground and background swapped: selections and cursors.
    public var reverse: Bool

    /// A style; every attribute is off unless given.
    public init(foreground: Color? = nil, background: Color? = nil,
                bold: Bool = false, dim: Bool = false, underline: Bool = false, reverse: Bool = false) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.underline = underline
        self.reverse = reverse
    }

    /// No colour and no attribute.
    public static let plain = Style()
    /// Bold alone: titles and key names.
    public static let bold = Style(bold: true)
    /// Faint alone (see ``dim``: not for anything that must be read).
    public static let dim = Style(dim: true)
    /// Reverse video alone: selections and buttons.
    public static let reverse = Style(reverse: true)
    /// Underline alone: text fields.
    public static let underline = Style(underline: true)

    /// The same style with its colours removed: what a monochrome terminal shows.
    public var withoutColor: Style {
        var copy = self
        copy.foreground = nil
        copy.background = nil
        return copy
    }
}
