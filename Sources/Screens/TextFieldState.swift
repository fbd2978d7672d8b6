import Terminal

/// A one-line text field's state: the text and a cursor counted in grapheme clusters.
///
/// A value type, so a screen can save it as it is (a half-typed prompt, a list filter). A
/// screen holding one passes each key to ``apply(_:)`` and pasted text to
/// ``insert(pasted:)`` from its ``Screen/handle(_:)``, and draws it with
/// ``draw(in:x:y:width:style:focused:)``.
public struct TextFieldState: Hashable, Sendable {
    /// The text as grapheme clusters, one per thing the user sees.
    public private(set) var characters: [Character]
    /// The cursor's place in ``characters``: 0 before the first, `characters.count` after the last.
    public private(set) var cursor: Int

    /// Makes a field holding `text`.
    ///
    /// - Parameters:
    ///   - text: The initial text.
    ///   - cursor: Where the cursor goes, in grapheme clusters, clamped to the text; `nil` puts
    ///     it at the end.
    public init(_ text: String = "", cursor: Int? = nil) {
        characters = Array(text)
        self.cursor = min(max(0, cursor ?? characters.count), characters.count)
    }

    /// The text, as a string.
    public var text: String { String(characters) }
    /// Whether the field holds no text.
    public var isEmpty: Bool { characters.isEmpty }

    /// Applies an editing key: a character is inserted; Backspace, Delete, ←→, Home/End and the
    /// Emacs keys (^A ^E ^B ^F ^D ^H ^U ^K ^W) edit and move as in a shell.
    ///
    /// - Returns: `false` for keys a text field does not use (Enter, Esc, arrows up and down),
    ///   so the screen holding it can act on them; `true` when the key was used.
    public mutating func apply(_ key: Key) -> Bool {
        switch key {
        case .character(let c):
            characters.insert(c, at: cursor)
            cursor += 1
        case .backspace, .control("h"):
            guard cursor > 0 else { return true }
            characters.remove(at: cursor - 1)
            cursor -= 1
        case .delete, .control("d"):
            if cursor < characters.count { characters.remove(at: cursor) }
        case .left, .control("b"): cursor = max(0, cursor - 1)
        case .right, .control("f"): cursor = min(characters.count, cursor + 1)
        case .home, .control("a"): cursor = 0
        case .end, .control("e"): cursor = characters.count
        case .control("u"):
            characters.removeFirst(cursor)
            cursor = 0
        case .control("k"): characters.removeLast(characters.count - cursor)
        case .control("w"), .modified(.backspace, .alt):
            let start = WordMotion.start(before: cursor, in: characters)
            characters.removeSubrange(start..<cursor)
            cursor = start
        case _ where Key.wordLeftKeys.contains(key): cursor = WordMotion.start(before: cursor, in: characters)
        case _ where Key.wordRightKeys.contains(key): cursor = WordMotion.end(after: cursor, in: characters)
        default: return false
        }
        return true
    }

    /// Inserts pasted text at the cursor. The field holds one line, so line breaks and tabs
    /// become spaces.
    public mutating func insert(pasted text: String) {
        let folded = text.map { $0.isNewline || $0 == "\t" ? " " : $0 }
        characters.insert(contentsOf: folded, at: cursor)
        cursor += folded.count
    }

    /// Draws the field in `width` columns, scrolled so the cursor shows, and places the terminal's
    /// cursor there when `focused`.
    ///
    /// - Parameters:
    ///   - canvas: The canvas to draw in; `x` and `y` are relative to it.
    ///   - x: The column of the field's first cell.
    ///   - y: The row of the field.
    ///   - width: How many columns the field takes; the rest of the text scrolls.
    ///   - style: The style of the whole field, padding included.
    ///   - focused: Whether to place the cursor; pass `false` for a field that is not being typed in.
    public func draw(in canvas: Canvas, x: Int, y: Int, width: Int, style: Style = .underline, focused: Bool = true) {
        guard width > 0 else { return }
        // Scroll: the slice starts as early as lets everything up to the cursor fit, found by
        // walking back from the cursor, so a frame measures what it shows, not a long paste.
        var start = cursor
        var widthToCursor = 0
        while start > 0 && cursor - start < 4 * width {
            let next = widthToCursor + DisplayWidth.of(characters[start - 1])
            guard next < width else { break }
            widthToCursor = next
            start -= 1
        }
        // No cluster is narrower than a column but the zero-width ones, so this is all a row shows.
        let visible = String(characters[start..<min(characters.count, start + 4 * width)])
        canvas.write(DisplayWidth.pad(DisplayWidth.truncate(visible, to: width, ellipsis: ""), to: width), x: x, y: y, style: style)
        if focused { canvas.placeCursor(x: x + widthToCursor, y: y) }
    }
}
