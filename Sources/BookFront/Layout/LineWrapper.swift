import Terminal

/// Word-wraps one block at a width, measuring with `DisplayWidth`.
///
/// Reflow rules (see DECISIONS.md): the lines of a paragraph are joined (a line end and the
/// next line's indentation count as one space) except that
/// - a line indented by two or more spaces or a tab keeps its own line (verse, quotations, code),
///   unless it is the first line of its paragraph and the lines after it are flush: that is a
///   paragraph indent, as in most plain-text books;
/// - a line starting a list item ("- ", "* ", "+ ", "1. ") starts a new line;
/// - a paragraph whose lines are all shorter than `shortLine` characters keeps every break
///   (headings, addresses, flush-left verse).
/// Breaks go after spaces and on either side of a wide (CJK) character; a word wider than the
/// line is broken between grapheme clusters.
struct LineWrapper {
    static let shortLine = 40

    let bytes: UnsafeBufferPointer<UInt8>
    let width: Int
    /// Whether whole ASCII lines are measured in one sweep (`fastLine`); the word-by-word path
    /// gives the same lines, and tests compare the two.
    let usesFastPath: Bool

    init(bytes: UnsafeBufferPointer<UInt8>, width: Int, usesFastPath: Bool = true) {
        self.bytes = bytes
        self.width = max(1, width)
        self.usesFastPath = usesFastPath
    }

    func layout(blockFrom start: Int, to end: Int) -> [LaidOutLine] {
        var lines: [LaidOutLine] = []
        layout(blockFrom: start, to: end, into: &lines)
        return lines
    }

    /// Appends the block's lines to `lines` (a whole-book pass reuses one array).
    func layout(blockFrom start: Int, to end: Int, into lines: inout [LaidOutLine]) {
        guard start < end else { lines.append(LaidOutLine(range: start..<end, isBlank: true)); return }
        let scanner = BlockScanner(bytes: bytes)
        if scanner.isBlankLine(at: start) && isAllSpace(start, end) {
            lines.append(LaidOutLine(range: start..<end, isBlank: true))
            return
        }
        let before = lines.count
        forEachSegment(start, end) { wrap($0, into: &lines) }
        if lines.count == before { lines.append(LaidOutLine(range: start..<end, isBlank: true)) }
    }

    private func isAllSpace(_ start: Int, _ end: Int) -> Bool {
        for index in start..<end where !BlockScanner.isSpace(bytes[index]) { return false }
        return true
    }

    // MARK: segments: runs of source lines that are joined

    private struct SourceLine {
        var start: Int
        var contentEnd: Int  // before trailing white space and the line end
        var indent: Int
        var startsListItem: Bool
    }

    /// Whether a line has fewer than `shortLine` characters (counted only when the byte
    /// length leaves it open: most lines of prose are decided by their length alone).
    private func isShort(_ line: SourceLine) -> Bool {
        let length = line.contentEnd - line.start
        if length < Self.shortLine { return true }
        if length >= Self.shortLine * 4 { return false }
        var characters = 0
        for index in line.start..<line.contentEnd where bytes[index] & 0xC0 != 0x80 { characters += 1 }
        return characters < Self.shortLine
    }

    /// The source line starting at `position` (nil for an empty or blank one) and where the next starts.
    @inline(__always)
    private func sourceLine(at position: Int, end: Int) -> (line: SourceLine?, next: Int) {
        let feed = BlockScanner(bytes: bytes).lineFeed(from: position, limit: end)
        var contentEnd = feed
        while contentEnd > position && BlockScanner.isSpace(bytes[contentEnd - 1]) { contentEnd -= 1 }
        guard contentEnd > position else { return (nil, feed + 1) }
        var indent = 0, hasTab = false
        while position + indent < contentEnd, bytes[position + indent] == 0x20 || bytes[position + indent] == 0x09 {
            if bytes[position + indent] == 0x09 { hasTab = true }
            indent += 1
        }
        return (SourceLine(start: position, contentEnd: contentEnd, indent: hasTab ? max(indent, 2) : indent,
                           startsListItem: startsListItem(position + indent, contentEnd)), feed + 1)
    }

    private func startsListItem(_ start: Int, _ end: Int) -> Bool {
        guard end - start >= 2 else { return false }
        let first = bytes[start]
        if (first == 0x2D || first == 0x2A || first == 0x2B) && bytes[start + 1] == 0x20 { return true }
        var index = start
        while index < end && index - start < 4 && bytes[index] >= 0x30 && bytes[index] <= 0x39 { index += 1 }
        return index > start && index + 1 < end && (bytes[index] == 0x2E || bytes[index] == 0x29) && bytes[index + 1] == 0x20
    }

    /// Calls `body` with each run of joined source lines, in order, without building arrays.
    private func forEachSegment(_ start: Int, _ end: Int, _ body: (Range<Int>) -> Void) {
        // Whether every line is short (and there are two or more): decided by the first long one.
        var lineCount = 0, allShort = true
        var position = start
        while position < end && allShort {
            let (line, next) = sourceLine(at: position, end: end)
            if let line { lineCount += 1; allShort = isShort(line) }
            position = next
        }
        let keepsEveryBreak = allShort && lineCount >= 2
        var current: Range<Int>?
        var previous: SourceLine?
        var firstLineStart: Int?
        position = start
        while position < end {
            let (found, next) = sourceLine(at: position, end: end)
            position = next
            guard let line = found else { continue }
            if firstLineStart == nil { firstLineStart = line.start }
            // An indented first line followed by flush lines is a paragraph's indent, not verse.
            let previousMayContinue = previous.map { $0.indent < 2 || $0.start == firstLineStart } ?? false
            if previous != nil, let open = current, !keepsEveryBreak, previousMayContinue, line.indent < 2, !line.startsListItem {
                current = open.lowerBound..<line.contentEnd
            } else {
                if let open = current { body(open) }
                current = line.start..<line.contentEnd
            }
            previous = line
        }
        if let open = current { body(open) }
    }

    // MARK: greedy wrapping of one segment

    private struct LineBuilder {
        let width: Int
        var lines: [LaidOutLine]
        var lineStart: Int
        var used = 0
        var lastWordEnd: Int
        var hasWord = false

        mutating func emit(upTo end: Int, nextStart: Int) {
            lines.append(LaidOutLine(range: lineStart..<end))
            lineStart = nextStart
            used = 0
            hasWord = false
            lastWordEnd = nextStart
        }

        /// Places a piece of text that may go on this line after `gap` columns of space.
        /// `clusters` splits it when it is wider than a line: (end offset, width) per cluster.
        mutating func place(_ start: Int, _ end: Int, width pieceWidth: Int, gap: Int, clusters: () -> [(end: Int, width: Int)]) {
            if hasWord {
                if used + gap + pieceWidth <= width {
                    used += gap + pieceWidth
                    lastWordEnd = end
                    return
                }
                emit(upTo: lastWordEnd, nextStart: start)
            }
            if used + pieceWidth <= width {
                used += pieceWidth
                lastWordEnd = end
                hasWord = true
                return
            }
            // Wider than what is left of an empty line: break between clusters.
            for cluster in clusters() {
                if used + cluster.width > width && (hasWord || used > 0) {
                    emit(upTo: lastWordEnd, nextStart: lastWordEnd)
                }
                used += cluster.width
                lastWordEnd = cluster.end
                hasWord = true
            }
        }
    }

    private func wrap(_ segment: Range<Int>, into lines: inout [LaidOutLine]) {
        var builder = LineBuilder(width: width, lines: [], lineStart: segment.lowerBound, lastWordEnd: segment.lowerBound)
        swap(&builder.lines, &lines)
        let firstNew = builder.lines.count
        defer { swap(&builder.lines, &lines) }
        var index = segment.lowerBound
        let end = segment.upperBound
        // Indentation stays on the first line (unless it would fill it).
        while index < end && (bytes[index] == 0x20 || bytes[index] == 0x09) { index += 1 }
        if index - segment.lowerBound < width / 2 { builder.used = index - segment.lowerBound } else { builder.lineStart = index }
        var gap = 0
        var fastPathTriedAt = -1
        while index < end {
            // A fresh line starting with a word: try to measure it in one sweep.
            if usesFastPath, builder.lineStart != fastPathTriedAt, !BlockScanner.isSpace(bytes[builder.lineStart]) {
                fastPathTriedAt = builder.lineStart
                switch fastLine(from: builder.lineStart, end: end) {
                case .rest:
                    builder.used = 1  // not read again: only marks the line as holding text
                    builder.hasWord = true
                    builder.lastWordEnd = end
                    index = end
                    continue
                case .line(let lineEnd, let next):
                    builder.lineStart = fastPathTriedAt
                    builder.emit(upTo: lineEnd, nextStart: next)
                    index = next
                    gap = 0
                    continue
                case nil:
                    break
                }
            }
            let byte = bytes[index]
            if BlockScanner.isSpace(byte) {
                let gapStart = index
                var sawNewline = false
                while index < end && BlockScanner.isSpace(bytes[index]) {
                    if BlockScanner.isNewline(bytes[index]) { sawNewline = true }
                    index += 1
                }
                gap = sawNewline ? 1 : index - gapStart
                continue
            }
            let wordStart = index
            while index < end && bytes[index] > 0x20 && bytes[index] < 0x7F { index += 1 }
            if index < end && bytes[index] >= 0x80 {
                while index < end && !BlockScanner.isSpace(bytes[index]) { index += 1 }
                placeComplexWord(wordStart, index, gap: gap, into: &builder)
            } else {
                let start = wordStart
                builder.place(start, index, width: index - start, gap: gap) {
                    (start..<index).map { (end: $0 + 1, width: 1) }
                }
            }
            gap = 0
        }
        if builder.hasWord || builder.used > 0 { builder.emit(upTo: builder.lastWordEnd, nextStart: end) }
        if builder.lines.count > firstNew { builder.lines[builder.lines.count - 1].endsParagraph = true }
    }

    enum FastLine: Equatable {
        /// Everything up to the segment's end fits on the line.
        case rest
        /// The line ends at `end` (its last word's end) and the next starts at `next`.
        case line(end: Int, next: Int)
    }

    /// Measures a line starting at the word at `start` in one forward sweep (eight ASCII bytes
    /// at a time where it can) and one short step back to the last break, with the same
    /// rules as the word-by-word path: a space is a column, a run of white space holding a line
    /// end is one column, a word that does not fit goes to the next line. Nil when the line
    /// holds a non-ASCII byte or a word longer than the line: the word path handles those.
    func fastLine(from start: Int, end: Int) -> FastLine? {
        guard let base = bytes.baseAddress else { return nil }
        let raw = UnsafeRawPointer(base)
        var index = start, columns = 0
        while index < end {
            if index + 8 <= end && columns + 8 <= width {
                let chunk = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                let below = (chunk &- 0x2020_2020_2020_2020) & ~chunk & 0x8080_8080_8080_8080
                let above = ((chunk &+ 0x0101_0101_0101_0101) | chunk) & 0x8080_8080_8080_8080
                let offending = below | above
                if offending == 0 {
                    columns += 8
                    index += 8
                    continue
                }
                // Take the plain bytes before the first other one (the lowest flagged byte is
                // exact; flags after it may be carries), then handle that one below.
                let plain = offending.trailingZeroBitCount / 8
                columns += plain
                index += plain
            }
            let byte = bytes[index]
            if byte >= 0x80 {
                guard let scalar = Self.simpleScalar(bytes, index, end) else { return nil }
                if columns + scalar.width > width { break }
                columns += scalar.width
                index += scalar.length
                continue
            }
            if byte > 0x20 && byte < 0x7F {
                if columns + 1 > width { break }
                columns += 1
                index += 1
                continue
            }
            // Other white space (a line end, a tab): the whole run, including the spaces just
            // counted before it, is one gap.
            var runStart = index
            while runStart > start && bytes[runStart - 1] == 0x20 { runStart -= 1 }
            columns -= index - runStart
            var runEnd = index, sawNewline = false
            while runEnd < end && BlockScanner.isSpace(bytes[runEnd]) {
                if BlockScanner.isNewline(bytes[runEnd]) { sawNewline = true }
                runEnd += 1
            }
            columns += sawNewline ? 1 : runEnd - runStart
            index = runEnd
        }
        if index >= end { return .rest }
        // The piece holding `index` does not fit: the line ends before the gap (or the wide
        // character) in front of it. A wide character is a piece of its own.
        var pieceStart = index
        if !isWide(at: index, end: end) {
            while pieceStart > start {
                var previous = pieceStart - 1
                while previous > start && bytes[previous] & 0xC0 == 0x80 { previous -= 1 }
                if BlockScanner.isSpace(bytes[previous]) || isWide(at: previous, end: end) { break }
                pieceStart = previous
            }
        }
        guard pieceStart > start else { return nil }
        var lineEnd = pieceStart
        while lineEnd > start && BlockScanner.isSpace(bytes[lineEnd - 1]) { lineEnd -= 1 }
        return .line(end: lineEnd, next: pieceStart)
    }

    private func isWide(at index: Int, end: Int) -> Bool {
        bytes[index] >= 0x80 && Self.simpleScalar(bytes, index, end)?.width == 2
    }

    /// `placeComplexWord` for words whose scalars all have a known width and stand alone
    /// (see `simpleScalar`), without building cluster arrays. False (nothing placed) otherwise.
    private func placeSimpleWord(_ start: Int, _ end: Int, gap: Int, into builder: inout LineBuilder) -> Bool {
        var index = start
        while index < end {
            guard let scalar = Self.simpleScalar(bytes, index, end) else { return false }
            index += scalar.length
        }
        let bytes = self.bytes
        var pieceStart = start, pieceWidth = 0, index2 = start, gap = gap
        func flush(upTo end: Int) {
            guard end > pieceStart else { return }
            let from = pieceStart
            builder.place(from, end, width: pieceWidth, gap: gap) { Self.simpleClusters(bytes, from, end) ?? [] }
            pieceStart = end
            pieceWidth = 0
            gap = 0
        }
        while index2 < end {
            let scalar = Self.simpleScalar(bytes, index2, end)!
            if scalar.width == 2 {
                flush(upTo: index2)
                pieceWidth = 2
                flush(upTo: index2 + scalar.length)
            } else {
                pieceWidth += scalar.width
            }
            index2 += scalar.length
        }
        flush(upTo: end)
        return true
    }

    /// One scalar at `index` when it is valid UTF-8, a grapheme cluster of its own (if what
    /// follows is too) and of a width known without asking Unicode per character: Latin-1
    /// letters, general punctuation, kana, CJK ideographs, fullwidth forms, pictographs.
    /// Nil for anything else (combining marks, joiners, variation selectors, skin tones,
    /// other scripts), which goes through `DisplayWidth` per Character.
    @inline(__always)
    static func simpleScalar(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int, _ end: Int) -> (width: Int, length: Int)? {
        let lead = bytes[index]
        let scalar: UInt32, length: Int
        if lead < 0x80 {
            scalar = UInt32(lead); length = 1
        } else if lead & 0xE0 == 0xC0, index + 1 < end, bytes[index + 1] & 0xC0 == 0x80 {
            scalar = UInt32(lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F); length = 2
            if scalar < 0x80 { return nil }  // overlong
        } else if lead & 0xF0 == 0xE0, index + 2 < end, bytes[index + 1] & 0xC0 == 0x80, bytes[index + 2] & 0xC0 == 0x80 {
            scalar = UInt32(lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F); length = 3
            if scalar < 0x800 { return nil }  // overlong
        } else if lead & 0xF8 == 0xF0, index + 3 < end, bytes[index + 1] & 0xC0 == 0x80, bytes[index + 2] & 0xC0 == 0x80,
                  bytes[index + 3] & 0xC0 == 0x80 {
            // Pictographs (not the skin-tone modifiers, which join the emoji before them):
            // two columns when they default to emoji presentation, as DisplayWidth says.
            let value = UInt32(lead & 0x07) << 18 | UInt32(bytes[index + 1] & 0x3F) << 12 | UInt32(bytes[index + 2] & 0x3F) << 6
                | UInt32(bytes[index + 3] & 0x3F)
            guard (0x1F300...0x1FAFF).contains(value), !(0x1F3FB...0x1F3FF).contains(value) else { return nil }
            return (Int(pictographWidths[Int(value - 0x1F300)]), 4)
        } else {
            return nil
        }
        switch scalar {
        case 0x21...0x7E, 0xA0...0x2FF, 0x2010...0x2027, 0x2030...0x205E: return (1, length)
        case 0x3000...0x3029, 0x3041...0x3096, 0x30A1...0x30FA, 0x4E00...0x9FFF, 0xFF01...0xFF60: return (2, length)
        default: return nil
        }
    }

    /// A word with non-ASCII bytes: measured per grapheme cluster, split around wide characters.
    private func placeComplexWord(_ start: Int, _ end: Int, gap: Int, into builder: inout LineBuilder) {
        if placeSimpleWord(start, end, gap: gap, into: &builder) { return }
        var clusters = Self.clusters(bytes, start, end)
        if clusters.isEmpty { return }
        var pieceStart = start
        var gap = gap
        var piece: [(end: Int, width: Int)] = []
        func flush() {
            guard !piece.isEmpty else { return }
            let taken = piece
            builder.place(pieceStart, taken[taken.count - 1].end, width: taken.reduce(0) { $0 + $1.width }, gap: gap) { taken }
            pieceStart = taken[taken.count - 1].end
            gap = 0
            piece = []
        }
        for cluster in clusters {
            if cluster.width == 2 {
                flush()
                piece = [cluster]
                flush()
            } else {
                piece.append(cluster)
            }
        }
        flush()
        clusters.removeAll()
    }

    /// The fast path for the common case: valid UTF-8 whose every scalar is a cluster of its
    /// own with a width known without Unicode tables (Latin-1 letters, general punctuation,
    /// kana, CJK ideographs, fullwidth forms). Anything else — combining marks, emoji, joiners,
    /// other scripts — returns nil and goes through `DisplayWidth` per Character.
    static func simpleClusters(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> [(end: Int, width: Int)]? {
        var result: [(end: Int, width: Int)] = []
        var index = start
        while index < end {
            guard let scalar = simpleScalar(bytes, index, end) else { return nil }
            index += scalar.length
            result.append((end: index, width: scalar.width))
        }
        return result
    }

    /// The grapheme clusters of bytes[start..<end] as (end offset, display width). Invalid
    /// UTF-8 (shown as U+FFFD) counts one column per code-point start.
    static func clusters(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> [(end: Int, width: Int)] {
        if let simple = simpleClusters(bytes, start, end) { return simple }
        let slice = UnsafeBufferPointer(rebasing: bytes[start..<end])
        let text = String(decoding: slice, as: UTF8.self)
        var result: [(end: Int, width: Int)] = []
        if text.utf8.count == end - start {
            var offset = start
            for character in text {
                offset += character.utf8.count
                result.append((end: offset, width: DisplayWidth.of(character)))
            }
        } else {
            for index in start..<end where bytes[index] & 0xC0 != 0x80 {
                if !result.isEmpty { result[result.count - 1].end = index }
                result.append((end: end, width: 1))
            }
        }
        return result
    }
}

/// Widths of U+1F300…U+1FAFF as `DisplayWidth` gives them (two for emoji presentation), made
/// once: looking the property up per character was a tenth of wrapping an emoji-rich text.
private let pictographWidths: [UInt8] = (0x1F300...0x1FAFF).map { value in
    Unicode.Scalar(UInt32(value)).map { UInt8(DisplayWidth.of(Character($0))) } ?? 1
}
