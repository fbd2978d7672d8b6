/// Strict UTF-8 checking that reports where the input goes wrong, which the standard library's
/// decoding initialisers (they substitute U+FFFD) do not.
enum UTF8Validation {
    /// Offset of the first byte that does not start or continue a well-formed sequence
    /// (overlong forms, surrogates and values past U+10FFFF included), or nil.
    static func firstInvalidOffset(in bytes: UnsafeRawBufferPointer) -> Int? {
        let n = bytes.count
        var i = 0
        while i < n {
            // ASCII dominates property lists; test eight bytes at a time.
            while i + 8 <= n, bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                i += 8
            }
            guard i < n else { break }
            let lead = bytes[i]
            if lead < 0x80 { i += 1; continue }
            let length: Int
            var lower: UInt8 = 0x80
            var upper: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; upper = 0x9F
            case 0xF0: length = 4; lower = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; upper = 0x8F
            default: return i
            }
            guard i + length <= n else { return i }
            guard (lower...upper).contains(bytes[i + 1]) else { return i }
            for k in 2..<max(2, length) where bytes[i + k] & 0xC0 != 0x80 { return i }
            i += length
        }
        return nil
    }
}
