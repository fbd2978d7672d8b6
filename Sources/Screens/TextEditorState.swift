import Terminal

/// A multi-line text and its cursor, with the edits and moves an editor needs.
///
/// A value type: the notes editor's unsaved draft is exactly this, saved as it is.
/// ``TextEditorScreen`` shows one; a screen of your own can hold one too, applying keys through
/// the `insert` methods, ``deleteBackward()`` and the `move` methods.
///
/// The text is kept as its paragraphs (the lines between breaks), each a native UTF-8 string:
/// an edit touches one paragraph, never the whole text, and a 10 MB draft takes about 10 MB.
/// The cursor is a paragraph, a column counted in grapheme clusters (what the user sees and
/// what is saved), and the same place as a UTF-8 offset, so moving and editing at the cursor
/// start from where it is instead of counting from the paragraph's start.
///
/// Two states are equal when their text and cursor are; ``revision`` is not compared.
public struct TextEditorState: Hashable, Sendable {
    /// The text's paragraphs, without their line breaks; never empty (no text is one empty paragraph).
    public private(set) var paragraphs: [String]
    /// The index in ``paragraphs`` of the paragraph holding the cursor.
    public private(set) var line: Int
    /// The cursor's place in its paragraph, in grapheme clusters from the paragraph's start.
    public private(set) var column: Int
    /// The cursor as a UTF-8 offset into `paragraphs[line]`, always on a cluster boundary.
    public private(set) var offset: Int
    /// Changes with every change of the text (and is unique to this state's history), so a
    /// screen can tell an edit happened without keeping, and so copying, the old text.
    public private(set) var revision: Revision
    /// The last edit, when it changed the bytes of one paragraph in place; not compared.
    public private(set) var lastEdit: ParagraphEdit?

    /// An opaque mark of a state's text: compare two to learn whether the text was edited between
    /// them, without comparing the texts.
    public struct Revision: Hashable, Sendable {
        let origin: UInt64
        let count: Int
    }

    /// One edit inside one paragraph: what a layout needs to cut only what changed, without
    /// keeping (and so copying on the next key) the text it cut before.
    public struct ParagraphEdit: Hashable, Sendable {
        /// The revision the edit was made to, and the one it made.
        let before: Revision
        let after: Revision
        let span: Span

        /// Bytes `start..<oldEnd` of paragraph `line` became bytes `start..<newEnd`.
        struct Span: Hashable, Sendable {
            let line: Int
            let start: Int
            let oldEnd: Int
            let newEnd: Int
        }
    }

    /// Makes a state holding `text`, split into paragraphs at every line break.
    ///
    /// - Parameters:
    ///   - text: The text; LF, CRLF, CR, VT, FF, NEL, LS and PS all break lines.
    ///   - line: The paragraph of the cursor, clamped to the text.
    ///   - column: The cursor's column in grapheme clusters, clamped to the paragraph.
    public init(text: String = "", line: Int = 0, column: Int = 0) {
        paragraphs = Self.paragraphs(of: text)
        self.line = min(max(0, line), paragraphs.count - 1)
        self.column = 0
        offset = 0
        revision = Revision(origin: UInt64.random(in: 0...UInt64.max), count: 0)
        moveTo(line: self.line, column: column)
    }

    /// The paragraphs of `text`, split at any line break (LF, CRLF, CR, VT, FF, NEL, LS, PS) as
    /// `Character.isNewline` would, but by bytes: a line break is always a cluster of its own,
    /// and a 10 MB draft restored at launch is split without walking it cluster by cluster.
    public static func paragraphs(of text: String) -> [String] {
        var text = text
        return text.withUTF8 { bytes -> [String] in
            var result: [String] = []
            var start = 0, index = 0
            let count = bytes.count
            func cut(_ breakLength: Int) {
                result.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
                index += breakLength
                start = index
            }
            while index < count {
                // Every line break starts with a byte below 0x0E or one that is not ASCII.
                index = ClusterStepping.firstControlOrNonASCII(bytes, from: index, limit: count)
                guard index < count else { break }
                let byte = bytes[index]
                if byte >= 0x0A && byte <= 0x0D {
                    cut(byte == 0x0D && index + 1 < count && bytes[index + 1] == 0x0A ? 2 : 1)
                } else if byte == 0xC2 && index + 1 < count && bytes[index + 1] == 0x85 {
                    cut(2)
                } else if byte == 0xE2 && index + 2 < count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9) {
                    cut(3)
                } else {
                    index += 1
                }
            }
            result.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<count]), as: UTF8.self))
            return result
        }
    }

    /// The whole text, paragraphs joined with LF; builds a new string, so ask once per save, not
    /// per key.
    public var text: String { paragraphs.joined(separator: "\n") }
    /// True for no text at all; cheaper than building `text` to ask.
    public var isEmpty: Bool { paragraphs.count == 1 && paragraphs[0].isEmpty }

    /// Whether two states hold the same text with the cursor at the same place.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.line == rhs.line && lhs.column == rhs.column && lhs.paragraphs == rhs.paragraphs
    }

    /// Hashes the text and the cursor, as ``==(_:_:)`` compares them.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(paragraphs)
        hasher.combine(line)
        hasher.combine(column)
    }

    /// The cursor's paragraph and its position there as a string index.
    private var current: String { paragraphs[line] }
    private var cursorIndex: String.Index { Self.index(ofUTF8: offset, in: current) }

    static func index(ofUTF8 offset: Int, in paragraph: String) -> String.Index {
        paragraph.utf8.index(paragraph.startIndex, offsetBy: offset)
    }

    // MARK: editing

    /// Inserts a typed character at the cursor and moves past it; a line break character breaks
    /// the line as ``insertNewline()`` does.
    public mutating func insert(_ character: Character) {
        if character.isNewline { return insertNewline() }
        insert(String(character))
    }

    /// Inserts `string` at the cursor in one step, its line breaks (LF, CRLF, CR) kept as
    /// breaks: a pasted 100 KB line costs one splice, not a shift of the line per character.
    public mutating func insert(_ string: String) {
        guard !string.isEmpty else { return }
        let pieces = Self.paragraphs(of: string)
        let at = cursorIndex
        if pieces.count == 1 {
            // In place: a key typed into a long line moves its tail once and copies nothing else.
            let settled = placeBefore(at), start = offset
            paragraphs[line].insert(contentsOf: pieces[0], at: at)
            settleCursor(nearUTF8: start + pieces[0].utf8.count, countingFrom: settled)
            return textChanged(ParagraphEdit.Span(line: line, start: start, oldEnd: start, newEnd: start + pieces[0].utf8.count))
        }
        let rest = String(current[at...])
        paragraphs[line].removeSubrange(at...)
        paragraphs[line] += pieces[0]
        paragraphs.insert(contentsOf: pieces[1...], at: line + 1)
        line += pieces.count - 1
        let end = paragraphs[line].utf8.count
        paragraphs[line] += rest
        settleCursor(nearUTF8: end, countingFrom: (0, 0))
        textChanged()
    }

    /// Breaks the line at the cursor: the rest of the paragraph becomes a new one, with the cursor
    /// at its start.
    public mutating func insertNewline() {
        let at = cursorIndex
        let rest = String(current[at...])
        paragraphs[line].removeSubrange(at...)
        paragraphs.insert(rest, at: line + 1)
        line += 1
        column = 0
        offset = 0
        textChanged()
    }

    /// Deletes the grapheme cluster before the cursor, or at a line's start joins the line to the
    /// one before: Backspace.
    public mutating func deleteBackward() {
        if offset > 0 {
            let at = cursorIndex
            let before = current.index(before: at)
            let start = current.utf8.distance(from: current.startIndex, to: before)
            let settled = placeBefore(before, column: column - 1), end = offset
            paragraphs[line].removeSubrange(before..<at)
            settleCursor(nearUTF8: start, countingFrom: settled)
            textChanged(ParagraphEdit.Span(line: line, start: start, oldEnd: end, newEnd: start))
        } else if line > 0 {
            let joined = paragraphs.remove(at: line)
            line -= 1
            let end = current.utf8.count
            paragraphs[line] += joined
            settleCursor(nearUTF8: end, countingFrom: (0, 0))
            textChanged()
        }
    }

    /// Deletes the grapheme cluster after the cursor, or at a line's end joins the next line to
    /// it: Delete.
    public mutating func deleteForward() {
        if offset < current.utf8.count {
            let at = cursorIndex, after = current.index(after: at)
            let settled = placeBefore(at), start = offset
            let end = current.utf8.distance(from: current.startIndex, to: after)
            paragraphs[line].removeSubrange(at..<after)
            settleCursor(nearUTF8: start, countingFrom: settled)
            textChanged(ParagraphEdit.Span(line: line, start: start, oldEnd: end, newEnd: start))
        } else if line + 1 < paragraphs.count {
            let settled = placeBefore(cursorIndex)
            paragraphs[line] += paragraphs.remove(at: line + 1)
            settleCursor(nearUTF8: offset, countingFrom: settled)
            textChanged()
        }
    }

    /// Removes from the cursor to the end of the line, or the line break when already there.
    public mutating func killToLineEnd() {
        guard offset < current.utf8.count else { return deleteForward() }
        let settled = placeBefore(cursorIndex), start = offset, end = current.utf8.count
        paragraphs[line].removeSubrange(cursorIndex...)
        settleCursor(nearUTF8: start, countingFrom: settled)
        textChanged(ParagraphEdit.Span(line: line, start: start, oldEnd: end, newEnd: start))
    }

    /// Deletes the word before the cursor (as `WordMotion` defines words, with what is not a word
    /// between it and the cursor), or at a line's start joins the line to the one before: ^W and
    /// Alt-Backspace, as in a one-line field. Only the word is walked and removed in place.
    public mutating func deleteWordBackward() {
        guard offset > 0 else { return deleteBackward() }
        let word = wordStart()
        let end = offset, at = cursorIndex
        let settled = placeBefore(word.index, column: column - word.clusters)
        paragraphs[line].removeSubrange(word.index..<at)
        settleCursor(nearUTF8: word.offset, countingFrom: settled)
        textChanged(ParagraphEdit.Span(line: line, start: word.offset, oldEnd: end, newEnd: word.offset))
    }

    /// A new revision, and what changed to reach it: `span` for an edit inside one paragraph,
    /// nil when paragraphs were split or joined.
    private mutating func textChanged(_ span: ParagraphEdit.Span? = nil) {
        let before = revision
        revision = Revision(origin: revision.origin, count: revision.count + 1)
        lastEdit = span.map { ParagraphEdit(before: before, after: revision, span: $0) }
    }

    /// The cluster boundary before `index` (a boundary of the cursor's paragraph) and its
    /// column, `column` being the column of `index` itself: where the count of an edit made at
    /// `index` may start. Text before a boundary and the scalar just after it decide where the
    /// boundary is, so an edit at `index` leaves the one before it, and its column, as they were.
    private func placeBefore(_ index: String.Index, column indexColumn: Int? = nil) -> (offset: Int, column: Int) {
        let paragraph = current
        guard index > paragraph.startIndex else { return (0, 0) }
        let before = paragraph.index(before: index)
        let atIndex = indexColumn ?? column
        return (paragraph.utf8.distance(from: paragraph.startIndex, to: before), atIndex - 1)
    }

    /// Puts the cursor at the first cluster boundary at or after `target` and counts its
    /// column. An edit can join clusters across the place it was made (an accent typed after a
    /// letter, a letter typed before a lone accent), so the column is counted again rather than
    /// adjusted, from `start`: a boundary before the edit, and its column (`placeBefore`), so a
    /// key typed at the end of a 10 MB line counts a cluster or two, not the line.
    private mutating func settleCursor(nearUTF8 target: Int, countingFrom start: (offset: Int, column: Int)) {
        let settled = ClusterStepping.withBytes(of: current) { text, bytes in
            ClusterStepping.advance(in: text, bytes: bytes, from: (start.offset, start.column), toOffset: target)
        }
        column = settled.clusters
        offset = settled.offset
    }

    // MARK: moving

    /// Moves one grapheme cluster back; from a line's start, to the end of the line before.
    public mutating func moveLeft() {
        if offset > 0 {
            let before = current.index(before: cursorIndex)
            offset = current.utf8.distance(from: current.startIndex, to: before)
            column -= 1
        } else if line > 0 {
            line -= 1
            moveToLineEnd()
        }
    }

    /// Moves one grapheme cluster forward; from a line's end, to the start of the next line.
    public mutating func moveRight() {
        if offset < current.utf8.count {
            let after = current.index(after: cursorIndex)
            offset = current.utf8.distance(from: current.startIndex, to: after)
            column += 1
        } else if line + 1 < paragraphs.count {
            line += 1
            column = 0
            offset = 0
        }
    }

    /// A word back (as `WordMotion` defines words); from a line's start, to the end of the line before.
    public mutating func moveWordLeft() {
        if offset == 0 { return moveLeft() }
        let word = wordStart()
        offset = word.offset
        column -= word.clusters
    }

    /// Where the word before the cursor starts in its paragraph, and how many clusters back.
    /// The paragraph is held only in here, so an edit after it changes the string in place.
    private func wordStart() -> (index: String.Index, offset: Int, clusters: Int) {
        let paragraph = current
        var index = cursorIndex, moved = 0
        while index > paragraph.startIndex && !WordMotion.isWordCharacter(paragraph[paragraph.index(before: index)]) {
            index = paragraph.index(before: index); moved += 1
        }
        while index > paragraph.startIndex && WordMotion.isWordCharacter(paragraph[paragraph.index(before: index)]) {
            index = paragraph.index(before: index); moved += 1
        }
        return (index, paragraph.utf8.distance(from: paragraph.startIndex, to: index), moved)
    }

    /// A word forward; from a line's end, to the start of the next line.
    public mutating func moveWordRight() {
        let paragraph = current
        if offset == paragraph.utf8.count { return moveRight() }
        var index = cursorIndex, moved = 0
        while index < paragraph.endIndex && !WordMotion.isWordCharacter(paragraph[index]) {
            index = paragraph.index(after: index); moved += 1
        }
        while index < paragraph.endIndex && WordMotion.isWordCharacter(paragraph[index]) {
            index = paragraph.index(after: index); moved += 1
        }
        offset = paragraph.utf8.distance(from: paragraph.startIndex, to: index)
        column += moved
    }

    /// Moves to the start of the cursor's paragraph.
    public mutating func moveToLineStart() {
        column = 0
        offset = 0
    }

    /// Moves to the end of the cursor's paragraph.
    public mutating func moveToLineEnd() {
        column = current.count
        offset = current.utf8.count
    }

    /// Moves to a column counted in clusters, clamped to the text.
    public mutating func moveTo(line newLine: Int, column newColumn: Int) {
        line = min(max(0, newLine), paragraphs.count - 1)
        // Plain text a run at a time: a restored 10 MB line is walked to its cursor at launch.
        let place = ClusterStepping.withBytes(of: current) { text, bytes in
            ClusterStepping.advance(in: text, bytes: bytes, from: (0, 0), toOffset: bytes.count, clusterLimit: newColumn)
        }
        column = place.clusters
        offset = place.offset
    }

    /// Moves to a place the caller has already measured (a row of the layout): a UTF-8 offset
    /// on a cluster boundary and its column. Trusted only within the module; clamped all the same.
    mutating func moveTo(line newLine: Int, offset newOffset: Int, column newColumn: Int) {
        line = min(max(0, newLine), paragraphs.count - 1)
        offset = min(max(0, newOffset), current.utf8.count)
        column = max(0, newColumn)
    }
}
