import FoundationEssentials

/// Turns the spine's XHTML documents into one text: block elements become paragraphs separated
/// by a blank line, <br> a line break, <h1>…<h6> headings, <em>/<i>/<strong>/<b> emphasis
/// ranges; scripts, styles and the head are dropped; runs of blanks collapse to one space
/// (except in <pre>). It remembers where each document and each element id starts, so the
/// table of contents can be mapped to byte offsets.
struct XHTMLTextBuilder {
    struct Heading {
        var title: String
        var offset: Int
        var level: Int
    }

    private(set) var output: [UInt8] = []
    private(set) var emphasis: [TextEmphasis] = []
    private(set) var headings: [Heading] = []
    /// Document path → offset where its text starts.
    private(set) var documentStarts: [String: Int] = [:]
    /// "path#id" → offset of the text that follows the element with that id.
    private(set) var anchors: [String: Int] = [:]

    private var document = ""
    private var pendingBreak = 0      // line breaks owed before the next text
    private var pendingSpace = false
    private var pendingAnchors: [String] = []
    private var skipDepth = 0
    private var preDepth = 0
    private var openEmphasis: [(name: String, start: Int)] = []
    private var heading: (level: Int, start: Int)?

    private static let paragraphBlocks: Set<String> = [
        "p", "div", "blockquote", "section", "article", "header", "footer", "aside", "nav", "figure", "figcaption",
        "table", "pre", "hr", "ul", "ol", "dl", "address", "center", "body", "main", "h1", "h2", "h3", "h4", "h5", "h6",
    ]
    private static let lineBlocks: Set<String> = ["li", "dt", "dd", "tr", "caption"]
    private static let skipped: Set<String> = ["script", "style", "head", "svg", "math", "noscript", "template"]
    private static let emphasisKinds: [String: TextEmphasis.Kind] = [
        "em": .emphasis, "i": .emphasis, "cite": .emphasis, "strong": .strong, "b": .strong,
    ]

    /// The text offset where the next text will start.
    private var nextTextOffset: Int {
        guard !output.isEmpty else { return 0 }
        let trailingBreaks = output.reversed().prefix(while: { $0 == 0x0A }).count
        if pendingBreak > 0 { return output.count + max(0, pendingBreak - trailingBreaks) }
        return output.count + (pendingSpace && trailingBreaks == 0 ? 1 : 0)
    }

    /// What adding a document found wrong with it.
    struct Problems {
        var failure: XMLWalker.Failure?
        /// It declared XML entities (dropped, never expanded).
        var declaredEntities: Bool
    }

    /// Adds one spine document.
    mutating func add(document data: Data, path: String) -> Problems {
        document = path
        requestBreak(2)
        documentStarts[path] = nextTextOffset
        skipDepth = 0
        preDepth = 0
        let sanitized = XMLSafety.sanitize(data)
        let failure = XMLWalker.walk(sanitized: sanitized, onStart: { start($0, $1) }, onEnd: { end($0) },
                                     onText: { append($0) })
        closeOpenElements()
        return Problems(failure: failure, declaredEntities: sanitized.declaredEntities)
    }

    private mutating func start(_ name: String, _ attributes: [String: String]) {
        if skipDepth > 0 || Self.skipped.contains(name) {
            skipDepth += 1
            return
        }
        if let id = attributes["id"] ?? attributes["name"].flatMap({ name == "a" ? $0 : nil }) {
            pendingAnchors.append(id)
        }
        if name == "br" {
            flushPendingBreak()
            output.append(0x0A)
            pendingSpace = false
            return
        }
        if Self.paragraphBlocks.contains(name) { requestBreak(2) }
        if Self.lineBlocks.contains(name) { requestBreak(1) }
        if name == "td" || name == "th" { pendingSpace = true }
        if name == "pre" { preDepth += 1 }
        if name.count == 2, name.first == "h", let level = Int(String(name.last!)), (1...6).contains(level) {
            heading = (level, nextTextOffset)
        }
        if Self.emphasisKinds[name] != nil { openEmphasis.append((name, nextTextOffset)) }
    }

    private mutating func end(_ name: String) {
        if skipDepth > 0 {
            skipDepth -= 1
            return
        }
        if let kind = Self.emphasisKinds[name], let index = openEmphasis.lastIndex(where: { $0.name == name }) {
            let start = openEmphasis[index].start
            openEmphasis.remove(at: index)
            if output.count > start { emphasis.append(TextEmphasis(range: start..<output.count, kind: kind)) }
        }
        if name.count == 2, name.first == "h", let open = heading, Int(String(name.last!)) == open.level {
            if output.count > open.start {
                let title = String(decoding: output[open.start...], as: UTF8.self)
                    .split(whereSeparator: \.isWhitespace).joined(separator: " ")
                emphasis.append(TextEmphasis(range: open.start..<output.count, kind: .heading))
                if !title.isEmpty { headings.append(Heading(title: title, offset: open.start, level: open.level)) }
            }
            heading = nil
        }
        if name == "pre" { preDepth = max(0, preDepth - 1) }
        if Self.paragraphBlocks.contains(name) { requestBreak(2) }
        if Self.lineBlocks.contains(name) { requestBreak(1) }
    }

    private mutating func append(_ text: String) {
        guard skipDepth == 0 else { return }
        if preDepth > 0 {
            let lines = text.replacing("\r\n", with: "\n")
            guard !lines.isEmpty else { return }
            flushPendingBreak()
            emit(lines)
            return
        }
        var word = ""
        for character in text {
            // XML's blanks only: a no-break space (&nbsp;) is text and stays.
            if character == " " || character == "\n" || character == "\t" || character == "\r" || character == "\r\n" {
                if !word.isEmpty { emitWord(word); word = "" }
                if !output.isEmpty, output.last != 0x0A { pendingSpace = true }
            } else {
                word.append(character)
            }
        }
        if !word.isEmpty { emitWord(word) }
    }

    private mutating func emitWord(_ word: String) {
        flushPendingBreak()
        if pendingSpace, !output.isEmpty, output.last != 0x0A { output.append(0x20) }
        pendingSpace = false
        emit(word)
    }

    private mutating func emit(_ text: String) {
        let offset = output.count
        for anchor in pendingAnchors { anchors["\(document)#\(anchor)"] = offset }
        pendingAnchors.removeAll()
        output.append(contentsOf: text.utf8)
    }

    private mutating func requestBreak(_ lines: Int) {
        pendingBreak = max(pendingBreak, lines)
    }

    private mutating func flushPendingBreak() {
        guard pendingBreak > 0 else { return }
        if !output.isEmpty {
            // Count the line breaks already there, so blocks never stack more than one blank line.
            let existing = output.reversed().prefix(while: { $0 == 0x0A }).count
            if existing < pendingBreak { output.append(contentsOf: repeatElement(0x0A, count: pendingBreak - existing)) }
            pendingSpace = false
        }
        pendingBreak = 0
    }

    /// A malformed document may leave elements open: close their ranges where it stopped.
    private mutating func closeOpenElements() {
        for open in openEmphasis where output.count > open.start {
            emphasis.append(TextEmphasis(range: open.start..<output.count, kind: Self.emphasisKinds[open.name] ?? .emphasis))
        }
        openEmphasis.removeAll()
        heading = nil
        for anchor in pendingAnchors { anchors["\(document)#\(anchor)"] = output.count }
        pendingAnchors.removeAll()
        requestBreak(2)
    }

    /// The finished text ends with one line break.
    mutating func finish() -> [UInt8] {
        while output.last == 0x0A { output.removeLast() }
        if !output.isEmpty { output.append(0x0A) }
        // Trimming the last line breaks can cut the end off an emphasis that held them (an <em>
        // around a <pre> ending in blank lines; found by Fuzz/FuzzEPUBContents).
        emphasis = emphasis.compactMap { span in
            let end = min(span.range.upperBound, output.count)
            return span.range.lowerBound < end ? TextEmphasis(range: span.range.lowerBound..<end, kind: span.kind) : nil
        }
        emphasis.sort { $0.range.lowerBound < $1.range.lowerBound }
        return output
    }
}
