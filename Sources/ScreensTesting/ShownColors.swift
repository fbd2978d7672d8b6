import Terminal

/// A foreground on a background as one terminal may show a style, and the reading that gives
/// it ("bold as bright, then reverse").
public struct ShownColors: Hashable, Sendable {
    public var foreground: RGB
    public var background: RGB
    public var reading: String

    /// The pair's WCAG contrast ratio.
    public var contrast: Double { foreground.contrast(with: background) }
}

extension TerminalPalette {
    /// Every way this terminal may show `style`: terminals disagree on bold, so each reading is
    /// given and a check must pass them all.
    ///
    /// - A missing colour is the terminal's default (on the Linux console, entries 7 and 0).
    /// - Reverse video swaps foreground and background.
    /// - Bold may leave colours alone, or show a colour 0–7 as its bright twin 8–15, either
    ///   on the foreground as set, before reverse (xterm's boldColors), or on the foreground
    ///   shown, after reverse (the Linux console).
    /// - Faint text is the foreground faded halfway into the background, or the terminal's own
    ///   faint colour (the Linux console's 8); underlined text may be drawn in an underline
    ///   colour instead (the Linux console's cyan). Both replace the foreground before reverse,
    ///   as the console does — unless curses leaves them out with a colour
    ///   (``dropsUnderlineAndFaintWithColor``).
    public func shownColors(of style: Style) -> [ShownColors] {
        var style = style
        if dropsUnderlineAndFaintWithColor, style.foreground != nil || style.background != nil {
            style.underline = false
            style.dim = false
        }
        var foreground = style.foreground.map { Slot.entry($0.rawValue) } ?? defaultIndexes.map { .entry($0.foreground) } ?? .defaultForeground
        let background = style.background.map { Slot.entry($0.rawValue) } ?? defaultIndexes.map { .entry($0.background) } ?? .defaultBackground
        var fadesForeground = style.dim
        if style.underline, let underlineColor {
            foreground = .entry(underlineColor)
            fadesForeground = false
        } else if style.dim, let faintColor {
            foreground = .entry(faintColor)
            fadesForeground = false
        }
        var readings: [(Slot, Slot, String)] = [(foreground, background, "")]
        if style.bold {
            readings.append((foreground.brightened, background, "bold as bright"))
        }
        if style.reverse {
            readings = readings.map { ($0.1, $0.0, $0.2.isEmpty ? "reverse" : $0.2 + ", then reverse") }
            if style.bold { readings.append((background.brightened, foreground, "reverse, then bold as bright")) }
        }
        var shown: [ShownColors] = []
        for (front, back, reading) in readings {
            var pair = ShownColors(foreground: color(front), background: color(back), reading: reading.isEmpty ? "as set" : reading)
            if fadesForeground {
                pair.foreground = pair.foreground.mixed(with: pair.background, fraction: 0.5)
                pair.reading += ", faint as half way to the background"
            }
            if !shown.contains(where: { $0.foreground == pair.foreground && $0.background == pair.background }) { shown.append(pair) }
        }
        return shown
    }

    /// Whether `pair` is this terminal's own text colours, either way round: what a user who
    /// chose the palette reads everywhere, whatever an app does.
    public func isDefaultText(_ pair: ShownColors) -> Bool {
        (pair.foreground == defaultForeground && pair.background == defaultBackground)
            || (pair.foreground == defaultBackground && pair.background == defaultForeground)
    }

    private enum Slot {
        case entry(Int), defaultForeground, defaultBackground

        /// Bold's bright twin: only the first eight entries have one.
        var brightened: Slot {
            if case .entry(let index) = self, index < 8 { return .entry(index + 8) }
            return self
        }
    }

    private func color(_ slot: Slot) -> RGB {
        switch slot {
        case .entry(let index): colors[index]
        case .defaultForeground: defaultForeground
        case .defaultBackground: defaultBackground
        }
    }
}
