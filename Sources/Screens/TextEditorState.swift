import Terminal

/// A multi-line text and its cursor, counted in grapheme clusters. A value type: the notes
/// editor's unsaved draft is exactly this, saved as it is.
public struct TextEditorState: Hashable, Sendable {
    public private(set) var lines: [[Character]]
    public private(set) var line: Int
    public private(set) var column: Int

    public init(text: String = "", line: Int = 0, column: Int = 0) {
        // Any line break (LF, CRLF, CR): "\r\n" is a single Character, so splitting on "\n" alone
        // would leave it inside a line.
        lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { Array($0) }
        if lines.isEmpty { lines = [[]] }
        self.line = min(max(0, line), lines.count - 1)
        self.column = min(max(0, column), lines[self.line].count)
    }

    public var text: String { lines.map { String($0) }.joined(separator: "\n") }
    /// True for no text at all; cheaper than building `text` to ask.
    public var isEmpty: Bool { lines.count == 1 && lines[0].isEmpty }

    public mutating func insert(_ character: Character) {
        if character.isNewline { return insertNewline() }
        lines[line].insert(character, at: column)
        column += 1
    }

    /// Inserts `string` at the cursor in one step, its line breaks (LF, CRLF, CR) kept as
    /// breaks: a pasted 100 KB line costs one splice, not a shift of the line per character.
    public mutating func insert(_ string: String) {
        var pieces = string.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { Array($0) }
        guard !pieces.isEmpty else { return }
        let rest = Array(lines[line][column...])
        lines[line].removeSubrange(column...)
        lines[line] += pieces[0]
        guard pieces.count > 1 else {
            column = lines[line].count
            lines[line] += rest
            return
        }
        let last = pieces.count - 1
        let newColumn = pieces[last].count
        pieces[last] += rest
        lines.insert(contentsOf: pieces[1...], at: line + 1)
        line += last
        column = newColumn
    }

    public mutating func insertNewline() {
        let rest = Array(lines[line][column...])
        lines[line].removeSubrange(column...)
        lines.insert(rest, at: line + 1)
        line += 1
        column = 0
    }

    public mutating func deleteBackward() {
        if column > 0 {
            lines[line].remove(at: column - 1)
            column -= 1
        } else if line > 0 {
            let joined = lines.remove(at: line)
            line -= 1
            column = lines[line].count
            lines[line] += joined
        }
    }

    public mutating func deleteForward() {
        if column < lines[line].count {
            lines[line].remove(at: column)
        } else if line + 1 < lines.count {
            lines[line] += lines.remove(at: line + 1)
        }
    }

    public mutating func moveLeft() {
        if column > 0 { column -= 1 } else if line > 0 { line -= 1; column = lines[line].count }
    }

    public mutating func moveRight() {
        if column < lines[line].count { column += 1 } else if line + 1 < lines.count { line += 1; column = 0 }
    }

    /// A word back; from a line's start, to the end of the line before.
    public mutating func moveWordLeft() {
        if column == 0 { return moveLeft() }
        column = WordMotion.start(before: column, in: lines[line])
    }

    /// A word forward; from a line's end, to the start of the next line.
    public mutating func moveWordRight() {
        if column == lines[line].count { return moveRight() }
        column = WordMotion.end(after: column, in: lines[line])
    }

    public mutating func moveToLineStart() { column = 0 }
    public mutating func moveToLineEnd() { column = lines[line].count }

    public mutating func moveTo(line newLine: Int, column newColumn: Int) {
        line = min(max(0, newLine), lines.count - 1)
        column = min(max(0, newColumn), lines[line].count)
    }

    /// Removes from the cursor to the end of the line, or the line break when already there.
    public mutating func killToLineEnd() {
        if column < lines[line].count { lines[line].removeSubrange(column...) } else { deleteForward() }
    }
}
