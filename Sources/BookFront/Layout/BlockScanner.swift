#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds the blocks a text is laid out in, working on its bytes around an offset so a page can
/// be drawn without reading the rest of the book.
///
/// A block is a paragraph (a run of non-blank lines) or a separator (a run of blank lines).
/// So that no block is unboundedly long (a 1 GB file without a blank line), the text is also
/// cut near every multiple of `cutSpacing`: at a paragraph boundary if one lies just after it,
/// else at a line start, else at a character boundary. The cuts depend only on the bytes near
/// them, so laying out from any offset finds the same blocks.
struct BlockScanner {
    static let cutSpacing = 64 * 1024
    static let cutSearch = 4 * 1024

    let bytes: UnsafeBufferPointer<UInt8>
    var count: Int { bytes.count }

    @inline(__always) static func isSpace(_ byte: UInt8) -> Bool { byte <= 0x20 || byte == 0x7F }
    @inline(__always) static func isNewline(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D }

    /// Index of the first LF at or after `start` and before `limit`, else `limit`.
    func lineFeed(from start: Int, limit: Int) -> Int {
        guard start < limit, let base = bytes.baseAddress else { return limit }
        guard let found = memchr(base + start, 0x0A, limit - start) else { return limit }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// The start of the line holding `offset`, no lower than `floor`.
    func lineStart(containing offset: Int, floor: Int) -> Int {
        var index = offset
        while index > floor {
            if bytes[index - 1] == 0x0A { return index }
            index -= 1
        }
        return floor
    }

    /// Whether the line starting at `start` holds nothing but white space.
    func isBlankLine(at start: Int) -> Bool {
        var index = start
        while index < count {
            let byte = bytes[index]
            if byte == 0x0A { return true }
            if !Self.isSpace(byte) { return false }
            index += 1
        }
        return true
    }

    /// Whether the line ending with the LF at `lineFeed` is blank, looking back from its end.
    func isBlankLine(endingAt lineFeed: Int) -> Bool {
        var index = lineFeed - 1
        while index >= 0 {
            let byte = bytes[index]
            if byte == 0x0A { return true }
            if !Self.isSpace(byte) { return false }
            index -= 1
        }
        return true
    }

    /// A paragraph boundary: a line start where blank lines give way to text or the reverse.
    func isNaturalBoundary(_ position: Int) -> Bool {
        guard position > 0, position < count, bytes[position - 1] == 0x0A else { return false }
        return isBlankLine(at: position) != isBlankLine(endingAt: position - 1)
    }

    /// The k-th cut (k ≥ 1), or nil past the end.
    func cut(_ k: Int) -> Int? {
        let base = k * Self.cutSpacing
        guard base < count else { return nil }
        let limit = min(count, base + Self.cutSearch)
        var firstLineStart: Int?
        var position = base
        if position > 0 && bytes[position - 1] != 0x0A { position = lineFeed(from: position, limit: limit) + 1 }
        while position < limit {
            if isNaturalBoundary(position) { return position }
            if firstLineStart == nil { firstLineStart = position }
            position = lineFeed(from: position, limit: limit) + 1
        }
        if let firstLineStart { return firstLineStart }
        var snapped = base
        while snapped < count && snapped < base + 4 && bytes[snapped] & 0xC0 == 0x80 { snapped += 1 }
        return snapped
    }

    /// The last cut at or before `offset` (0 when there is none).
    func cut(atOrBefore offset: Int) -> Int {
        let k = offset / Self.cutSpacing
        guard k > 0 else { return 0 }
        if let c = cut(k), c <= offset { return c }
        return k > 1 ? (cut(k - 1) ?? 0) : 0
    }

    /// The first cut after `offset`, or the end of the text.
    func cut(after offset: Int) -> Int {
        var k = max(1, offset / Self.cutSpacing)
        while let c = cut(k) {
            if c > offset { return c }
            k += 1
        }
        return count
    }

    /// The start of the block holding `offset`.
    func blockStart(containing offset: Int) -> Int {
        let target = min(max(0, offset), max(0, count - 1))
        let floor = cut(atOrBefore: target)
        var start = lineStart(containing: target, floor: floor)
        while start > floor {
            if isNaturalBoundary(start) { return start }
            start = lineStart(containing: start - 1, floor: floor)
        }
        return floor
    }

    /// Where the block starting at `start` ends: the next block's start, or the end of the text.
    func blockEnd(from start: Int) -> Int {
        blockEnd(from: start, limit: cut(after: start))
    }

    /// `blockEnd(from:)` with the first cut after `start` already known (a whole-book pass
    /// computes each cut once, not once per block).
    func blockEnd(from start: Int, limit: Int) -> Int {
        var position = start
        while true {
            let feed = lineFeed(from: position, limit: limit)
            if feed >= limit { return limit }
            let next = feed + 1
            if next >= limit { return limit }
            if isNaturalBoundary(next) { return next }
            position = next
        }
    }
}
