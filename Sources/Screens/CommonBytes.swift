#if canImport(Glibc)
import Glibc
#endif

/// How much two byte strings share at their start and at their end, compared a block at a time
/// with `memcmp`: what an edit changed in a long paragraph, without walking it byte by byte.
enum CommonBytes {
    private static let block = 4096

    /// The length of the longest common start of `a` and `b`.
    static func prefix(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let count = min(a.count, b.count)
        guard count > 0, let aStart = a.baseAddress, let bStart = b.baseAddress else { return 0 }
        var same = 0
        while same + block <= count && memcmp(aStart + same, bStart + same, block) == 0 { same += block }
        while same < count && a[same] == b[same] { same += 1 }
        return same
    }

    /// The length of the longest common end of `a` and `b`, at most `limit`.
    static func suffix(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, limit: Int) -> Int {
        let count = min(limit, a.count, b.count)
        guard count > 0, let aStart = a.baseAddress, let bStart = b.baseAddress else { return 0 }
        let aEnd = aStart + a.count, bEnd = bStart + b.count
        var same = 0
        while same + block <= count && memcmp(aEnd - same - block, bEnd - same - block, block) == 0 { same += block }
        while same < count && a[a.count - 1 - same] == b[b.count - 1 - same] { same += 1 }
        return same
    }
}
