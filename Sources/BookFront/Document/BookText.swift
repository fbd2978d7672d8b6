import FoundationEssentials

/// A book's text as UTF-8 bytes, never copied into one big String: a 1 GB file is mapped, not
/// read, and every position in the app (the reading position, bookmarks, chapter starts,
/// search hits) is a byte offset into these bytes. Line endings are kept as they are (CRLF
/// included); invalid UTF-8 is decoded with replacement characters where it is shown.
public final class BookText: @unchecked Sendable {
    // Immutable after init; Data is a value whose storage is never written, so sharing it
    // across threads (the background page counter) is safe.
    public let bytes: Data
    /// True when `bytes` is a memory map of the file (big books): a scan over the whole text can
    /// then give back the pages it passed (`releaseResidentPages`) and stay bounded in memory.
    public let isMapped: Bool

    public init(bytes: Data, isMapped: Bool = false) {
        self.bytes = bytes
        self.isMapped = isMapped
    }
    public convenience init(_ string: String) { self.init(bytes: Data(string.utf8)) }

    public var count: Int { bytes.count }

    /// The text between two byte offsets, with invalid UTF-8 replaced by U+FFFD.
    public func string(_ range: Range<Int>) -> String {
        let clamped = max(0, range.lowerBound)..<min(count, max(range.upperBound, range.lowerBound))
        guard !clamped.isEmpty else { return "" }
        let start = bytes.startIndex
        return String(decoding: bytes[(start + clamped.lowerBound)..<(start + clamped.upperBound)], as: UTF8.self)
    }

    public func byte(at offset: Int) -> UInt8 {
        bytes[bytes.startIndex + offset]
    }
}
