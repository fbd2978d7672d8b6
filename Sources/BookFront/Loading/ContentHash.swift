/// The id a book's reading position and bookmarks are kept under: a hash of its text, stable
/// across runs and machines (Swift's `Hasher` is seeded per process, so it cannot be used).
///
/// XXH64 (written from its public specification), chosen for speed: it reads 32 bytes per step,
/// so a 10 MB book hashes in a few milliseconds. Texts up to `fullHashLimit` are hashed whole.
/// Above it (a 1 GB file) the hash covers the length, the first and last 4 MB and 64 slices of
/// 64 KB spread evenly between them: opening stays fast and touches 12 MB instead of the whole
/// file. Two different texts of that size that agree on all of those bytes would share an id;
/// a book and an edit of it that changes no sampled byte and keeps the length would too, which
/// only means the edited copy opens at the old place.
public enum ContentHash {
    public static let fullHashLimit = 64 << 20
    static let edgeSize = 4 << 20
    static let sliceCount = 64
    static let sliceSize = 64 * 1024

    /// 16 lowercase hex digits.
    public static func id(of text: BookText) -> String {
        hex(text.withBytes { bytes in value(of: bytes, releasing: text) })
    }

    public static func id(of bytes: [UInt8]) -> String {
        hex(bytes.withUnsafeBytes { value(of: $0, releasing: nil) })
    }

    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    static func value(of bytes: UnsafeRawBufferPointer, releasing text: BookText?, fullHashLimit: Int = fullHashLimit) -> UInt64 {
        guard bytes.count > fullHashLimit, bytes.count >= 2 * edgeSize + sliceCount * sliceSize else {
            var releaser = text.map(PageReleaser.init)
            defer { releaser?.finish() }
            return XXH64.hash(bytes, seed: 0) { releaser?.passed($0) }
        }
        // Sampled: a different seed keeps these ids apart from whole-text ids by construction.
        var sample: [UInt8] = []
        sample.reserveCapacity(8 + 2 * edgeSize + sliceCount * sliceSize)
        withUnsafeBytes(of: UInt64(bytes.count).littleEndian) { sample.append(contentsOf: $0) }
        // The kernel may map a whole large folio (2 MB and more) for one touched page, so each
        // piece gives back a margin around itself, not only its own pages.
        let margin = 4 << 20
        func take(_ range: Range<Int>) {
            sample.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[range]))
            text?.releaseResidentPages(max(0, range.lowerBound - margin)..<min(bytes.count, range.upperBound + margin))
        }
        take(0..<edgeSize)
        let middle = edgeSize..<(bytes.count - edgeSize)
        let stride = (middle.count - sliceSize) / (sliceCount - 1)
        for slice in 0..<sliceCount {
            let start = middle.lowerBound + slice * stride
            take(start..<(start + sliceSize))
        }
        take((bytes.count - edgeSize)..<bytes.count)
        return sample.withUnsafeBytes { XXH64.hash($0, seed: 1) }
    }
}

/// XXH64 by Yann Collet's specification (xxhash.com, "xxhash_spec.md").
enum XXH64 {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    @inline(__always) private static func rotate(_ value: UInt64, _ bits: UInt64) -> UInt64 {
        (value << bits) | (value >> (64 - bits))
    }

    @inline(__always) private static func round(_ accumulator: UInt64, _ lane: UInt64) -> UInt64 {
        rotate(accumulator &+ lane &* prime2, 31) &* prime1
    }

    @inline(__always) private static func merge(_ hash: UInt64, _ accumulator: UInt64) -> UInt64 {
        (hash ^ round(0, accumulator)) &* prime1 &+ prime4
    }

    /// `passed` is told the offset reached every few megabytes (to give back mapped pages).
    static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64, passed: ((Int) -> Void)? = nil) -> UInt64 {
        let count = bytes.count
        guard let base = bytes.baseAddress, count > 0 else {
            return avalanche(seed &+ prime5)
        }
        @inline(__always) func lane(_ offset: Int) -> UInt64 {
            UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
        var offset = 0
        var hash: UInt64
        if count >= 32 {
            var v1 = seed &+ prime1 &+ prime2
            var v2 = seed &+ prime2
            var v3 = seed
            var v4 = seed &- prime1
            let stripesEnd = count - 32
            var nextReport = PageReleaser.window
            while offset <= stripesEnd {
                v1 = round(v1, lane(offset))
                v2 = round(v2, lane(offset + 8))
                v3 = round(v3, lane(offset + 16))
                v4 = round(v4, lane(offset + 24))
                offset += 32
                if offset >= nextReport, let passed {
                    passed(offset)
                    nextReport = offset + PageReleaser.window
                }
            }
            hash = rotate(v1, 1) &+ rotate(v2, 7) &+ rotate(v3, 12) &+ rotate(v4, 18)
            hash = merge(hash, v1)
            hash = merge(hash, v2)
            hash = merge(hash, v3)
            hash = merge(hash, v4)
        } else {
            hash = seed &+ prime5
        }
        hash = hash &+ UInt64(count)
        while offset + 8 <= count {
            hash = rotate(hash ^ round(0, lane(offset)), 27) &* prime1 &+ prime4
            offset += 8
        }
        if offset + 4 <= count {
            let word = UInt64(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
            hash = rotate(hash ^ (word &* prime1), 23) &* prime2 &+ prime3
            offset += 4
        }
        while offset < count {
            let byte = UInt64(base.load(fromByteOffset: offset, as: UInt8.self))
            hash = rotate(hash ^ (byte &* prime5), 11) &* prime1
            offset += 1
        }
        return avalanche(hash)
    }

    private static func avalanche(_ input: UInt64) -> UInt64 {
        var hash = input
        hash ^= hash >> 33
        hash = hash &* prime2
        hash ^= hash >> 29
        hash = hash &* prime3
        hash ^= hash >> 32
        return hash
    }
}
