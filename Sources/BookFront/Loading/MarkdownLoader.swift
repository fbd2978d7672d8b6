import Foundation

/// Opens a Markdown book: headings (`#` … `######`, and underlined `===`/`---`) become chapters,
/// `*em*`, `_em_`, `**strong**`, `__strong__` become emphasis ranges with their markers removed,
/// links keep their text, code keeps its text as written. The text is rebuilt in memory, with
/// LF line breaks; hard-wrapped lines stay as they are for the reader to re-join.
enum MarkdownLoader {
    static func load(path: String, source: BookText) -> BookDocument {
        let invalid = source.withBytes { UTF8Check.invalidSequences(in: $0) }
        let string = source.string(0..<source.count)
        var builder = MarkdownBuilder()
        builder.add(lines: string.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }))
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
    private var paragraph: [Substring] = []
    private var fence: String?
    private var lastLineWasBlank = true

    mutating func add<Lines: Sequence>(lines: Lines) where Lines.Element == Substring {
        for rawLine in lines {
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            add(line: line)
        }
        flushParagraph()
        // Blank lines at the end say nothing: the text ends with one line break.
        while output.count > 1, output[output.count - 1] == 0x0A, output[output.count - 2] == 0x0A { output.removeLast() }
    }

    private mutating func add(line: Substring) {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if let open = fence {
            if trimmed.hasPrefix(open) { fence = nil } else { emit(String(line)) }
            return
        }
        if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
            flushParagraph()
            fence = String(trimmed.prefix(3))
            return
        }
        if trimmed.isEmpty {
            flushParagraph()
            if !lastLineWasBlank, !output.isEmpty { output.append(0x0A) }
            lastLineWasBlank = true
            return
        }
        if let (level, title) = Self.atxHeading(line) {
            flushParagraph()
            heading(title, level: level)
            return
        }
        if paragraph.count == 1, let level = Self.setextLevel(trimmed) {
            let title = paragraph[0].trimmingCharacters(in: .whitespaces)
            paragraph = []
            heading(title, level: level)
            return
        }
        paragraph.append(line)
    }

    private mutating func heading(_ source: String, level: Int) {
        let start = output.count
        let inline = MarkdownInline.render(source)
        emit(inline, at: start)
        let end = start + inline.bytes.count
        if end > start { emphasis.append(TextEmphasis(range: start..<end, kind: .heading)) }
        let title = String(decoding: inline.bytes, as: UTF8.self)
        chapters.append(BookChapter(title: title.isEmpty ? "Untitled" : title, offset: start, level: level - 1))
    }

    private mutating func flushParagraph() {
        guard !paragraph.isEmpty else { return }
        let inline = MarkdownInline.render(paragraph.joined(separator: "\n"))
        paragraph = []
        emit(inline, at: output.count)
    }

    private mutating func emit(_ inline: MarkdownInline.Rendered, at start: Int) {
        output.append(contentsOf: inline.bytes)
        output.append(0x0A)
        emphasis.append(contentsOf: inline.spans.map { TextEmphasis(range: ($0.range.lowerBound + start)..<($0.range.upperBound + start), kind: $0.kind) })
        lastLineWasBlank = false
    }

    private mutating func emit(_ line: String) {
        output.append(contentsOf: line.utf8)
        output.append(0x0A)
        lastLineWasBlank = false
    }

    static func atxHeading(_ line: Substring) -> (Int, String)? {
        let indent = line.prefix(while: { $0 == " " }).count
        guard indent <= 3 else { return nil }
        let rest = line.dropFirst(indent)
        let level = rest.prefix(while: { $0 == "#" }).count
        guard (1...6).contains(level) else { return nil }
        var title = rest.dropFirst(level)
        guard title.isEmpty || title.first == " " || title.first == "\t" else { return nil }  // "#hashtag"
        title = Substring(title.trimmingCharacters(in: .whitespaces))
        // A closing run of #s is decoration.
        let closing = title.reversed().prefix(while: { $0 == "#" }).count
        if closing > 0, closing == title.count || title.dropLast(closing).last == " " {
            title = Substring(title.dropLast(closing).trimmingCharacters(in: .whitespaces))
        }
        return (level, String(title))
    }

    static func setextLevel(_ trimmed: String) -> Int? {
        guard trimmed.count >= 2 else { return nil }
        if trimmed.allSatisfy({ $0 == "=" }) { return 1 }
        if trimmed.allSatisfy({ $0 == "-" }) { return 2 }
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
        case text(String)
        case delimiter(marker: Character, count: Int, canOpen: Bool, canClose: Bool)
    }

    static func render(_ source: String) -> Rendered {
        let pieces = tokenize(Array(source))
        let pairs = match(pieces)
        var bytes: [UInt8] = []
        var openedAt: [Int: Int] = [:]
        var spans: [(range: Range<Int>, kind: TextEmphasis.Kind)] = []
        for (index, piece) in pieces.enumerated() {
            switch piece {
            case .text(let text):
                bytes.append(contentsOf: text.utf8)
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
                    bytes.append(contentsOf: String(repeating: marker, count: count).utf8)
                }
            }
        }
        spans.sort { $0.range.lowerBound < $1.range.lowerBound }
        return Rendered(bytes: bytes, spans: spans)
    }

    /// Opener index → closer index for every pair.
    private static func match(_ pieces: [Piece]) -> [Int: Int] {
        var pairs: [Int: Int] = [:]
        var stack: [Int] = []
        for (index, piece) in pieces.enumerated() {
            guard case .delimiter(let marker, let count, let canOpen, let canClose) = piece else { continue }
            if canClose, let position = stack.lastIndex(where: {
                if case .delimiter(marker, count, _, _) = pieces[$0] { return true } else { return false }
            }) {
                pairs[stack[position]] = index
                stack.removeSubrange(position...)
                continue
            }
            if canOpen { stack.append(index) }
        }
        return pairs
    }

    private static func tokenize(_ characters: [Character]) -> [Piece] {
        var pieces: [Piece] = []
        var text = ""
        var index = 0
        var skipLinkTail: [Int: Int] = [:]  // index of "](" → index after ")"
        func flush() {
            if !text.isEmpty { pieces.append(.text(text)); text = "" }
        }
        while index < characters.count {
            let character = characters[index]
            if let after = skipLinkTail[index] {
                index = after
                continue
            }
            switch character {
            case "\\" where index + 1 < characters.count && characters[index + 1].isPunctuationOrSymbolASCII:
                text.append(characters[index + 1])
                index += 2
            case "`":
                let run = characters[index...].prefix(while: { $0 == "`" }).count
                if let close = findRun(of: "`", length: run, in: characters, from: index + run) {
                    text += String(characters[(index + run)..<close]).trimmingCharacters(in: .whitespaces)
                    index = close + run
                } else {
                    text += String(repeating: "`", count: run)
                    index += run
                }
            case _ where character == "[" || (character == "!" && index + 1 < characters.count && characters[index + 1] == "["):
                let bracket = character == "!" ? index + 1 : index
                if let (closeBracket, end) = linkTail(in: characters, openBracket: bracket) {
                    skipLinkTail[closeBracket] = end
                    index = bracket + 1
                } else {
                    text.append(character)
                    index += 1
                }
            case "*", "_":
                let run = characters[index...].prefix(while: { $0 == character }).count
                let before: Character? = index > 0 ? characters[index - 1] : nil
                let after: Character? = index + run < characters.count ? characters[index + run] : nil
                guard run <= 3 else {
                    text += String(repeating: character, count: run)
                    index += run
                    continue
                }
                var canOpen = after.map { !$0.isWhitespace } ?? false
                var canClose = before.map { !$0.isWhitespace } ?? false
                if character == "_" {
                    if let before, before.isLetter || before.isNumber { canOpen = false }
                    if let after, after.isLetter || after.isNumber { canClose = false }
                }
                flush()
                pieces.append(.delimiter(marker: character, count: run, canOpen: canOpen, canClose: canClose))
                index += run
            default:
                text.append(character)
                index += 1
            }
        }
        flush()
        return pieces
    }

    private static func findRun(of marker: Character, length: Int, in characters: [Character], from start: Int) -> Int? {
        var index = start
        while index < characters.count {
            if characters[index] == marker {
                let run = characters[index...].prefix(while: { $0 == marker }).count
                if run == length { return index }
                index += run
            } else {
                index += 1
            }
        }
        return nil
    }

    /// For "[text](url)": the index of "]" and the index just after ")".
    private static func linkTail(in characters: [Character], openBracket: Int) -> (Int, Int)? {
        guard let close = characters[(openBracket + 1)...].firstIndex(of: "]"),
              close + 1 < characters.count, characters[close + 1] == "(",
              let end = characters[(close + 2)...].firstIndex(of: ")") else { return nil }
        return (close, end + 1)
    }
}

private extension Character {
    var isPunctuationOrSymbolASCII: Bool {
        isASCII && (isPunctuation || isSymbol)
    }
}
