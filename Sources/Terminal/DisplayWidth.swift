import TextSafety

/// The one display-width function of the app: how many terminal columns a piece of text takes.
///
/// Every layout decision (truncation, wrapping, the cursor in an editor, centring) goes through
/// here, so a CJK ideograph, an emoji, a combining accent and a braille dot are measured the same
/// way everywhere. Width is decided per grapheme cluster (a Swift `Character`): a base letter
/// with combining marks is one column, an emoji with modifiers or a flag is two.
public enum DisplayWidth {
    /// Columns taken by one grapheme cluster: 0, 1 or 2. A control, line break or bidi
    /// override counts as the one-column stand-in the cell buffer draws for it, so layout and
    /// drawing agree about text from outside.
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.value < 0x300 { return 1 }  // fast path: Latin text, and the C0/C1 stand-ins
        // Box drawing, block elements and braille (the map, rules, borders): one column, no
        // stand-in and no emoji among them, so every map cell skips the property tables.
        if (0x2500...0x259F).contains(first.value) || (0x2800...0x28FF).contains(first.value) { return 1 }
        if SafeText.standIn(for: character) != nil { return 1 }
        if isZeroWidth(first) { return 0 }
        if isWide(first) { return 2 }
        // A text-default symbol followed by VS16 asks for emoji presentation, which is two wide.
        if scalars.contains(where: { $0.value == 0xFE0F }) && first.properties.isEmoji { return 2 }
        return 1
    }

    /// Columns taken by a string.
    public static func of<S: StringProtocol>(_ text: S) -> Int {
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    /// The longest prefix of `text` that fits in `columns`, with an ellipsis when it was cut.
    /// Stops reading at the first character that does not fit, so cutting a huge message to a
    /// status line costs what is shown, not the message's length.
    public static func truncate(_ text: String, to columns: Int, ellipsis: String = "…") -> String {
        guard columns > 0 else { return "" }
        let room = columns - of(ellipsis)
        var used = 0
        var index = text.startIndex, endWithEllipsis = text.startIndex
        while index < text.endIndex {
            let w = of(text[index])
            if used + w > columns {
                guard room >= 0 else { return String(repeating: ".", count: columns) }
                return String(text[..<endWithEllipsis]) + ellipsis
            }
            used += w
            index = text.index(after: index)
            if used <= room { endWithEllipsis = index }
        }
        return text
    }

    /// `text` padded with spaces (or cut) to exactly `columns`.
    public static func pad(_ text: String, to columns: Int) -> String {
        let t = truncate(text, to: columns)
        return t + String(repeating: " ", count: max(0, columns - of(t)))
    }

    /// Splits text into lines no wider than `columns`, preferring to break after spaces; a word
    /// longer than a line is broken inside it. Hard line breaks (LF, CRLF) are kept.
    public static func wrap(_ text: String, to columns: Int) -> [String] {
        wrapRanges(text, to: columns).map { String(text[$0]).trimmingTrailingSpaces() }
    }

    /// The lines of `wrap` as ranges of `text`, so a reader can keep its place by position in
    /// the text rather than by line number (line numbers change with the width).
    public static func wrapRanges(_ text: String, to columns: Int) -> [Range<String.Index>] {
        let width = max(1, columns)
        var lines: [Range<String.Index>] = []
        var lineStart = text.startIndex, lineWidth = 0
        var breakAfterSpace: String.Index?
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if character.isNewline {
                lines.append(lineStart..<index)
                lineStart = next; lineWidth = 0; breakAfterSpace = nil
                index = next
                continue
            }
            let w = of(character)
            if lineWidth + w > width && lineWidth > 0 {
                if character == " " {  // the spaces at the break point are swallowed
                    lines.append(lineStart..<index)
                    var after = next
                    while after < text.endIndex && text[after] == " " { after = text.index(after: after) }
                    lineStart = after; lineWidth = 0; breakAfterSpace = nil
                    index = after
                    continue
                }
                if let cut = breakAfterSpace {
                    lines.append(lineStart..<cut)
                    lineStart = cut
                    lineWidth = of(text[cut..<index])
                } else {
                    lines.append(lineStart..<index)
                    lineStart = index
                    lineWidth = 0
                }
                breakAfterSpace = nil
            }
            lineWidth += w
            index = next
            if character == " " { breakAfterSpace = index }
        }
        lines.append(lineStart..<text.endIndex)
        return lines
    }

    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return true
        default: return (0x1160...0x11FF).contains(scalar.value)  // Hangul medial vowels, final consonants
        }
    }

    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isEmojiPresentation { return true }
        return isInWideBlock(scalar.value)
    }

    /// East Asian Wide and Fullwidth blocks (Unicode's EastAsianWidth.txt, W and F), coarsened to
    /// blocks: the emoji among them are caught by `isEmojiPresentation` above. A switch, not a
    /// table: nothing to build on first use.
    private static func isInWideBlock(_ v: UInt32) -> Bool {
        switch v {
        case 0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
             0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF,
             0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4,
             0x17000...0x18AFF, 0x1B000...0x1B2FF, 0x1F200...0x1F202, 0x1F210...0x1F23B,
             0x1F240...0x1F248, 0x1F250...0x1F251, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}

extension String {
    /// The string without trailing spaces: rows and hint texts are compared and laid out
    /// without the padding that drawing adds.
    public func trimmingTrailingSpaces() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
