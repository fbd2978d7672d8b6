import KeyedArchive
import Terminal

/// A multi-line UTF-8 text editor with soft wrapping. Lines wrap at the display width, so the
/// cursor moves by what a person sees: ↑↓ go to the row above or below on screen.
/// Esc is not taken: it goes to the container (a navigation stack goes back).
open class TextEditorScreen: Screen {
    public var state: TextEditorState {
        didSet {
            // Lines, not `text`: comparing arrays builds no strings, which a long draft feels.
            if state.lines != oldValue.lines { onChange?(state) }
            setNeedsDisplay()
        }
    }
    /// Called after every change of the text: drafts are kept from here.
    public var onChange: ((TextEditorState) -> Void)?
    public var placeholder = "Type here."
    private var scrollRow = 0
    private var preferredX: Int?
    private var wrapWidth = 40
    private var pageHeight = 10

    public init(title: String, text: String = "", restorationIdentifier: String? = nil) {
        state = TextEditorState(text: text)
        super.init(title: title, restorationIdentifier: restorationIdentifier)
    }

    open override var acceptsTextInput: Bool { true }

    /// The text as typed, saved or not, with the cursor: a draft survives a relaunch.
    open override func encodeRestorableState(with coder: KeyedArchiver) throws {
        try coder.encode(state.text, forKey: "text")
        coder.encode(state.line, forKey: "line")
        coder.encode(state.column, forKey: "column")
    }

    open override func decodeRestorableState(with coder: KeyedUnarchiver) throws {
        guard let text = try coder.decodeObject(of: String.self, forKey: "text") else { return }
        state = TextEditorState(text: text, line: try coder.decodeInteger(forKey: "line"), column: try coder.decodeInteger(forKey: "column"))
    }

    /// A visual row: which logical line, and which characters of it.
    struct Row: Equatable {
        var line: Int
        var range: Range<Int>
    }

    /// Splits every line into rows no wider than `width`. A line filling its last row exactly
    /// gets an empty row after it, where the cursor goes when it sits at the line's end.
    static func rows(of lines: [[Character]], width: Int) -> [Row] {
        var rows: [Row] = []
        for (number, characters) in lines.enumerated() {
            var start = 0, used = 0
            for (index, character) in characters.enumerated() {
                let w = DisplayWidth.of(character)
                if used + w > width {
                    rows.append(Row(line: number, range: start..<index))
                    start = index
                    used = 0
                }
                used += w
            }
            rows.append(Row(line: number, range: start..<characters.count))
            if used >= width { rows.append(Row(line: number, range: characters.count..<characters.count)) }
        }
        return rows
    }

    /// The row holding the cursor and the cursor's column in it.
    private func cursorPosition(in rows: [Row]) -> (row: Int, x: Int) {
        let candidates = rows.indices.filter { rows[$0].line == state.line }
        var row = candidates.last ?? 0
        for index in candidates where rows[index].range.contains(state.column) {
            row = index
            break
        }
        let characters = state.lines[state.line]
        let start = rows[row].range.lowerBound
        let x = characters[start..<min(state.column, characters.count)].reduce(0) { $0 + DisplayWidth.of($1) }
        return (row, x)
    }

    /// The character index in `row` nearest to display column `x`.
    private func column(in row: Row, atX x: Int) -> Int {
        let characters = state.lines[row.line]
        var used = 0
        for index in row.range {
            let w = DisplayWidth.of(characters[index])
            if used + w > x { return index }
            used += w
        }
        return row.range.upperBound
    }

    private func moveVertically(by delta: Int) {
        let rows = Self.rows(of: state.lines, width: wrapWidth)
        let position = cursorPosition(in: rows)
        let x = preferredX ?? position.x
        let target = min(max(0, position.row + delta), rows.count - 1)
        state.moveTo(line: rows[target].line, column: column(in: rows[target], atX: x))
        preferredX = x
    }

    open override var keyBindings: [KeyBinding] {
        [
            KeyBinding([.up, .down, .left, .right], label: "↑↓←→", help: "Move the cursor", showsInHintBar: false) { [unowned self] key in
                switch key {
                case .up: self.moveVertically(by: -1)
                case .down: self.moveVertically(by: 1)
                case .left: self.state.moveLeft()
                default: self.state.moveRight()
                }
            },
            KeyBinding([.home, .control("a")], label: "Home", help: "Start of line", showsInHintBar: false) { [unowned self] in self.state.moveToLineStart() },
            KeyBinding([.end, .control("e")], label: "End", help: "End of line", showsInHintBar: false) { [unowned self] in self.state.moveToLineEnd() },
            KeyBinding([.pageUp, .pageDown], label: "PgUp/PgDn", help: "Page up / down", showsInHintBar: false) { [unowned self] key in
                self.moveVertically(by: key == .pageUp ? -self.pageHeight : self.pageHeight)
            },
            KeyBinding(Key.wordLeftKeys + Key.wordRightKeys, label: "C-←→", help: "Move by words (also M-b, M-f)", showsInHintBar: false) { [unowned self] key in
                if Key.wordLeftKeys.contains(key) { self.state.moveWordLeft() } else { self.state.moveWordRight() }
            },
            KeyBinding(.control("k"), help: "Delete to the end of the line", showsInHintBar: false) { [unowned self] in self.state.killToLineEnd() },
        ]
    }

    open override func handle(_ event: Event) throws -> Bool {
        switch event {
        case .key(let key):
            let keepsPreferredX = [Key.up, .down, .pageUp, .pageDown].contains(key)
            defer { if !keepsPreferredX { preferredX = nil } }
            switch key {
            case .character(let c): state.insert(c)
            case .enter: state.insertNewline()
            case .backspace: state.deleteBackward()
            case .delete, .control("d"): state.deleteForward()
            default: return try super.handle(event)
            }
            return true
        case .paste(let text):
            state.insert(text)
            preferredX = nil
            return true
        case .mouse(let mouse) where mouse.kind == .press:
            let rows = Self.rows(of: state.lines, width: wrapWidth)
            let target = min(max(0, scrollRow + mouse.position.y - frame.y), rows.count - 1)
            state.moveTo(line: rows[target].line, column: column(in: rows[target], atX: mouse.position.x - frame.x - 1))
            return true
        case .mouse(let mouse) where mouse.kind == .wheelUp || mouse.kind == .wheelDown:
            moveVertically(by: mouse.kind == .wheelUp ? -3 : 3)
            return true
        default:
            return false
        }
    }

    open override var statusText: String? { "Ln \(state.line + 1), Col \(state.column + 1)" }

    open override func draw(in canvas: Canvas) {
        wrapWidth = max(1, canvas.width - 2)
        pageHeight = max(1, canvas.height - 1)
        let rows = Self.rows(of: state.lines, width: wrapWidth)
        let cursor = cursorPosition(in: rows)
        if cursor.row < scrollRow { scrollRow = cursor.row }
        if cursor.row >= scrollRow + canvas.height { scrollRow = cursor.row - canvas.height + 1 }
        scrollRow = max(0, min(scrollRow, rows.count - 1))
        if state.isEmpty { canvas.write(placeholder, x: 1, y: 0, style: .dim) }
        for screenRow in 0..<min(canvas.height, rows.count - scrollRow) {
            let row = rows[scrollRow + screenRow]
            canvas.write(String(state.lines[row.line][row.range]), x: 1, y: screenRow)
        }
        canvas.placeCursor(x: 1 + cursor.x, y: cursor.row - scrollRow)
    }
}
