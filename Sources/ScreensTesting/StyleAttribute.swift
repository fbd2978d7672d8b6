import Terminal

/// One thing a cell's style can be, for checks that care about one attribute and not the
/// whole style: "the selected row is reverse video", "the error is red".
public enum StyleAttribute: Hashable, Sendable, CustomStringConvertible {
    case bold, dim, underline, reverse
    case foreground(Color)
    case background(Color)
    /// No attribute and no colour at all.
    case plain

    /// Whether `style` has this attribute.
    public func isPresent(in style: Style) -> Bool {
        switch self {
        case .bold: style.bold
        case .dim: style.dim
        case .underline: style.underline
        case .reverse: style.reverse
        case .foreground(let color): style.foreground == color
        case .background(let color): style.background == color
        case .plain: style == .plain
        }
    }

    public var description: String {
        switch self {
        case .bold: "bold"
        case .dim: "dim"
        case .underline: "underlined"
        case .reverse: "reverse video"
        case .foreground(let color): "\(color) text"
        case .background(let color): "on \(color)"
        case .plain: "plain"
        }
    }

    /// A style in words, for failure messages: "bold, reverse video, red text" or "plain".
    public static func describe(_ style: Style) -> String {
        var words: [String] = []
        if style.bold { words.append("bold") }
        if style.dim { words.append("dim") }
        if style.underline { words.append("underlined") }
        if style.reverse { words.append("reverse video") }
        if let color = style.foreground { words.append("\(color) text") }
        if let color = style.background { words.append("on \(color)") }
        return words.isEmpty ? "plain" : words.joined(separator: ", ")
    }
}
