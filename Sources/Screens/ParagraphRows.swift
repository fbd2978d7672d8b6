import Terminal

/// One paragraph of the notes editor cut into screen rows, by the Book reader's rule: breaks
/// go after spaces and on either side of a wide (CJK) character, a word moves whole to the
/// next row when it does not fit, and only a word wider than the row is broken, between
/// grapheme clusters.
///
/// Unlike the reader, which swallows the spaces at a break, the editor keeps them at the end
/// of the row they follow (hanging past the width when the row is full): the cursor must be
/// able to sit on every character of a draft. A paragraph whose last row is full gets an empty
/// row after it, where the cursor goes when it sits at the paragraph's end.
///
/// Measured once per paragraph and width: each row keeps its UTF-8 offset and its first
/// cluster's number, so the cursor is found, drawn and moved from its row's start.
struct ParagraphRows: Equatable {
    struct Row: Equatable {
        /// UTF-8 offset of the row's first cluster in the paragraph.
        var offset: Int
        /// The number of that cluster in the paragraph.
        var cluster: Int
    }

    let width: Int
    /// At least one row; the first starts at offset 0.
    let rows: [Row]
    /// The paragraph's length in UTF-8 bytes and in clusters.
    let endOffset: Int
    let endCluster: Int

    /// `readingASCIIAsBytes: false` reads every cluster the slow way, so tests can check the
    /// ASCII shortcut against it.
    init(_ paragraph: String, width: Int, readingASCIIAsBytes: Bool = true) {
        self.init(cutting: paragraph, width: width, after: [], from: Row(offset: 0, cluster: 0), rejoining: nil,
                  readingASCIIAsBytes: readingASCIIAsBytes)
    }

    /// The rows of `paragraph`, which is `oldText` edited, `old` being `oldText`'s rows. The
    /// rows end to end depend only on where they start (a row's layout reads nothing before its
    /// own start, and a row ends within the row after it), so the rows before the edit are kept,
    /// the edited part is cut again from a row start before it, and once a new row starts where
    /// an old one did in the text after the edit, the old rows from there are kept too, moved by
    /// the edit's length: a key typed into a 10 MB line cuts a row or two.
    init(_ paragraph: String, width: Int, updating old: ParagraphRows, of oldText: String) {
        guard old.width == max(1, width) else {
            self.init(paragraph, width: width)
            return
        }
        let (prefix, suffix, oldCount, newCount) = ClusterStepping.withBytes(of: oldText) { _, oldBytes in
            ClusterStepping.withBytes(of: paragraph) { _, newBytes in
                let prefix = CommonBytes.prefix(oldBytes, newBytes)
                let suffix = CommonBytes.suffix(oldBytes, newBytes, limit: min(oldBytes.count, newBytes.count) - prefix)
                return (prefix, suffix, oldBytes.count, newBytes.count)
            }
        }
        if prefix == oldCount && prefix == newCount {
            self = old
            return
        }
        self.init(paragraph, updating: old, keepingFirst: prefix, andLast: suffix, of: oldCount, bytes: newCount)
    }

    /// The rows of `paragraph` after an edit its caller knows: the text's first `prefix` and last
    /// `suffix` bytes are those of the `oldCount` bytes that `old` was cut from (a
    /// `TextEditorState.ParagraphEdit`), so nothing is compared.
    init(_ paragraph: String, updating old: ParagraphRows, keepingFirst prefix: Int, andLast suffix: Int, of oldCount: Int, bytes newCount: Int) {
        // A row before the one the edit begins in may end differently (a word that fits there
        // now), and the scalar the edit begins in may have begun a few bytes earlier.
        let restart = max(0, old.row(containing: max(0, prefix - 4)) - 1)
        let rejoin = Rejoin(old: old, editEnd: newCount - suffix, shift: newCount - oldCount)
        self.init(cutting: paragraph, width: old.width, after: old.rows[..<restart], from: old.rows[restart], rejoining: rejoin,
                  readingASCIIAsBytes: true)
    }

    /// Where an edit ends and the old rows after it, to take up again.
    private struct Rejoin {
        let old: ParagraphRows
        /// The new text's UTF-8 offset where the edited bytes end.
        let editEnd: Int
        /// New offsets minus old ones past the edit.
        let shift: Int

        /// The old row starting where the new row `row` starts, when that is past the edit.
        func oldRow(matching row: Row) -> Int? {
            guard row.offset >= editEnd else { return nil }
            let index = old.row(containing: row.offset - shift)
            return old.rows[index].offset == row.offset - shift ? index : nil
        }
    }

    /// Cuts `paragraph` into rows from `start` (a row start), after the rows `kept` before it.
    private init(cutting paragraph: String, width: Int, after kept: ArraySlice<Row>, from start: Row, rejoining rejoin: Rejoin?,
                 readingASCIIAsBytes: Bool) {
        var cutter = RowCutter(width: max(1, width), start: start)
        var rejoined: (tail: ArraySlice<Row>, bytes: Int, clusters: Int)?
        ClusterStepping.withBytes(of: paragraph) { text, bytes in
            var offset = start.offset
            var rowsSeen = cutter.rows.count
            while offset < bytes.count {
                // A run is taken a few rows at a time, so a rejoin is noticed soon after it can be
                // (once a new row starts where an old one did, every later one does).
                let run = readingASCIIAsBytes ? ClusterStepping.loneASCIIRunEnd(bytes, from: offset, limit: offset + 1024) : offset
                if run > offset {
                    cutter.takeASCII(bytes, from: offset, to: run)
                    offset = run
                } else {
                    let character = ClusterStepping.cluster(at: offset, in: text)
                    let length = character.utf8.count
                    cutter.take(length: length, width: DisplayWidth.of(character), isSpace: Self.isSpace(character))
                    offset += length
                }
                if let rejoin, cutter.rows.count != rowsSeen {
                    rowsSeen = cutter.rows.count
                    let newest = cutter.rows[rowsSeen - 1]
                    if let match = rejoin.oldRow(matching: newest) {
                        rejoined = (rejoin.old.rows[(match + 1)...], rejoin.shift, newest.cluster - rejoin.old.rows[match].cluster)
                        return
                    }
                }
            }
            cutter.finish()
        }
        self.width = cutter.width
        if let rejoined, let old = rejoin?.old {
            var rows = Array(kept)
            rows.reserveCapacity(kept.count + cutter.rows.count + rejoined.tail.count)
            rows += cutter.rows
            for row in rejoined.tail { rows.append(Row(offset: row.offset + rejoined.bytes, cluster: row.cluster + rejoined.clusters)) }
            self.rows = rows
            endOffset = old.endOffset + rejoined.bytes
            endCluster = old.endCluster + rejoined.clusters
        } else {
            self.rows = kept.isEmpty ? cutter.rows : Array(kept) + cutter.rows
            endOffset = cutter.offset
            endCluster = cutter.cluster
        }
    }

    /// Cuts a paragraph into rows as its clusters are read one by one.
    private struct RowCutter {
        let width: Int
        var rows: [Row]
        var used = 0
        // Whether the current row holds a word or a wide character yet (indentation is not one).
        var rowHasPiece = false
        // Where the word being read starts, the columns used on its row before it, and whether
        // a piece came before it on that row (only then can it move to a new row).
        var word: (row: Row, usedBefore: Int, movable: Bool)?
        var offset: Int, cluster: Int

        /// A cutter whose first row starts at `start`.
        init(width: Int, start: Row) {
            self.width = width
            rows = [start]
            offset = start.offset
            cluster = start.cluster
        }

        /// Reads `bytes[from..<to]`, each a cluster of one column on its own: runs of spaces and
        /// of word characters are taken whole where they fit on the row, as `take` would take
        /// them one by one.
        mutating func takeASCII(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) {
            var index = from
            while index < to {
                let isSpaceRun = Self.isSpace(bytes[index])
                var end = isSpaceRun ? index + 1 : Self.firstSpace(bytes, from: index + 1, to: to)
                while isSpaceRun && end < to && Self.isSpace(bytes[end]) { end += 1 }
                let count = end - index
                if isSpaceRun {
                    word = nil
                    if used < width { used = min(width, used + count) }
                    offset += count
                    cluster += count
                } else {
                    var remaining = count
                    while remaining > 0 {
                        take(length: 1, width: 1, isSpace: false)
                        remaining -= 1
                        let fits = min(remaining, max(0, width - used))
                        used += fits
                        offset += fits
                        cluster += fits
                        remaining -= fits
                    }
                }
                index = end
            }
        }

        @inline(__always) static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

        /// The first space or tab from `from` (before `to`), or `to`.
        static func firstSpace(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int {
            ByteScan.first(in: bytes, from: from, limit: to, wordMayHold: { ByteScan.hasByte(0x20, in: $0) || ByteScan.hasByte(0x09, in: $0) },
                           matches: isSpace)
        }

        /// Reads the next cluster: `length` UTF-8 bytes taking `w` columns.
        mutating func take(length: Int, width w: Int, isSpace: Bool) {
            defer { offset += length; cluster += 1 }
            let here = Row(offset: offset, cluster: cluster)
            if isSpace {
                word = nil
                // A space that does not fit hangs at the end of its row.
                if used < width { used += 1 }
                return
            }
            if w == 2 {
                // A wide character is a piece of its own: a break may come before and after it.
                word = nil
                if used + w > width && here != rows[rows.count - 1] {
                    rows.append(here)
                    used = 0
                }
                used += w
                rowHasPiece = true
                return
            }
            if word == nil { word = (here, used, rowHasPiece) }
            if used + w > width, let start = word {
                if start.movable {
                    // The word moves whole to a new row...
                    rows.append(start.row)
                    used -= start.usedBefore
                    word = (start.row, 0, false)
                }
                if used + w > width && here != rows[rows.count - 1] {
                    // ...and is broken only when it is wider than a row.
                    rows.append(here)
                    used = 0
                    word = (here, 0, false)
                }
            }
            used += w
            rowHasPiece = true
        }

        /// A paragraph whose last row is full gets an empty row for the cursor at its end.
        mutating func finish() {
            if used >= width && offset > 0 { rows.append(Row(offset: offset, cluster: cluster)) }
        }
    }

    static func isSpace(_ character: Character) -> Bool { character == " " || character == "\t" }

    var count: Int { rows.count }

    /// Where row `index` ends: the next row's start, or the paragraph's end.
    func end(ofRow index: Int) -> Row {
        index + 1 < rows.count ? rows[index + 1] : Row(offset: endOffset, cluster: endCluster)
    }

    /// The row holding UTF-8 offset `offset`: the last row starting at or before it, so a
    /// cursor at a break sits at the start of the next row.
    func row(containing offset: Int) -> Int {
        var low = 0, high = rows.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if rows[middle].offset <= offset { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The text of row `index`, cut from `paragraph` (the string these rows were made from).
    func text(ofRow index: Int, in paragraph: String) -> Substring {
        let start = TextEditorState.index(ofUTF8: rows[index].offset, in: paragraph)
        let end = TextEditorState.index(ofUTF8: end(ofRow: index).offset, in: paragraph)
        return paragraph[start..<end]
    }

    /// Columns from the start of row `index` to UTF-8 offset `offset` within it.
    func x(of offset: Int, inRow index: Int, of paragraph: String) -> Int {
        let start = TextEditorState.index(ofUTF8: rows[index].offset, in: paragraph)
        let end = TextEditorState.index(ofUTF8: max(rows[index].offset, offset), in: paragraph)
        return DisplayWidth.of(paragraph[start..<end])
    }

    /// The place in row `index` nearest to column `x` (left of a wide character `x` falls in),
    /// as a UTF-8 offset and a cluster number. The end of a row that continues on the next is
    /// the next row's start, so a place there is taken one cluster earlier.
    func place(atX x: Int, inRow index: Int, of paragraph: String) -> Row {
        let start = rows[index], end = end(ofRow: index)
        var used = 0
        var position = start
        var characterIndex = TextEditorState.index(ofUTF8: start.offset, in: paragraph)
        while position.offset < end.offset {
            let character = paragraph[characterIndex]
            let w = DisplayWidth.of(character)
            if used + w > x { return position }
            used += w
            let length = character.utf8.count
            characterIndex = paragraph.utf8.index(characterIndex, offsetBy: length)
            let next = Row(offset: position.offset + length, cluster: position.cluster + 1)
            if next.offset == end.offset && index + 1 < rows.count { return position }
            position = next
        }
        return position
    }
}
