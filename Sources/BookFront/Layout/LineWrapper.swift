import Terminal

/// Word-wraps one block at a width, measuring with `DisplayWidth`.
///
/// Reflow rules (see DECISIONS.md): the lines of a paragraph are joined (a line end and the
/// next line's indentation count as one space) except that
/// - a line indented by two or more spaces or a tab keeps its own line (verse, quotations, code);
/// - a line starting a list item ("- ", "* ", "+ ", "1. ") starts a new line;
/// - a paragraph whose lines are all shorter than `shortLine` characters keeps every break
///   (headings, addresses, flush-left verse).
/// Breaks go after spaces and on either side of a wide (CJK) character; a word wider than the
/// line is broken between grapheme clusters.
struct LineWrapper {
    static let shortLine = 40

    let bytes: UnsafeBufferPointer<UInt8>
    let width: Int

    init(bytes: UnsafeBufferPointer<UInt8>, width: Int) {
        self.bytes = bytes
        self.width = max(1, width)
    }

    func layout(blockFrom start: Int, to end: Int) -> [LaidOutLine] {
        guard start < end else { return [LaidOutLine(range: start..<end, isBlank: true)] }
        let scanner = BlockScanner(bytes: bytes)
        if scanner.isBlankLine(at: start) && isAllSpace(start, end) {
            return [LaidOutLine(range: start..<end, isBlank: true)]
        }
        var lines: [LaidOutLine] = []
        for segment in segments(start, end) { wrap(segment, into: &lines) }
        if lines.isEmpty { lines.append(LaidOutLine(range: start..<end, isBlank: true)) }
        return lines
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
        var characters: Int
        var startsListItem: Bool
    }

    private func sourceLines(_ start: Int, _ end: Int) -> [SourceLine] {
        let scanner = BlockScanner(bytes: bytes)
        var result: [SourceLine] = []
        var position = start
        while position < end {
            let feed = scanner.lineFeed(from: position, limit: end)
            var contentEnd = feed
            while contentEnd > position && BlockScanner.isSpace(bytes[contentEnd - 1]) { contentEnd -= 1 }
            var indent = 0, hasTab = false
            while position + indent < contentEnd, bytes[position + indent] == 0x20 || bytes[position + indent] == 0x09 {
                if bytes[position + indent] == 0x09 { hasTab = true }
                indent += 1
            }
            var characters = 0
            for index in position..<contentEnd where bytes[index] & 0xC0 != 0x80 { characters += 1 }
            if contentEnd > position {
                result.append(SourceLine(start: position, contentEnd: contentEnd, indent: hasTab ? max(indent, 2) : indent,
                                         characters: characters, startsListItem: startsListItem(position + indent, contentEnd)))
            }
            position = feed + 1
        }
        return result
    }

    private func startsListItem(_ start: Int, _ end: Int) -> Bool {
        guard end - start >= 2 else { return false }
        let first = bytes[start]
        if (first == 0x2D || first == 0x2A || first == 0x2B) && bytes[start + 1] == 0x20 { return true }
        var index = start
        while index < end && index - start < 4 && bytes[index] >= 0x30 && bytes[index] <= 0x39 { index += 1 }
        return index > start && index + 1 < end && (bytes[index] == 0x2E || bytes[index] == 0x29) && bytes[index + 1] == 0x20
    }

    private func segments(_ start: Int, _ end: Int) -> [Range<Int>] {
        let lines = sourceLines(start, end)
        let keepsEveryBreak = lines.count >= 2 && lines.allSatisfy { $0.characters < Self.shortLine }
        var result: [Range<Int>] = []
        var previous: SourceLine?
        for line in lines {
            let joins: Bool
            if let previous {
                joins = !keepsEveryBreak && previous.indent < 2 && line.indent < 2 && !line.startsListItem
            } else {
                joins = false
            }
            if joins, let last = result.popLast() {
                result.append(last.lowerBound..<line.contentEnd)
            } else {
                result.append(line.start..<line.contentEnd)
            }
            previous = line
        }
        return result
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
        var index = segment.lowerBound
        let end = segment.upperBound
        // Indentation stays on the first line (unless it would fill it).
        while index < end && (bytes[index] == 0x20 || bytes[index] == 0x09) { index += 1 }
        if index - segment.lowerBound < width / 2 { builder.used = index - segment.lowerBound } else { builder.lineStart = index }
        var gap = 0
        while index < end {
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
        if !builder.lines.isEmpty { builder.lines[builder.lines.count - 1].endsParagraph = true }
        lines += builder.lines
    }

    /// A word with non-ASCII bytes: measured per grapheme cluster, split around wide characters.
    private func placeComplexWord(_ start: Int, _ end: Int, gap: Int, into builder: inout LineBuilder) {
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

    /// The grapheme clusters of bytes[start..<end] as (end offset, display width). Invalid
    /// UTF-8 (shown as U+FFFD) counts one column per code-point start.
    static func clusters(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> [(end: Int, width: Int)] {
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
