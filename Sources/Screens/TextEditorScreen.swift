import KeyedArchive
import Terminal

/// A multi-line UTF-8 text editor with soft wrapping at word boundaries (`ParagraphRows`).
/// The cursor moves by what a person sees: ↑↓ go to the row above or below on screen, and the
/// view scrolls to keep the cursor on screen after every edit, move, paste and resize.
/// Esc is not taken: it goes to the container (a navigation stack goes back).
///
/// Set ``onChange`` to keep a draft as it is typed, and give the screen a
/// ``Screen/restorationIdentifier`` to have the text and cursor survive a relaunch. Enter
/// breaks the line, ^K deletes to its end, and pasted text is inserted in one step.
///
/// The work of a key or a frame follows the screen, not the text: only the paragraphs the
/// screen and the cursor reach are cut into rows (`TextEditorLayout`), and the top of the view
/// is kept as a paragraph and a row in it, never as a row number counted from the start.
open class TextEditorScreen: Screen {
    /// The text and the cursor. Setting it redraws, and calls ``onChange`` when the text changed
    /// (not for a move of the cursor alone).
    public var state: TextEditorState {
        didSet {
            // No `oldValue` here: reading it would copy the whole draft on every key. The
            // revision tells an edit from a move.
            if state.revision != notifiedRevision {
                notifiedRevision = state.revision
                onChange?(state)
            }
            setNeedsDisplay()
        }
    }
    /// Called with the new state after every change of the text, not after moves of the cursor:
    /// drafts are kept from here.
    public var onChange: ((TextEditorState) -> Void)?
    /// The dimmed hint shown while there is no text at all.
    public var placeholder = "Type here."
    private var notifiedRevision: TextEditorState.Revision
    private let layout = TextEditorLayout()
    /// The row at the top of the view.
    private var top = RowPosition(paragraph: 0, row: 0)
    private var preferredX: Int?
    private var pageHeight = 10
    /// The height of the last frame, for the mouse and for keeping the cursor in view.
    private var viewHeight = 11

    /// Makes an editor with the cursor at the start of `text`.
    ///
    /// - Parameters:
    ///   - title: The title shown in the navigation path and the tab bar.
    ///   - text: The initial text; any line break (LF, CRLF, CR, ...) starts a new paragraph.
    ///   - restorationIdentifier: The name the editor is saved under among its siblings, or
    ///     `nil` to save nothing of it.
    public init(title: String, text: String = "", restorationIdentifier: String? = nil) {
        state = TextEditorState(text: text)
        notifiedRevision = state.revision
        super.init(title: title, restorationIdentifier: restorationIdentifier)
        layout.setWidth(40)
    }

    /// Always true: every printable key is text, so `q` does not quit while the editor has focus.
    open override var acceptsTextInput: Bool { true }

    /// Saves the text as typed, saved elsewhere or not, with the cursor: a draft survives a relaunch.
    open override func encodeRestorableState(with coder: KeyedArchiver) throws {
        try coder.encode(state.text, forKey: SavedKey.text)
        coder.encode(state.line, forKey: SavedKey.line)
        coder.encode(state.column, forKey: SavedKey.column)
        encodeView(with: coder)
    }

    /// Saves the first row shown, as a place in the text (rows change with the width). A screen
    /// that keeps an editor's draft in its own state calls it beside the draft, and
    /// ``decodeView(with:)`` after giving the draft back.
    public func encodeView(with coder: KeyedArchiver) {
        let shown = restoredTop ?? topInText
        coder.encode(shown.paragraph, forKey: SavedKey.topParagraph)
        coder.encode(shown.offset, forKey: SavedKey.topOffset)
    }

    /// Reads back the first row ``encodeView(with:)`` saved; the first frame shows it, then the
    /// cursor is kept on screen from there. An archive without it leaves the cursor to decide.
    ///
    /// - Throws: An `ArchiveError` when a saved value has the wrong type.
    public func decodeView(with coder: KeyedUnarchiver) throws {
        guard coder.containsValue(forKey: SavedKey.topParagraph) else { return }
        restoredTop = (max(0, try coder.decodeInteger(forKey: SavedKey.topParagraph)), max(0, try coder.decodeInteger(forKey: SavedKey.topOffset)))
    }

    /// The first row shown as its paragraph and the byte its row starts at.
    private var topInText: (paragraph: Int, offset: Int) {
        let position = layout.clamped(top, in: state)
        let rows = layout.rows(of: position.paragraph, in: state)
        return (position.paragraph, position.row < rows.rows.count ? rows.rows[position.row].offset : 0)
    }

    /// Reads back the text and cursor ``encodeRestorableState(with:)`` saved, clamping the cursor
    /// to the text; keeps the current text when none was saved.
    ///
    /// - Throws: An `ArchiveError` when a saved value has the wrong type.
    open override func decodeRestorableState(with coder: KeyedUnarchiver) throws {
        guard let text = try coder.decodeObject(of: String.self, forKey: SavedKey.text) else { return }
        state = TextEditorState(text: text, line: try coder.decodeInteger(forKey: SavedKey.line), column: try coder.decodeInteger(forKey: SavedKey.column))
        try decodeView(with: coder)
    }

    /// The top saved by the last session, placed at each frame, once the width is known, until
    /// the first event the editor handles.
    private var restoredTop: (paragraph: Int, offset: Int)?

    private func placeTop(at saved: (paragraph: Int, offset: Int)) {
        guard saved.paragraph < state.paragraphs.count else { return }
        top = RowPosition(paragraph: saved.paragraph, row: layout.rows(of: saved.paragraph, in: state).row(containing: saved.offset))
    }

    /// A visual row: which paragraph, and which of its clusters (numbered in the paragraph).
    struct Row: Equatable {
        var line: Int
        var range: Range<Int>
    }

    /// Every row of `paragraphs` at `width`: the whole layout, for tests and tools. The editor
    /// itself never builds this; it cuts only the paragraphs it shows.
    static func rows(of paragraphs: [String], width: Int) -> [Row] {
        paragraphs.enumerated().flatMap { number, paragraph in
            let rows = ParagraphRows(paragraph, width: width)
            return rows.rows.indices.map { Row(line: number, range: rows.rows[$0].cluster..<rows.end(ofRow: $0).cluster) }
        }
    }

    /// The rows one paragraph (a line of text, without line breaks) takes in an editor whose text
    /// is `width` columns wide, each without the spaces hanging at its end: for a screen that
    /// shows read-only a text the editor edits (a saved note), so it wraps where the editor will
    /// and no row moves when editing starts or stops. Includes the empty row the editor gives a
    /// paragraph whose last row is full.
    public static func rows(ofParagraph paragraph: String, width: Int) -> [String] {
        let rows = ParagraphRows(paragraph, width: width)
        return rows.rows.indices.map { String(rows.text(ofRow: $0, in: paragraph)).trimmingTrailingSpaces() }
    }

    /// The text place shown at a screen position given relative to the editor's frame.
    ///
    /// Rows below the text give the last row; columns past a row's end give its end.
    ///
    /// - Parameters:
    ///   - row: The screen row, counted from the top of the view.
    ///   - column: The screen column, counted from the first text column (the mouse's x minus the
    ///     frame's x minus 1).
    /// - Returns: The paragraph and the column in grapheme clusters, as ``TextEditorState``
    ///   counts ``TextEditorState/line`` and ``TextEditorState/column``.
    public func index(atRow row: Int, column: Int) -> (line: Int, column: Int) {
        let place = self.place(atRow: row, column: column)
        return (place.line, place.column)
    }

    private func place(atRow row: Int, column: Int) -> (line: Int, offset: Int, column: Int) {
        let target = layout.position(top, movedBy: max(0, row), in: state)
        return layout.place(atX: max(0, column), in: target, of: state)
    }

    /// Puts the cursor at a screen position, given as ``index(atRow:column:)`` takes it: what a
    /// click does.
    public func placeCursor(atRow row: Int, column: Int) {
        let place = self.place(atRow: row, column: column)
        state.moveTo(line: place.line, offset: place.offset, column: place.column)
    }

    private func moveVertically(by delta: Int) {
        let from = layout.cursorRow(in: state)
        let x = preferredX ?? layout.cursorX(in: state)
        let target = layout.position(from, movedBy: delta, in: state)
        let place = layout.place(atX: x, in: target, of: state)
        state.moveTo(line: place.line, offset: place.offset, column: place.column)
        preferredX = x
    }

    /// The moves (arrows by what is on screen, Home/End, PgUp/PgDn, words), ^K and ^W; listed in
    /// the help, kept out of the hint bar.
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
            KeyBinding(.control("k"), help: "Delete to the end of the line", showsInHintBar: false) { [unowned self] in self.edit { $0.killToLineEnd() } },
            KeyBinding([.control("w"), .modified(.backspace, .alt)], label: "^W", help: "Delete the word before the cursor (also M-Bksp)",
                       showsInHintBar: false) { [unowned self] in self.edit { $0.deleteWordBackward() } },
        ]
    }

    /// Inserts typed characters and pasted text, breaks the line on Enter, deletes on Backspace,
    /// Delete and ^D, puts the cursor where a click lands, and scrolls on the wheel; other keys
    /// go to the key bindings, then to the parent (so Esc goes back).
    open override func handle(_ event: Event) throws -> Bool {
        // From the first thing the user does, the view follows the cursor from where it is.
        if let saved = restoredTop {
            placeTop(at: saved)
            restoredTop = nil
        }
        switch event {
        case .key(let key):
            let keepsPreferredX = [Key.up, .down, .pageUp, .pageDown].contains(key)
            defer { if !keepsPreferredX { preferredX = nil } }
            switch key {
            case .character(let c): edit { $0.insert(c) }
            case .enter: edit { $0.insertNewline() }
            case .backspace: edit { $0.deleteBackward() }
            case .delete, .control("d"): edit { $0.deleteForward() }
            default: return try super.handle(event)
            }
            return true
        case .paste(let text):
            edit { $0.insert(text) }
            preferredX = nil
            return true
        case .mouse(let mouse) where mouse.kind == .press:
            placeCursor(atRow: mouse.position.y - frame.y, column: mouse.position.x - frame.x - 1)
            return true
        case .mouse(let mouse):
            guard case .lines(let rows) = Motion(wheel: mouse, rowsShown: viewHeight) else { return false }
            moveVertically(by: rows)
            return true
        default:
            return false
        }
    }

    /// Applies an edit to the text, the layout letting go of the cursor's paragraph first: the
    /// edit changes it in place, and the layout cuts again only what the edit changed.
    private func edit(_ change: (inout TextEditorState) -> Void) {
        layout.prepareForEdit(of: state)
        change(&state)
    }

    /// The cursor's place as "Ln 3, Col 7", counted from 1.
    open override var statusText: String? { "Ln \(state.line + 1), Col \(state.column + 1)" }

    /// Draws the rows on screen with soft wrapping at the canvas's width less a margin on each
    /// side, scrolled the least that shows the cursor, and places the cursor.
    open override func draw(in canvas: Canvas) {
        layout.setWidth(canvas.width - 2)
        viewHeight = max(1, canvas.height)
        pageHeight = max(1, canvas.height - 1)
        scrollToCursor()
        if state.isEmpty { canvas.write(placeholder, x: 1, y: 0) }
        var position = top
        for screenRow in 0..<viewHeight {
            let rows = layout.rows(of: position.paragraph, in: state)
            let paragraph = state.paragraphs[position.paragraph]
            canvas.write(String(rows.text(ofRow: position.row, in: paragraph)), x: 1, y: screenRow)
            if position.row + 1 < rows.count {
                position.row += 1
            } else if position.paragraph + 1 < state.paragraphs.count {
                position = RowPosition(paragraph: position.paragraph + 1, row: 0)
            } else {
                break
            }
        }
        let cursor = layout.cursorRow(in: state)
        // Spaces may hang past a full row; the cursor on them waits at the margin column.
        let x = min(layout.cursorX(in: state), layout.width)
        canvas.placeCursor(x: 1 + x, y: layout.distance(from: top, to: cursor, limit: viewHeight, in: state))
    }

    /// Moves the top of the view the least that puts the cursor's row on screen.
    private func scrollToCursor() {
        // Until the user acts, every frame starts at the saved top: a container may draw the
        // editor at another height first (the character page lays out around it).
        if let saved = restoredTop { placeTop(at: saved) }
        top = layout.clamped(top, in: state)
        let cursor = layout.cursorRow(in: state)
        if cursor < top {
            top = cursor
        } else if layout.distance(from: top, to: cursor, limit: viewHeight, in: state) >= viewHeight {
            top = layout.position(cursor, movedBy: -(viewHeight - 1), in: state)
        }
    }
}
