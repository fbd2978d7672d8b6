import Testing
@testable import Terminal

@Suite("DisplayWidth")
struct DisplayWidthTests {
    @Test("columns of one grapheme", arguments: [
        ("a", 1), ("~", 1), ("世", 2), ("界", 2), ("🙂", 2), ("🇫🇷", 2), ("e\u{301}", 1), ("é", 1),
        ("❤\u{FE0F}", 2), ("❤", 1), ("\u{28FF}", 1), ("\u{2801}", 1), ("👍🏽", 2), ("한", 2), ("ｱ", 1),
        // Controls, line breaks and bidi overrides count as the one-column stand-in drawn for them.
        ("\u{7}", 1), ("\t", 1), ("\u{1B}", 1), ("\u{7F}", 1), ("\u{85}", 1), ("\r\n", 1), ("\u{202E}", 1),
        ("\u{2067}", 1), ("\u{200F}", 1), ("\u{200B}", 0),
    ] as [(String, Int)])
    func graphemeWidth(_ text: String, _ expected: Int) {
        #expect(text.count == 1, "test data must be one grapheme: \(text.unicodeScalars.map(\.value))")
        #expect(DisplayWidth.of(Character(text)) == expected)
    }

    /// The one-column shortcut for box drawing, block elements and braille holds only while no
    /// scalar there is an emoji, a mark, a format character or East Asian wide: checked against
    /// the Unicode tables the general rules read.
    @Test func boxDrawingBlocksAndBrailleAreOneColumnByTheGeneralRules() {
        for value in Array(0x2500...0x259F) + Array(0x2800...0x28FF) {
            let scalar = Unicode.Scalar(UInt32(value))!
            #expect(!scalar.properties.isEmojiPresentation && !scalar.properties.isEmoji, "U+\(String(value, radix: 16))")
            #expect(![.nonspacingMark, .enclosingMark, .format].contains(scalar.properties.generalCategory), "U+\(String(value, radix: 16))")
            #expect(DisplayWidth.of(Character(scalar)) == 1)
            #expect(DisplayWidth.of(Character(String(scalar) + "\u{301}")) == 1, "with a combining mark")
        }
    }

    @Test func stringWidthSumsGraphemes() {
        #expect(DisplayWidth.of("hello") == 5)
        #expect(DisplayWidth.of("世界") == 4)
        #expect(DisplayWidth.of("Hello, 世界 🙂!") == 15)
        #expect(DisplayWidth.of("cafe\u{301}") == 4)
        #expect(DisplayWidth.of("🇫🇷🇩🇪") == 4)
        #expect(DisplayWidth.of("a\u{7}b") == 3)
        #expect(DisplayWidth.of("") == 0)
    }

    @Test func truncateKeepsTextThatFits() {
        #expect(DisplayWidth.truncate("Alice", to: 5) == "Alice")
        #expect(DisplayWidth.truncate("世界", to: 4) == "世界")
        #expect(DisplayWidth.truncate("", to: 3) == "")
    }

    @Test func truncateCutsWithEllipsis() {
        #expect(DisplayWidth.truncate("Hello, world", to: 8) == "Hello, …")
        #expect(DisplayWidth.truncate("世界世界", to: 5) == "世界…")
        // A wide character that would straddle the limit is left out whole.
        #expect(DisplayWidth.truncate("世界世界", to: 4) == "世…")
        #expect(DisplayWidth.truncate("cafe\u{301} au lait", to: 5) == "cafe\u{301}…")
        #expect(DisplayWidth.truncate("abcdef", to: 4, ellipsis: "") == "abcd")
        #expect(DisplayWidth.truncate("abcdef", to: 2, ellipsis: "...") == "..")
        #expect(DisplayWidth.truncate("abcdef", to: 0) == "")
        #expect(DisplayWidth.truncate("abcdef", to: -3) == "")
    }

    @Test func padFillsOrCutsToExactWidth() {
        #expect(DisplayWidth.pad("ab", to: 4) == "ab  ")
        #expect(DisplayWidth.pad("世", to: 3) == "世 ")
        #expect(DisplayWidth.pad("abcdef", to: 4) == "abc…")
        #expect(DisplayWidth.pad("世界x", to: 4) == "世… ")
        for text in ["", "a", "世界世界", "🇫🇷 flag", "e\u{301}e\u{301}"] {
            for width in 0...7 { #expect(DisplayWidth.of(DisplayWidth.pad(text, to: width)) == width) }
        }
    }

    @Test func wrapBreaksAfterSpaces() {
        #expect(DisplayWidth.wrap("the quick brown fox", to: 10) == ["the quick", "brown fox"])
        #expect(DisplayWidth.wrap("ab cd", to: 4) == ["ab", "cd"])
        // The space at the break point is swallowed, not carried to the next line.
        #expect(DisplayWidth.wrap("abcd efgh", to: 4) == ["abcd", "efgh"])
        #expect(DisplayWidth.wrap("short", to: 10) == ["short"])
    }

    @Test func wrapSwallowsEverySpaceAtTheBreak() {
        // Two spaces after a full stop (common in old e-texts) must not indent the next line.
        #expect(DisplayWidth.wrap("abcde   fg", to: 5) == ["abcde", "fg"])
        #expect(DisplayWidth.wrap("It ended.  She woke.", to: 9) == ["It ended.", "She woke."])
    }

    @Test func wrapBreaksLongWordsInside() {
        #expect(DisplayWidth.wrap("abcdefghij", to: 4) == ["abcd", "efgh", "ij"])
        #expect(DisplayWidth.wrap("a bcdefgh", to: 4) == ["a", "bcde", "fgh"])
    }

    @Test func wrapKeepsHardBreaksIncludingCRLF() {
        #expect(DisplayWidth.wrap("a\nb", to: 10) == ["a", "b"])
        #expect(DisplayWidth.wrap("a\r\nb", to: 10) == ["a", "b"])
        #expect(DisplayWidth.wrap("a\n\nb", to: 10) == ["a", "", "b"])
        #expect(DisplayWidth.wrap("abc\n", to: 10) == ["abc", ""])
        #expect(DisplayWidth.wrap("", to: 10) == [""])
    }

    @Test func wrapMeasuresWideCharacters() {
        #expect(DisplayWidth.wrap("世界世界", to: 5) == ["世界", "世界"])
        #expect(DisplayWidth.wrap("世界世界", to: 4) == ["世界", "世界"])
        #expect(DisplayWidth.wrap("🙂🙂🙂", to: 3) == ["🙂", "🙂", "🙂"])
        for line in DisplayWidth.wrap("Alice 世界 was 🙂 beginning to get very tired of sitting by her sister", to: 7) {
            #expect(DisplayWidth.of(line) <= 7, "\(line)")
        }
    }

    @Test func wrapRangesIndexTheOriginalText() {
        let text = "the quick brown fox\r\njumps"
        let ranges = DisplayWidth.wrapRanges(text, to: 10)
        #expect(ranges.map { String(text[$0]) } == ["the quick ", "brown fox", "jumps"])
        #expect(ranges.first?.lowerBound == text.startIndex)
        #expect(ranges.last?.upperBound == text.endIndex)
        // Ranges are in order and never overlap, so a position maps to one line.
        for (a, b) in zip(ranges, ranges.dropFirst()) { #expect(a.upperBound <= b.lowerBound) }
    }

    @Test func wrapRangesForNonPositiveWidthStillProgress() {
        #expect(DisplayWidth.wrap("abc", to: 0) == ["a", "b", "c"])
    }
}
