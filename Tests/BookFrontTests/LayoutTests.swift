import Foundation
@testable import BookFront
import Terminal
import Testing

/// Lays out a whole text at `width` and returns its lines as shown.
private func shownLines(_ string: String, width: Int) -> [String] {
    let text = BookText(string)
    let layout = TextLayout(text: text, width: width)
    guard var position = layout.first else { return [] }
    var result = [LineRenderer.string(of: layout.line(at: position), in: text)]
    while let next = layout.next(position) {
        position = next
        result.append(LineRenderer.string(of: layout.line(at: position), in: text))
    }
    return result
}

private func words(_ string: String) -> [Substring] {
    string.split(whereSeparator: { $0 == " " || $0 == "\r\n" || $0 == "\n" || $0 == "\r" || $0 == "\t" })
}

@Suite("Layout: reflow and wrapping")
struct LayoutTests {
    @Test func hardWrappedParagraphsAreJoinedWithOneSpace() {
        let lines = shownLines("one two\r\nthree four five six seven eight nine ten eleven twelve thirteen\r\n  \r\nnext", width: 200)
        #expect(lines == ["one two three four five six seven eight nine ten eleven twelve thirteen", "", "next"])
    }

    @Test func indentedVerseAndShortLinesKeepTheirBreaks() {
        let lines = shownLines(ReaderFixture.string, width: 100)
        #expect(lines.contains("    Wind the herring, wind the key,"))
        #expect(lines.contains("    the tide will always make you wait."))
        #expect(lines.contains("CHAPTER II"))
        #expect(lines.contains("A Visitor Who Ate the Timetable"))
        // Prose is re-joined: a sentence broken across source lines is on one shown line.
        #expect(lines.contains { $0.contains("a brass thing with two faces") })
        // Blank lines between paragraphs collapse to one, and CR never reaches the screen.
        #expect(!lines.contains { $0.contains("\r") })
        #expect(zip(lines, lines.dropFirst()).allSatisfy { !($0.isEmpty && $1.isEmpty) })
    }

    @Test func shortFlushLeftLinesStayApartButLongOnesJoin() {
        #expect(shownLines("Mr. Marigold\nThe Pier\nEnd of the Line", width: 80) == ["Mr. Marigold", "The Pier", "End of the Line"])
        let prose = String(repeating: "word ", count: 10) + "\n" + String(repeating: "more ", count: 3)
        #expect(shownLines(prose, width: 200).count == 1)
    }

    @Test func anIndentedFirstLineIsAParagraphIndentNotVerse() {
        // How most plain-text books (Project Gutenberg's among them) start a paragraph.
        let text = "  The keeper wound the clock every morning before\r\nthe tide came in, and every evening after it went\r\nout again.\r\n\r\n    Wind the herring,\r\n    wind the key."
        #expect(shownLines(text, width: 200) == [
            "  The keeper wound the clock every morning before the tide came in, and every evening after it went out again.",
            "", "    Wind the herring,", "    wind the key.",
        ])
    }

    @Test func listItemsStartNewLines() {
        #expect(shownLines("Things:\n- a herring key\n- a tide clock", width: 80) == ["Things:", "- a herring key", "- a tide clock"])
    }

    @Test(arguments: [12, 20, 33, 40, 57, 80])
    func noLineIsWiderThanTheWidthAndNoWordIsLost(width: Int) {
        let lines = shownLines(ReaderFixture.string, width: width)
        for line in lines { #expect(DisplayWidth.of(line) <= width, "“\(line)” is wider than \(width)") }
        if width >= 20 {  // no word of the fixture is wider than 20 columns, so none is broken
            #expect(lines.flatMap(words) == words(ReaderFixture.string))
        }
    }

    @Test func wideCharactersMeasureTwoAndBreakBetweenThem() {
        let lines = shownLines("潮の時計灯台潮の時計灯台", width: 7)
        #expect(lines == ["潮の時", "計灯台", "潮の時", "計灯台"])
        #expect(shownLines("🐢🐢🐢 ok", width: 5) == ["🐢🐢", "🐢 ok"])
        // A wide character may start a line right after ASCII text without a space.
        #expect(shownLines("tide潮の時計", width: 8) == ["tide潮の", "時計"])
    }

    @Test func combiningMarksTakeNoColumn() {
        let accented = String(repeating: "e\u{301}", count: 12)  // 12 columns, 36 bytes
        #expect(shownLines(accented, width: 12) == [accented])
        #expect(shownLines(accented + " ab", width: 12) == [accented, "ab"])
    }

    @Test func aWordLongerThanTheLineIsBroken() {
        #expect(shownLines(String(repeating: "a", count: 25), width: 10) == ["aaaaaaaaaa", "aaaaaaaaaa", "aaaaa"])
        #expect(shownLines("x " + String(repeating: "潮", count: 5), width: 4) == ["x 潮", "潮潮", "潮潮"])
        #expect(shownLines("xyz " + String(repeating: "潮", count: 3), width: 4) == ["xyz", "潮潮", "潮"])
    }

    @Test func invalidUTF8IsLaidOutAndShownWithReplacementCharacters() {
        let text = BookText(bytes: Data([0x41, 0xFF, 0x42, 0x20, 0x43]))
        let layout = TextLayout(text: text, width: 10)
        let line = layout.line(at: layout.first!)
        #expect(LineRenderer.string(of: line, in: text) == "A\u{FFFD}B C")
    }

    @Test func theSameOffsetIsOnTheTopLineAtAnyWidth() throws {
        let string = ReaderFixture.longString(copies: 4)
        let text = BookText(string)
        let offset = ReaderFixture.offsetOf("committee", in: Array(string.utf8)) + 2
        for width in [116, 56, 30] {
            let layout = TextLayout(text: text, width: width)
            let position = try #require(layout.position(of: offset))
            let line = layout.line(at: position)
            #expect(line.start <= offset)
            if let next = layout.next(position) { #expect(layout.line(at: next).start > offset) }
            #expect(LineRenderer.string(of: line, in: text).contains("committee") || LineRenderer.string(of: line, in: text).contains("comm"))
        }
    }

    @Test func blocksFoundFromAnyOffsetAgreeWithBlocksFoundFromTheStart() {
        // Over 64 KiB, with and without blank lines, so the cuts are exercised.
        let prose = ReaderFixture.longString(copies: 60)
        let oneParagraph = String(repeating: "no blank line here at all, only words\r\n", count: 5_000)
        let oneLine = String(repeating: "endless line without a break ", count: 6_000)
        for string in [prose, oneParagraph, oneLine] {
            let text = BookText(string)
            let layout = TextLayout(text: text, width: 50)
            var starts: [Int] = [0]
            while true {
                let block = layout.block(startingAt: starts.last!)
                #expect(block.end - block.start <= 2 * BlockScanner.cutSpacing)
                if block.end >= text.count { break }
                starts.append(block.end)
            }
            for offset in stride(from: 0, to: text.count, by: 997) {
                let expected = starts.last { $0 <= offset }!
                #expect(layout.blockStart(containing: offset) == expected, "offset \(offset)")
            }
        }
    }

    @Test func theLineCountMatchesStepping() throws {
        let string = ReaderFixture.longString(copies: 70)
        let text = BookText(string)
        let layout = TextLayout(text: text, width: 45)
        var position = try #require(layout.first)
        var lines = 1
        var probes: [(offset: Int, line: Int)] = []
        while let next = layout.next(position) {
            position = next
            if lines % 337 == 0 { probes.append((layout.line(at: position).start, lines)) }
            lines += 1
        }
        let count = try #require(LineCount.count(text: text, width: 45))
        #expect(count.totalLines == lines)
        #expect(count.checkpoints.count > 1)
        for probe in probes { #expect(count.lineNumber(of: probe.offset, in: layout) == probe.line) }
    }

    @Test func aCancelledCountGivesNothing() {
        #expect(LineCount.count(text: BookText(ReaderFixture.longString(copies: 30)), width: 40) { true } == nil)
    }
}

@Suite("Layout: justification")
struct LayoutJustifyTests {
    @Test func justifiedLinesFillTheWidthExceptAParagraphsLast() {
        let text = BookText(ReaderFixture.string)
        let layout = TextLayout(text: text, width: 40)
        var position = layout.first!
        var checked = 0
        while let next = layout.next(position) {
            let line = layout.line(at: position)
            let pieces = LineRenderer.pieces(of: line, in: text)
            let justified = LineRenderer.justified(pieces, to: 40).map(\.text).joined()
            if !line.endsParagraph && pieces.filter({ $0.text == " " }).count > 0 {
                #expect(DisplayWidth.of(justified) == 40, "“\(justified)”")
                #expect(justified.split(separator: " ") == pieces.map(\.text).joined().split(separator: " "))
                checked += 1
            }
            position = next
        }
        #expect(checked > 10)
        // The last line of a paragraph ends it; a verse line is a paragraph of its own.
        let last = layout.line(at: layout.position(of: ReaderFixture.offsetOf("trade."))!)
        #expect(last.endsParagraph)
    }
}

@Suite("Layout: the fast width path")
struct LayoutFastPathTests {
    @Test func theFastPathAgreesWithDisplayWidth() {
        let samples: [ClosedRange<UInt32>] = [0x21...0x7E, 0xA0...0x2FF, 0x2010...0x2027, 0x2030...0x205E, 0x3000...0x3029,
                                              0x3041...0x3096, 0x30A1...0x30FA, 0x4E00...0x4FFF, 0x9F00...0x9FFF, 0xFF01...0xFF60]
        for range in samples {
            for value in range {
                let scalar = Unicode.Scalar(value)!
                let bytes = Array(String(scalar).utf8)
                let clusters = bytes.withUnsafeBufferPointer { LineWrapper.simpleClusters($0, 0, bytes.count) }
                #expect(clusters?.map(\.width) == [DisplayWidth.of(Character(scalar))], "U+\(String(value, radix: 16))")
            }
        }
        // Joining or unknown scalars leave the fast path.
        for value in Array(0x1F300...0x1F3FA) + Array(0x1F400...0x1FAFF) {
            guard let scalar = Unicode.Scalar(UInt32(value)) else { continue }
            let bytes = Array(String(scalar).utf8)
            let clusters = bytes.withUnsafeBufferPointer { LineWrapper.simpleClusters($0, 0, bytes.count) }
            #expect(clusters?.map(\.width) == [DisplayWidth.of(Character(scalar))], "U+\(String(value, radix: 16))")
        }
        for text in ["e\u{301}", "🐢\u{1F3FD}", "a\u{200D}b", "\u{3099}", "한", "\u{1F1EB}\u{1F1F7}"] {
            let bytes = Array(text.utf8)
            #expect(bytes.withUnsafeBufferPointer { LineWrapper.simpleClusters($0, 0, bytes.count) } == nil, "\(text)")
        }
        let invalid: [UInt8] = [0xC0, 0x80, 0xE0, 0x80, 0x80]
        #expect(invalid.withUnsafeBufferPointer { LineWrapper.simpleClusters($0, 0, invalid.count) } == nil)
    }
}

@Suite("Layout: the one-sweep line measure")
struct LayoutSweepTests {
    /// Every block laid out with and without the one-sweep path.
    private func compare(_ string: String, widths: [Int]) {
        let data = Data(string.utf8)
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let scanner = BlockScanner(bytes: bytes)
            for width in widths {
                var start = 0
                while start < bytes.count {
                    let end = scanner.blockEnd(from: start)
                    let fast = LineWrapper(bytes: bytes, width: width).layout(blockFrom: start, to: end)
                    let slow = LineWrapper(bytes: bytes, width: width, usesFastPath: false).layout(blockFrom: start, to: end)
                    #expect(fast == slow, "width \(width), block at \(start)")
                    start = end
                }
            }
        }
    }

    @Test func measuresPlainLinesInOneSweep() {
        let text = Array("the tide clock kept its faces\r\napart while gulls argued".utf8)
        text.withUnsafeBufferPointer { bytes in
            let wrapper = LineWrapper(bytes: bytes, width: 20)
            #expect(wrapper.fastLine(from: 0, end: bytes.count) == .line(end: 19, next: 20))  // "the tide clock kept"
            // "its faces" CRLF "apart": the line end counts as one column.
            #expect(wrapper.fastLine(from: 20, end: bytes.count) == .line(end: 36, next: 37))
            #expect(LineWrapper(bytes: bytes, width: 200).fastLine(from: 0, end: bytes.count) == .rest)
        }
        let wide = Array("ab 潮の時計灯台".utf8)
        wide.withUnsafeBufferPointer { bytes in
            #expect(LineWrapper(bytes: bytes, width: 8).fastLine(from: 0, end: bytes.count) == .line(end: 9, next: 9))  // "ab 潮の", 7 columns
        }
    }

    @Test func givesTheSameLinesAsWordByWord() {
        compare(ReaderFixture.string, widths: Array(8...90))
        var generator = SystemRandomNumberGenerator()
        let pieces = ["tide", "a", "punctuality", "  ", " ", "\r\n", "\n", "\t", " \r\n  ", "café", "潮の時計", "🐢", "e\u{301}",
                      String(repeating: "x", count: 30), "—", "well-known", "x.\r\n\r\n", "   \r\n"]
        for _ in 0..<40 {
            var text = ""
            for _ in 0..<200 { text += pieces.randomElement(using: &generator)! + (Bool.random(using: &generator) ? " " : "") }
            compare(text, widths: [5, 13, 29, 40, 78])
        }
    }
}

@Suite("Layout: the background count")
struct LayoutBackgroundCountTests {
    @Test func aNewCountReplacesTheOneRunningAndOnlyItsResultArrives() throws {
        let book = BookDocument(id: "bg", title: "t", path: nil, format: .plainText,
                                text: BookText(ReaderFixture.longString(copies: 200)), chapters: [])
        let counter = BackgroundLineCounter(notify: {})
        counter.start(document: book, width: 30)
        counter.start(document: book, width: 64)
        var result: (bookID: String, count: LineCount)?
        for _ in 0..<2000 where result == nil {
            result = counter.takeResult()
            if result == nil { usleep(2_000) }
        }
        let taken = try #require(result)
        #expect(taken.bookID == "bg")
        #expect(taken.count.width == 64)
        #expect(taken.count.totalLines == LineCount.count(text: book.text, width: 64)?.totalLines)
        #expect(counter.takeResult() == nil)  // handed out once
    }
}
