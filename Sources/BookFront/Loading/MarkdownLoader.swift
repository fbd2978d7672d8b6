import FoundationEssentials

/// Opens a Markdown book: headings (`#` … `######`, and underlined `===`/`---`) become chapters,
/// `*em*`, `_em_`, `**strong**`, `__strong__` become emphasis ranges with their markers removed,
/// links keep their text, code keeps its text as written. The text is rebuilt in memory, with
/// LF line breaks; hard-wrapped lines stay as they are for the reader to re-join.
///
/// Works on UTF-8 bytes (every marker is ASCII), so a 10 MB file costs tens of milliseconds, and
/// nothing in it is quadratic: a paragraph of unmatched brackets or backticks is linear too.
/// Invalid UTF-8 passes through as it is and is shown with replacement characters.
enum MarkdownLoader {
    static func load(path: String, source: BookText) -> BookDocument {
        let invalid = source.withBytes { UTF8Check.invalidSequences(in: $0) }
        var builder = MarkdownBuilder()
        source.withBytes { builder.add(source: $0) }
        let text = BookText(bytes: Data(builder.output))
        var notes: [String] = []
        if invalid > 0 { notes.append(BookLoader.replacementNote(invalid)) }
        let title = builder.chapters.first(where: { $0.level == 0 })?.title ?? builder.chapters.first?.title ?? BookLoader.fileTitle(path)
        return BookDocument(id: ContentHash.id(of: builder.output), title: title, path: path, format: .markdown,
                            text: text, chapters: builder.chapters, emphasis: builder.emphasis, notes: notes)
    }
}

/// Block structure: paragraphs, headings, fenced code, blank lines.
struct MarkdownBuilder {
    private(set) var output: [UInt8] = []
    private(set) var chapters: [BookChapter] = []
    private(set) var emphasis: [TextEmphasis] = []
    private var paragraph: [UInt8] = []
    private var paragraphLines = 0
    private var fence: [UInt8]?
    private var lastLineWasBlank = true

    mutating func add(source: UnsafeRawBufferPointer) {
        var lines = LineScanner(bytes: source)
        while let line = lines.next() {
            var end = line.end
            if end > line.start, source[end - 1] == 0x0A { end -= 1 }
            if end > line.start, source[end - 1] == 0x0D { end -= 1 }
            add(line: source[line.start..<end], trimmed: line.trimmed)
        }
        flushParagraph()
        // Blank lines at the end say nothing: the text ends with one line break.
        while output.count > 1, output[output.count - 1] == 0x0A, output[output.count - 2] == 0x0A { output.removeLast() }
    }

    private mutating func add(line: Slice<UnsafeRawBufferPointer>, trimmed: UnsafeRawBufferPointer) {
        if let open = fence {
            if trimmed.starts(with: open) { fence = nil } else { emit(Array(line)) }
            return
        }
        if trimmed.starts(with: Array("```".utf8)) || trimmed.starts(with: Array("~~~".utf8)) {
            flushParagraph()
            fence = Array(trimmed.prefix(3))
            return
        }
        if trimmed.isEmpty {
            flushParagraph()
            if !lastLineWasBlank, !output.isEmpty { output.append(0x0A) }
            lastLineWasBlank = true
            return
        }
        if trimmed.first == UInt8(ascii: "#"), let (level, title) = Self.atxHeading(Array(line)) {
            flushParagraph()
            heading(title, level: level)
            return
        }
        if paragraphLines == 1, let level = Self.setextLevel(trimmed) {
            let title = Array(paragraph.drop(while: Self.isBlank).reversed().drop(while: Self.isBlank).reversed())
            paragraph = []
            paragraphLines = 0
            heading(title, level: level)
            return
        }
        if paragraphLines > 0 { paragraph.append(0x0A) }
        paragraph.append(contentsOf: line)
        paragraphLines += 1
    }

    private mutating func heading(_ source: [UInt8], level: Int) {
        let start = output.count
        let inline = MarkdownInline.render(source)
        emit(inline, at: start)
        let end = start + inline.bytes.count
        if end > start { emphasis.append(TextEmphasis(range: start..<end, kind: .heading)) }
        let title = String(decoding: inline.bytes, as: UTF8.self)
        chapters.append(BookChapter(title: title.isEmpty ? "Untitled" : title, offset: start, level: level - 1))
    }

    private mutating func flushParagraph() {
        guard paragraphLines > 0 else { return }
        let inline = MarkdownInline.render(paragraph)
        paragraph = []
        paragraphLines = 0
        emit(inline, at: output.count)
    }

    private mutating func emit(_ inline: MarkdownInline.Rendered, at start: Int) {
        output.append(contentsOf: inline.bytes)
        output.append(0x0A)
        emphasis.append(contentsOf: inline.spans.map { TextEmphasis(range: ($0.range.lowerBound + start)..<($0.range.upperBound + start), kind: $0.kind) })
        lastLineWasBlank = false
    }

    private mutating func emit(_ line: [UInt8]) {
        output.append(contentsOf: line)
        output.append(0x0A)
        lastLineWasBlank = false
    }

    static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// "## Title ##" → (2, "Title").
    static func atxHeading(_ line: [UInt8]) -> (Int, [UInt8])? {
        let indent = line.prefix(while: { $0 == 0x20 }).count
        guard indent <= 3 else { return nil }
        let rest = line.dropFirst(indent)
        let level = rest.prefix(while: { $0 == UInt8(ascii: "#") }).count
        guard (1...6).contains(level) else { return nil }
        var title = rest.dropFirst(level)
        guard title.isEmpty || isBlank(title.first!) else { return nil }  // "#hashtag"
        title = title.drop(while: isBlank)
        while let last = title.last, isBlank(last) { title = title.dropLast() }
        // A closing run of #s is decoration.
        let closing = title.reversed().prefix(while: { $0 == UInt8(ascii: "#") }).count
        if closing > 0, closing == title.count || isBlank(title.dropLast(closing).last!) {
            title = title.dropLast(closing)
            while let last = title.last, isBlank(last) { title = title.dropLast() }
        }
        return (level, Array(title))
    }

    static func setextLevel(_ trimmed: UnsafeRawBufferPointer) -> Int? {
        guard trimmed.count >= 2 else { return nil }
        if trimmed.allSatisfy({ $0 == UInt8(ascii: "=") }) { return 1 }
        if trimmed.allSatisfy({ $0 == UInt8(ascii: "-") }) { return 2 }
        return nil
    }
}

/// Inline Markdown: emphasis delimiters matched the CommonMark way, simplified: a run of one,
/// two or three `*` or `_` opens when followed by a non-blank and closes when preceded by one;
/// `_` inside a word (snake_case) does neither; an opener pairs with the nearest earlier run of
/// the same marker and length; anything unpaired stays as written.
enum MarkdownInline {
    struct Rendered {
        var bytes: [UInt8]
        var spans: [(range: Range<Int>, kind: TextEmphasis.Kind)]
    }

    private enum Piece {
        case text(Range<Int>)
        case literal([UInt8])
        case delimiter(marker: UInt8, count: Int, canOpen: Bool, canClose: Bool)
    }

    private static let star = UInt8(ascii: "*"), underscore = UInt8(ascii: "_"), backtick = UInt8(ascii: "`")
    private static let backslash = UInt8(ascii: "\\"), bang = UInt8(ascii: "!")
    private static let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")
    private static let openParen = UInt8(ascii: "("), closeParen = UInt8(ascii: ")")

    static func render(_ source: [UInt8]) -> Rendered {
        let pieces = tokenize(source)
        let pairs = match(pieces)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(source.count)
        var openedAt: [Int: Int] = [:]
        var spans: [(range: Range<Int>, kind: TextEmphasis.Kind)] = []
        for (index, piece) in pieces.enumerated() {
            switch piece {
            case .text(let range):
                bytes.append(contentsOf: source[range])
            case .literal(let literal):
                bytes.append(contentsOf: literal)
            case .delimiter(let marker, let count, _, _):
                if let closer = pairs[index] {
                    openedAt[closer] = bytes.count
                } else if let start = openedAt[index] {
                    let range = start..<bytes.count
                    if !range.isEmpty {
                        if count >= 2 { spans.append((range, .strong)) }
                        if count != 2 { spans.append((range, .emphasis)) }
                    }
                } else {
                    bytes.append(contentsOf: repeatElement(marker, count: count))
                }
            }
        }
        spans.sort { $0.range.lowerBound < $1.range.lowerBound }
        return Rendered(bytes: bytes, spans: spans)
    }

    /// Opener index → closer index for every pair.
    private static func match(_ pieces: [Piece]) -> [Int: Int] {
        var pairs: [Int: Int] = [:]
        // One stack per marker and run length: a closer only ever looks at its own kind.
        var stacks: [Int: [Int]] = [:]
        for (index, piece) in pieces.enumerated() {
            guard case .delimiter(let marker, let count, let canOpen, let canClose) = piece else { continue }
            let key = Int(marker) * 4 + count
            if canClose, let opener = stacks[key]?.popLast() {
                pairs[opener] = index
                continue
            }
            if canOpen { stacks[key, default: []].append(index) }
        }
        return pairs
    }

    private static func isSpace(_ byte: UInt8?) -> Bool {
        guard let byte else { return true }
        return byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Letters and digits, counting every non-ASCII byte as a letter (é inside a word).
    private static func isWordByte(_ byte: UInt8?) -> Bool {
        guard let byte else { return false }
        return byte >= 0x80 || (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
    }

    private static func tokenize(_ source: [UInt8]) -> [Piece] {
        let count = source.count
        // The look-up tables cost a pass each: only paragraphs with links or code pay for them.
        let closers = NextIndex(source.contains(openBracket) ? source : [], [closeBracket, closeParen])
        let backtickRuns = BacktickRuns(source.contains(backtick) ? source : [])
        var pieces: [Piece] = []
        var textStart = 0
        var index = 0
        var linkTails: [Int: Int] = [:]  // index of "]" → index after ")"
        func flush(upTo end: Int) {
            if end > textStart { pieces.append(.text(textStart..<end)) }
        }
        while index < count {
            let byte = source[index]
            if let after = linkTails[index] {
                flush(upTo: index)
                index = after
                textStart = index
                continue
            }
            switch byte {
            case backslash where index + 1 < count && source[index + 1] < 0x80 && isASCIIPunctuation(source[index + 1]):
                flush(upTo: index)
                textStart = index + 1  // the escaped character is kept as text
                index += 2
            case backtick:
                let run = backtickRuns.length(at: index)
                flush(upTo: index)
                if let close = backtickRuns.next(length: run, after: index) {
                    var code = Array(source[(index + run)..<close])
                    while code.first == 0x20 { code.removeFirst() }
                    while code.last == 0x20 { code.removeLast() }
                    pieces.append(.literal(code))
                    index = close + run
                } else {
                    pieces.append(.literal(Array(repeating: backtick, count: run)))
                    index += run
                }
                textStart = index
            case _ where byte == openBracket || (byte == bang && index + 1 < count && source[index + 1] == openBracket):
                let bracket = byte == bang ? index + 1 : index
                if let close = closers.next(closeBracket, after: bracket), close + 1 < count, source[close + 1] == openParen,
                   let end = closers.next(closeParen, after: close + 1), isDestination(source[(close + 2)..<end]) {
                    flush(upTo: index)
                    linkTails[close] = end + 1
                    index = bracket + 1
                    textStart = index
                } else {
                    index += 1
                }
            case star, underscore:
                var run = 1
                while index + run < count, source[index + run] == byte { run += 1 }
                guard run <= 3 else {
                    index += run
                    continue
                }
                let before: UInt8? = index > 0 ? source[index - 1] : nil
                let after: UInt8? = index + run < count ? source[index + run] : nil
                var canOpen = !isSpace(after)
                var canClose = !isSpace(before)
                if byte == underscore {
                    if isWordByte(before) { canOpen = false }
                    if isWordByte(after) { canClose = false }
                }
                flush(upTo: index)
                pieces.append(.delimiter(marker: byte, count: run, canOpen: canOpen, canClose: canClose))
                index += run
                textStart = index
            default:
                index += 1
            }
        }
        flush(upTo: count)
        return pieces
    }

    /// A link destination has no blanks, except before a quoted title: (url "Title").
    private static func isDestination(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard let blank = bytes.firstIndex(where: { isSpace($0) }) else { return true }
        let title = bytes[blank...].drop(while: { isSpace($0) })
        return title.first == UInt8(ascii: "\"") || title.first == UInt8(ascii: "'")
    }

    private static func isASCIIPunctuation(_ byte: UInt8) -> Bool {
        (0x21...0x2F).contains(byte) || (0x3A...0x40).contains(byte) || (0x5B...0x60).contains(byte) || (0x7B...0x7E).contains(byte)
    }

    /// For each of a few bytes, the next position holding it, answered in O(1).
    private struct NextIndex {
        private var next: [UInt8: [Int32]] = [:]

        init(_ source: [UInt8], _ targets: [UInt8]) {
            for target in targets {
                var table = [Int32](repeating: -1, count: source.count + 1)
                var following: Int32 = -1
                for index in stride(from: source.count - 1, through: 0, by: -1) {
                    if source[index] == target { following = Int32(index) }
                    table[index] = following
                }
                next[target] = table
            }
        }

        func next(_ target: UInt8, after index: Int) -> Int? {
            guard let table = next[target], index + 1 < table.count else { return nil }
            let found = table[index + 1]
            return found < 0 ? nil : Int(found)
        }
    }

    /// Backtick runs by length, so a code span's closing run is found without rescanning.
    private struct BacktickRuns {
        private var lengths: [Int: Int] = [:]        // start → length
        private var starts: [Int: [Int]] = [:]       // length → starts, ascending

        init(_ source: [UInt8]) {
            var index = 0
            while index < source.count {
                guard source[index] == UInt8(ascii: "`") else { index += 1; continue }
                var run = 1
                while index + run < source.count, source[index + run] == UInt8(ascii: "`") { run += 1 }
                lengths[index] = run
                starts[run, default: []].append(index)
                index += run
            }
        }

        func length(at index: Int) -> Int { lengths[index] ?? 1 }

        func next(length: Int, after index: Int) -> Int? {
            guard let list = starts[length] else { return nil }
            var low = 0, high = list.count
            while low < high {
                let middle = (low + high) / 2
                if list[middle] <= index { low = middle + 1 } else { high = middle }
            }
            return low < list.count ? list[low] : nil
        }
    }
}
