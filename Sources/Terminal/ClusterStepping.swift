/// Stepping through a string's grapheme clusters by UTF-8 offset, with a shortcut for ASCII:
/// an ASCII byte followed by another ASCII byte (or the end) is a whole cluster of one column
/// (CR LF is the one such pair that is a single cluster), so drafts and paragraphs of plain
/// text skip grapheme breaking and the width tables. `CellBuffer.write` steps the same way with
/// its own rule for which cells need no table.
public enum ClusterStepping {
    /// Whether the byte at `offset` of `bytes` is a cluster on its own. Inlinable: the editor
    /// asks it for every byte of a paragraph it lays out.
    @inlinable
    public static func isLoneASCII(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
        let byte = bytes[offset]
        let next: UInt8 = offset + 1 < bytes.count ? bytes[offset + 1] : 0
        return byte < 0x80 && next < 0x80 && !(byte == 0x0D && next == 0x0A)
    }

    /// The end of the run of bytes from `offset` (before `limit`) that are each a cluster on
    /// their own, as `isLoneASCII` judges them; `offset` itself when that byte is not one. A CR
    /// ends a run (with a LF after it, the pair is one cluster), and so does the last ASCII byte
    /// before a non-ASCII one, which a combining mark may join.
    @inlinable
    public static func loneASCIIRunEnd(_ bytes: UnsafeBufferPointer<UInt8>, from offset: Int, limit: Int) -> Int {
        let limit = min(limit, bytes.count)
        var end = offset
        while end < limit {
            end = firstControlOrNonASCII(bytes, from: end, limit: limit)
            guard end < limit else { break }
            let byte = bytes[end]
            if byte >= 0x80 || byte == 0x0D { break }
            end += 1
        }
        if end > offset && end < bytes.count && bytes[end] >= 0x80 { end -= 1 }
        return end
    }

    /// The first offset from `offset` (before `limit`) whose byte is below 0x0E (a control up to
    /// CR: tab and the line breaks among them) or not ASCII; `limit` when there is none.
    @inlinable
    public static func firstControlOrNonASCII(_ bytes: UnsafeBufferPointer<UInt8>, from offset: Int, limit: Int) -> Int {
        ByteScan.first(in: bytes, from: offset, limit: limit, wordMayHold: { ByteScan.hasByte(below: 0x0E, orNonASCIIIn: $0) },
                       matches: { $0 >= 0x80 || $0 < 0x0E })
    }

    /// Steps through `text` (whose bytes are `bytes`) from `start`, a cluster boundary and the
    /// clusters before it, a cluster at a time (plain text a run at a time), until the offset
    /// reaches `offsetLimit` (or the first boundary past it) or `clusterLimit` clusters are
    /// counted: the boundary reached and its count.
    public static func advance(in text: String, bytes: UnsafeBufferPointer<UInt8>, from start: (offset: Int, clusters: Int),
                               toOffset offsetLimit: Int, clusterLimit: Int = .max) -> (offset: Int, clusters: Int) {
        let offsetLimit = min(offsetLimit, bytes.count)
        var offset = min(start.offset, offsetLimit), clusters = start.clusters
        while offset < offsetLimit && clusters < clusterLimit {
            let run = loneASCIIRunEnd(bytes, from: offset, limit: offset + min(offsetLimit - offset, clusterLimit - clusters))
            if run > offset {
                clusters += run - offset
                offset = run
            } else {
                offset += cluster(at: offset, in: text).utf8.count
                clusters += 1
            }
        }
        return (offset, clusters)
    }

    /// Calls `body` with `text`'s UTF-8 bytes, contiguous.
    public static func withBytes<R>(of text: String, _ body: (String, UnsafeBufferPointer<UInt8>) -> R) -> R {
        var text = text
        text.makeContiguousUTF8()
        let contiguous = text
        return contiguous.utf8.withContiguousStorageIfAvailable { body(contiguous, $0) }!
    }

    /// The cluster starting at UTF-8 offset `offset` of `text` (a cluster boundary).
    public static func cluster(at offset: Int, in text: String) -> Character {
        text[text.utf8.index(text.startIndex, offsetBy: offset)]
    }
}
