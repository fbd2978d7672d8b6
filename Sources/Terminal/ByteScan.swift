/// Finding the first byte of a kind in a buffer, eight bytes at a time wherever a whole word can
/// be ruled out at once: plain text is crossed at a fraction of a byte-by-byte loop's cost.
public enum ByteScan {
    @usableFromInline static let ones: UInt64 = 0x0101_0101_0101_0101
    @usableFromInline static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The first offset from `offset` (before `limit`) whose byte `matches`, or `limit`.
    /// `mayHold` says whether an eight-byte word can hold such a byte; it may say yes for a word
    /// that holds none (the bytes are then looked at one by one), never no for one that does.
    @inlinable
    public static func first(in bytes: UnsafeBufferPointer<UInt8>, from offset: Int, limit: Int,
                             wordMayHold mayHold: (UInt64) -> Bool, matches: (UInt8) -> Bool) -> Int {
        var index = offset
        if let base = bytes.baseAddress {
            while index + 8 <= limit && !mayHold(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) { index += 8 }
        }
        while index < limit && !matches(bytes[index]) { index += 1 }
        return index
    }

    /// Whether a byte of `word` is below `bound` (at most 0x80) or has its high bit set: taking
    /// `bound` from each byte borrows exactly where one is below it.
    @inlinable
    public static func hasByte(below bound: UInt8, orNonASCIIIn word: UInt64) -> Bool {
        (word | ((word &- ones &* UInt64(bound)) & ~word)) & highs != 0
    }

    /// Whether a byte of `word` is `value`.
    @inlinable
    public static func hasByte(_ value: UInt8, in word: UInt64) -> Bool {
        let differences = word ^ (ones &* UInt64(value))
        return (differences &- ones) & ~differences & highs != 0
    }
}
