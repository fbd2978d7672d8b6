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
        if case .character(let c) = key {
            characters.insert(c, at: cursor)
            cursor += 1
            return true
        }
        guard let editing = Self.editingKeys.first(where: { $0.keys.contains(key) }) else { return false }
        editing.edit(&self, key)
        return true
    }

    /// A group of a field's editing keys, with its help: what ``apply(_:)`` does with them, and
    /// what a screen holding a field lists in its help (``keyBindings(apply:)``).
    struct EditingKey: Sendable {
        let keys: [Key]
        let label: String
        let help: String
        let edit: @Sendable (inout TextFieldState, Key) -> Void
    }

    /// Every key a field edits or moves with but the characters it inserts, declared once.
    static let editingKeys: [EditingKey] = [
        EditingKey(keys: [.left, .right, .control("b"), .control("f")], label: "←→", help: "Move the cursor (also ^B/^F)") { field, key in
            field.cursor = key == .left || key == .control("b") ? max(0, field.cursor - 1) : min(field.characters.count, field.cursor + 1)
        },
        EditingKey(keys: [.home, .control("a"), .end, .control("e")], label: "Home/End", help: "Start / end of the text (also ^A/^E)") { field, key in
            field.cursor = key == .home || key == .control("a") ? 0 : field.characters.count
        },
        EditingKey(keys: Key.wordLeftKeys + Key.wordRightKeys, label: "C-←→", help: "Move by words (also M-b, M-f)") { field, key in
            field.cursor = Key.wordLeftKeys.contains(key) ? WordMotion.start(before: field.cursor, in: field.characters)
                : WordMotion.end(after: field.cursor, in: field.characters)
        },
        EditingKey(keys: [.backspace, .control("h")], label: "Bksp", help: "Delete the character before the cursor") { field, _ in
            guard field.cursor > 0 else { return }
            field.characters.remove(at: field.cursor - 1)
            field.cursor -= 1
        },
        EditingKey(keys: [.delete, .control("d")], label: "Del", help: "Delete the character at the cursor (also ^D)") { field, _ in
            if field.cursor < field.characters.count { field.characters.remove(at: field.cursor) }
        },
        EditingKey(keys: [.control("w"), .modified(.backspace, .alt)], label: "^W", help: "Delete the word before the cursor (also M-Bksp)") { field, _ in
            let start = WordMotion.start(before: field.cursor, in: field.characters)
            field.characters.removeSubrange(start..<field.cursor)
            field.cursor = start
        },
        EditingKey(keys: [.control("u")], label: "^U", help: "Delete to the start") { field, _ in
            field.characters.removeFirst(field.cursor)
            field.cursor = 0
        },
        EditingKey(keys: [.control("k")], label: "^K", help: "Delete to the end") { field, _ in
            field.characters.removeLast(field.characters.count - field.cursor)
        },
    ]

    /// The field's editing keys as bindings for a screen's help, kept out of the hint bar. A
    /// screen gives keys to its field before its bindings, so these act only when reached some
    /// other way; `apply` is where the screen applies the key to its field (and, for a filter,
    /// filters again).
    public static func keyBindings(apply: @escaping (Key) -> Void) -> [KeyBinding] {
        editingKeys.map { editing in KeyBinding(editing.keys, label: editing.label, help: editing.help, showsInHintBar: false) { key in apply(key) } }
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
