import FoundationEssentials

/// Finds text in a book's bytes: ASCII letters match either case, and any run of white space
/// in the query matches any run in the text, so a phrase split by a line end is still found.
public enum BookSearch {
    public struct Hit: Hashable, Sendable {
        public var range: Range<Int>
        /// The search went past the end (or the start) of the book and came round.
        public var wrapped: Bool
    }

    @inline(__always) static func fold(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
    @inline(__always) static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// The query's words, case-folded; empty when it has none.
    static func words(_ query: String) -> [[UInt8]] {
        query.utf8.split(whereSeparator: { isSpace($0) }).map { $0.map(fold) }
    }

    /// The match starting exactly at `start`, if any: its end.
    static func match(_ words: [[UInt8]], at start: Int, in bytes: UnsafeBufferPointer<UInt8>, limit: Int) -> Int? {
        var index = start
        for (number, word) in words.enumerated() {
            if number > 0 {
                guard index < limit, isSpace(bytes[index]) else { return nil }
                while index < limit && isSpace(bytes[index]) { index += 1 }
            }
            guard index + word.count <= limit else { return nil }
            for byte in word {
                if fold(bytes[index]) != byte { return nil }
                index += 1
            }
        }
        return index
    }

    /// Every match starting in `range` (for highlighting a page).
    public static func matches(of query: String, in text: BookText, within range: Range<Int>) -> [Range<Int>] {
        let words = words(query)
        guard !words.isEmpty else { return [] }
        return text.bytes.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var result: [Range<Int>] = []
            let first = words[0][0]
            var index = max(0, range.lowerBound)
            let end = min(bytes.count, range.upperBound)
            while index < end {
                if fold(bytes[index]) == first, let matchEnd = match(words, at: index, in: bytes, limit: bytes.count) {
                    result.append(index..<matchEnd)
                    index = matchEnd
                } else {
                    index += 1
                }
            }
            return result
        }
    }

    /// The next match starting after `offset` (or the previous one starting before it when
    /// `backward`), coming round the end of the book once.
    public static func find(_ query: String, in text: BookText, from offset: Int, backward: Bool = false) -> Hit? {
        let words = words(query)
        guard !words.isEmpty else { return nil }
        return text.bytes.withUnsafeBytes { raw -> Hit? in
            let bytes = raw.bindMemory(to: UInt8.self)
            let count = bytes.count
            let first = words[0][0]
            func scan(_ indices: StrideTo<Int>) -> Range<Int>? {
                for index in indices where fold(bytes[index]) == first {
                    if let end = match(words, at: index, in: bytes, limit: count) { return index..<end }
                }
                return nil
            }
            let origin = min(max(0, offset), count)
            if backward {
                if let hit = scan(stride(from: origin - 1, to: -1, by: -1)) { return Hit(range: hit, wrapped: false) }
                if let hit = scan(stride(from: count - 1, to: origin - 1, by: -1)) { return Hit(range: hit, wrapped: true) }
            } else {
                if let hit = scan(stride(from: origin + 1, to: count, by: 1)) { return Hit(range: hit, wrapped: false) }
                if let hit = scan(stride(from: 0, to: min(origin + 1, count), by: 1)) { return Hit(range: hit, wrapped: true) }
            }
            return nil
        }
    }
}
