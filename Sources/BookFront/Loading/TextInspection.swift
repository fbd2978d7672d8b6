#if canImport(Glibc)
import Glibc
#endif

/// What the first bytes of a file say about it, before it is treated as a book.
enum TextSniff: Equatable {
    case text
    case binary
    case utf16
    case zip

    /// How much of the file the sniff looks at: enough to see a binary header, small enough to
    /// cost nothing on a 1 GB file.
    static let sampleSize = 64 * 1024

    /// `isWholeFile` false: `bytes` is the head of a longer file, so a UTF-8 sequence cut at its
    /// end is not counted as invalid.
    static func classify(_ bytes: UnsafeRawBufferPointer, isWholeFile: Bool = true) -> TextSniff {
        let sample = UnsafeRawBufferPointer(rebasing: bytes.prefix(sampleSize))
        let truncated = !isWholeFile || sample.count < bytes.count
        if sample.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return .zip }
        if sample.starts(with: [0xFF, 0xFE]) || sample.starts(with: [0xFE, 0xFF]) { return .utf16 }
        // Text never holds NUL; almost every binary format does within its first 64 KB.
        if let base = sample.baseAddress, memchr(base, 0, sample.count) != nil { return .binary }
        var suspicious = controlBytes(in: sample)
        suspicious += UTF8Check.invalidSequences(in: sample, allowTruncatedEnd: truncated)
        return suspicious * 10 > sample.count * 3 ? .binary : .text
    }

    /// Control bytes other than whitespace, form feed and ANSI escapes. Eight bytes at a time
    /// where none is below 0x20: most of a text, whose only controls are its line breaks.
    static func controlBytes(in bytes: UnsafeRawBufferPointer) -> Int {
        var count = 0, index = 0
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        while index < bytes.count {
            if index + 8 <= bytes.count {
                let word = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                // A byte below 0x20 borrows when 0x20 is taken from it (and had no high bit).
                if (word &- 0x20 &* ones) & ~word & highs == 0 {
                    index += 8
                    continue
                }
            }
            let end = min(index + 8, bytes.count)
            for byte in bytes[index..<end] where byte < 0x20 {
                switch byte {
                case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x1B: continue  // whitespace, form feed, ANSI escapes
                default: count += 1
                }
            }
            index = end
        }
        return count
    }
}

/// Counts invalid UTF-8 the way the app shows it: each maximal invalid subpart becomes one
/// U+FFFD (what Swift's `String(decoding:as:)` does), so the note's count matches the screen.
enum UTF8Check {
    static func invalidSequences(in bytes: UnsafeRawBufferPointer, allowTruncatedEnd: Bool = false,
                                 passed: ((Int) -> Void)? = nil) -> Int {
        let count = bytes.count
        guard count > 0, let base = bytes.baseAddress else { return 0 }
        var invalid = 0
        var index = 0
        var nextReport = PageReleaser.window
        while index < count {
            // Eight ASCII bytes at a time: most of any English book.
            if index + 8 <= count, base.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                index += 8
                if index >= nextReport, let passed {
                    passed(index)
                    nextReport = index + PageReleaser.window
                }
                continue
            }
            let lead = base.load(fromByteOffset: index, as: UInt8.self)
            if lead < 0x80 { index += 1; continue }
            let (length, secondLow, secondHigh): (Int, UInt8, UInt8)
            switch lead {
            case 0xC2...0xDF: (length, secondLow, secondHigh) = (2, 0x80, 0xBF)
            case 0xE0: (length, secondLow, secondHigh) = (3, 0xA0, 0xBF)
            case 0xE1...0xEC, 0xEE...0xEF: (length, secondLow, secondHigh) = (3, 0x80, 0xBF)
            case 0xED: (length, secondLow, secondHigh) = (3, 0x80, 0x9F)
            case 0xF0: (length, secondLow, secondHigh) = (4, 0x90, 0xBF)
            case 0xF1...0xF3: (length, secondLow, secondHigh) = (4, 0x80, 0xBF)
            case 0xF4: (length, secondLow, secondHigh) = (4, 0x80, 0x8F)
            default:
                invalid += 1
                index += 1
                continue
            }
            var consumed = 1
            var valid = true
            while consumed < length {
                guard index + consumed < count else {
                    // A sequence cut by the end of a sample is not the file's fault.
                    if allowTruncatedEnd { return invalid }
                    valid = false
                    break
                }
                let byte = base.load(fromByteOffset: index + consumed, as: UInt8.self)
                let (low, high): (UInt8, UInt8) = consumed == 1 ? (secondLow, secondHigh) : (0x80, 0xBF)
                guard byte >= low, byte <= high else { valid = false; break }
                consumed += 1
            }
            if !valid { invalid += 1 }
            index += consumed
        }
        return invalid
    }
}
