import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Where a character turns up in a book: a pure search over the book's bytes, chapter by
/// chapter, for any of the character's names.
public enum CharacterAppearances {
    /// Mentions per chapter (index into `document.chapters` → count), chapters without any left
    /// out. A mention is a whole-word, case-insensitive (ASCII) match of any name; a space in a
    /// name matches any run of spaces and line breaks, because hard-wrapped text breaks
    /// "White Rabbit" across lines. Overlapping matches count once ("White Rabbit" and its
    /// alias "Rabbit"). Text before the first chapter (title, contents) is not searched, and a
    /// book without chapters gives an empty result.
    public static func find(names: [String], in document: BookDocument) -> [Int: Int] {
        let patterns = names.map(Pattern.init).filter { !$0.bytes.isEmpty }
        guard !patterns.isEmpty, !document.chapters.isEmpty else { return [:] }
        let total = document.text.count
        return document.text.bytes.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> [Int: Int] in
            let text = buffer.bindMemory(to: UInt8.self)
            var counts: [Int: Int] = [:]
            for (index, chapter) in document.chapters.enumerated() {
                let end = index + 1 < document.chapters.count ? document.chapters[index + 1].offset : total
                let range = max(0, min(chapter.offset, total))..<max(0, min(end, total))
                let count = mentions(of: patterns, in: text, range: range)
                if count > 0 { counts[index] = count }
            }
            return counts
        }
    }

    /// A name as lower-case ASCII bytes; spaces are kept as the "some whitespace" marker.
    struct Pattern {
        let bytes: [UInt8]
        init(_ name: String) {
            let words = name.split(whereSeparator: \.isWhitespace)
            bytes = Array(words.joined(separator: " ").utf8).map(lowercased)
        }
    }

    /// Counts non-overlapping mentions in `range`: every match of every pattern, merged.
    static func mentions(of patterns: [Pattern], in text: UnsafeBufferPointer<UInt8>, range: Range<Int>) -> Int {
        var spans: [Range<Int>] = []
        for pattern in patterns {
            // Candidates are found with memchr, once for the first byte's lower case and once
            // for its upper case: a name's first letter is a few percent of a book's bytes.
            let first = pattern.bytes[0]
            let upper = first >= 0x61 && first <= 0x7A ? first & ~0x20 : first
            var nextLower = next(first, in: text, from: range.lowerBound, to: range.upperBound)
            var nextUpper = upper == first ? range.upperBound : next(upper, in: text, from: range.lowerBound, to: range.upperBound)
            var position = range.lowerBound
            while true {
                if nextLower < position { nextLower = next(first, in: text, from: position, to: range.upperBound) }
                if upper != first, nextUpper < position { nextUpper = next(upper, in: text, from: position, to: range.upperBound) }
                position = min(nextLower, nextUpper)
                guard position < range.upperBound else { break }
                if let end = match(pattern.bytes, in: text, at: position, limit: range.upperBound),
                   isBoundary(before: position, in: text), isBoundary(at: end, in: text) {
                    spans.append(position..<end)
                    position = end
                } else {
                    position += 1
                }
            }
        }
        spans.sort { $0.lowerBound < $1.lowerBound }
        var count = 0, coveredUntil = -1
        for span in spans {
            if span.lowerBound >= coveredUntil { count += 1 }
            coveredUntil = max(coveredUntil, span.upperBound)
        }
        return count
    }

    /// The offset of the first `byte` in `start..<end` of `text`, or `end` when there is none.
    private static func next(_ byte: UInt8, in text: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        guard start < end, let base = text.baseAddress, let found = memchr(base + start, Int32(byte), end - start) else { return end }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// The end of a match of `pattern` starting at `start`, or nil.
    private static func match(_ pattern: [UInt8], in text: UnsafeBufferPointer<UInt8>, at start: Int, limit: Int) -> Int? {
        var position = start
        for byte in pattern {
            if byte == 0x20 {
                guard position < limit, isWhitespace(text[position]) else { return nil }
                while position < limit, isWhitespace(text[position]) { position += 1 }
            } else {
                guard position < limit, lowercased(text[position]) == byte else { return nil }
                position += 1
            }
        }
        return position
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// True when no letter or digit ends right before `offset` (decoding the UTF-8 scalar that
    /// ends there, so "Alicé" is one word but "Alice’s" is a mention of Alice).
    private static func isBoundary(before offset: Int, in text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard offset > 0 else { return true }
        var start = offset - 1
        while start > 0, offset - start < 4, text[start] & 0xC0 == 0x80 { start -= 1 }
        return !isWordScalar(in: text, from: start, to: offset)
    }

    private static func isBoundary(at offset: Int, in text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard offset < text.count else { return true }
        let lead = text[offset]
        let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        return !isWordScalar(in: text, from: offset, to: min(text.count, offset + length))
    }

    private static func isWordScalar(in text: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Bool {
        let first = text[start]
        if first < 0x80 {
            return (first >= 0x30 && first <= 0x39) || (first | 0x20 >= 0x61 && first | 0x20 <= 0x7A)
        }
        let decoded = String(decoding: UnsafeBufferPointer(rebasing: text[start..<end]), as: UTF8.self)
        guard let scalar = decoded.unicodeScalars.first, scalar != "\u{FFFD}" else { return false }
        return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }
}

private func lowercased(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
