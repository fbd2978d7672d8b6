/// A screen row of the notes editor: row `row` of paragraph `paragraph`.
struct RowPosition: Comparable, Hashable {
    var paragraph: Int
    var row: Int

    static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.paragraph, lhs.row) < (rhs.paragraph, rhs.row)
    }
}

/// The notes editor's rows, made only for the paragraphs the screen and the cursor reach.
///
/// Nothing here walks the whole text: rows are counted from a known row (the top of the screen,
/// the cursor) to the next or previous ones, paragraph by paragraph, and each paragraph is cut
/// into rows once for a given text and width. A cached paragraph is checked against the text
/// it was made from; an unchanged paragraph shares its string's storage, so the check is one
/// comparison of two references, and a paragraph that changed or moved is cut again where it
/// differs from what was cached at its place (`ParagraphRows.init(_:width:updating:of:)`).
final class TextEditorLayout {
    private(set) var width = 1
    private var cache: [Int: Entry] = [:]

    /// A paragraph's rows, and what tells whether they still fit its text.
    private enum Entry {
        /// Cut from `text`.
        case cut(text: String, rows: ParagraphRows)
        /// Right for the paragraph at revision `since`, whose text was let go of for an edit
        /// (`prepareForEdit`).
        case beingEdited(rows: ParagraphRows, since: TextEditorState.Revision)
    }
    /// Enough for several screens of paragraphs; past it the cache starts again from what the
    /// next frames use, so memory follows the screen, not the draft.
    private let cacheLimit = 4096

    func setWidth(_ newWidth: Int) {
        let newWidth = max(1, newWidth)
        guard newWidth != width else { return }
        width = newWidth
        cache.removeAll(keepingCapacity: true)
    }

    /// Before an edit of the cursor's paragraph: the cache lets go of that paragraph's text, so
    /// the edit changes the string in place instead of copying it, and keeps its rows with the
    /// revision they are right for, so `rows(of:in:)` updates them from `state.lastEdit`.
    func prepareForEdit(of state: TextEditorState) {
        // Up to date first: keys may come faster than frames, each edit following the last.
        let rows = rows(of: state.line, in: state)
        cache[state.line] = .beingEdited(rows: rows, since: state.revision)
    }

    /// The rows of paragraph `index` of `state`, cut now if the text changed since last time.
    func rows(of index: Int, in state: TextEditorState) -> ParagraphRows {
        let text = state.paragraphs[index]
        let rows: ParagraphRows
        switch cache[index] {
        case .cut(let cachedText, let cachedRows) where cachedText == text:
            return cachedRows
        case .cut(let cachedText, let cachedRows):
            // What the paragraph held before (usually the same one, edited elsewhere) is cut
            // again only where it differs.
            rows = ParagraphRows(text, width: width, updating: cachedRows, of: cachedText)
        case .beingEdited(let cachedRows, let since) where since == state.revision:
            rows = cachedRows
        case .beingEdited(let cachedRows, let since):
            if let edit = state.lastEdit, edit.span.line == index, edit.before == since, edit.after == state.revision {
                // The edit made since `prepareForEdit` says what changed.
                let span = edit.span, newCount = text.utf8.count
                rows = ParagraphRows(text, updating: cachedRows, keepingFirst: span.start, andLast: newCount - span.newEnd,
                                     of: newCount - (span.newEnd - span.oldEnd), bytes: newCount)
            } else {
                rows = ParagraphRows(text, width: width)
            }
        case nil:
            rows = ParagraphRows(text, width: width)
        }
        if cache.count >= cacheLimit { cache.removeAll(keepingCapacity: true) }
        cache[index] = .cut(text: text, rows: rows)
        return rows
    }

    /// The row holding the cursor.
    func cursorRow(in state: TextEditorState) -> RowPosition {
        RowPosition(paragraph: state.line, row: rows(of: state.line, in: state).row(containing: state.offset))
    }

    /// The cursor's column on screen, counted from the start of its row.
    func cursorX(in state: TextEditorState) -> Int {
        let position = cursorRow(in: state)
        return rows(of: state.line, in: state).x(of: state.offset, inRow: position.row, of: state.paragraphs[state.line])
    }

    /// The row `delta` rows after (or before, when negative) `position`, stopping at the first
    /// or last row of the text. Costs the rows crossed, not the text.
    func position(_ position: RowPosition, movedBy delta: Int, in state: TextEditorState) -> RowPosition {
        var result = clamped(position, in: state)
        var remaining = delta
        while remaining > 0 {
            let count = rows(of: result.paragraph, in: state).count
            if result.row + remaining < count { result.row += remaining; break }
            guard result.paragraph + 1 < state.paragraphs.count else { result.row = count - 1; break }
            remaining -= count - result.row
            result = RowPosition(paragraph: result.paragraph + 1, row: 0)
        }
        while remaining < 0 {
            if result.row + remaining >= 0 { result.row += remaining; break }
            guard result.paragraph > 0 else { result.row = 0; break }
            remaining += result.row + 1
            let previous = result.paragraph - 1
            result = RowPosition(paragraph: previous, row: rows(of: previous, in: state).count - 1)
        }
        return result
    }

    /// How many rows `to` lies below `from`, counting no further than `limit`.
    func distance(from: RowPosition, to: RowPosition, limit: Int, in state: TextEditorState) -> Int {
        guard from < to else { return 0 }
        var distance = 0, current = from
        while current < to && distance < limit {
            let count = rows(of: current.paragraph, in: state).count
            if current.paragraph == to.paragraph {
                distance += to.row - current.row
                break
            }
            distance += count - current.row
            current = RowPosition(paragraph: current.paragraph + 1, row: 0)
        }
        return min(distance, limit)
    }

    /// `position` pulled back inside the text (after an edit removed paragraphs or rows).
    func clamped(_ position: RowPosition, in state: TextEditorState) -> RowPosition {
        let paragraph = min(max(0, position.paragraph), state.paragraphs.count - 1)
        let count = rows(of: paragraph, in: state).count
        return RowPosition(paragraph: paragraph, row: min(max(0, position.row), count - 1))
    }

    /// The text place nearest to column `x` of the row at `position`: (line, UTF-8 offset, column).
    func place(atX x: Int, in position: RowPosition, of state: TextEditorState) -> (line: Int, offset: Int, column: Int) {
        let rows = rows(of: position.paragraph, in: state)
        let place = rows.place(atX: x, inRow: position.row, of: state.paragraphs[position.paragraph])
        return (position.paragraph, place.offset, place.cluster)
    }
}
