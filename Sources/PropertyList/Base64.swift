/// Base64 for `<data>` elements, working on bytes: Foundation's decoder cannot say where the
/// input went wrong, and both directions are hot in large XML files.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// 0...63 for alphabet bytes, `skip` for XML whitespace, `pad` for '=', `bad` otherwise.
    private static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: bad, count: 256)
        for (i, c) in alphabet.enumerated() { table[Int(c)] = UInt8(i) }
        for c in " \t\r\n".utf8 { table[Int(c)] = skip }
        table[Int(UInt8(ascii: "="))] = pad
        return table
    }()
    private static let skip: UInt8 = 0xFE
    private static let pad: UInt8 = 0xFD
    private static let bad: UInt8 = 0xFF

    /// The encoded length of `count` bytes, padding included.
    static func encodedCount(_ count: Int) -> Int { (count + 2) / 3 * 4 }

    /// Writes the encoding of `bytes` at the start of `out`, which holds at least
    /// `encodedCount(bytes.count)` bytes, and returns how many it wrote.
    static func encode(_ bytes: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer) -> Int {
        alphabet.withUnsafeBufferPointer { a in
            var i = 0
            var o = 0
            let n = bytes.count
            while i + 3 <= n {
                let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
                out[o] = a[Int(v >> 18)]; out[o + 1] = a[Int(v >> 12 & 63)]
                out[o + 2] = a[Int(v >> 6 & 63)]; out[o + 3] = a[Int(v & 63)]
                i += 3
                o += 4
            }
            if n - i == 1 {
                let v = UInt32(bytes[i]) << 16
                out[o] = a[Int(v >> 18)]; out[o + 1] = a[Int(v >> 12 & 63)]
                out[o + 2] = UInt8(ascii: "="); out[o + 3] = UInt8(ascii: "=")
                o += 4
            } else if n - i == 2 {
                let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
                out[o] = a[Int(v >> 18)]; out[o + 1] = a[Int(v >> 12 & 63)]
                out[o + 2] = a[Int(v >> 6 & 63)]; out[o + 3] = UInt8(ascii: "=")
                o += 4
            }
            return o
        }
    }

    /// Decodes, ignoring whitespace; padding is optional but nothing may follow it.
    /// Returns the offset of the first offending byte on failure.
    static func decode(_ bytes: UnsafeRawBufferPointer) -> Result<[UInt8], Base64Failure> {
        var out = [UInt8]()
        out.reserveCapacity(bytes.count / 4 * 3 + 3)
        var acc: UInt32 = 0
        var pending = 0
        var padding = 0
        let failure: Int? = decodeTable.withUnsafeBufferPointer { table in
            for i in 0..<bytes.count {
                let v = table[Int(bytes[i])]
                if v < 64 {
                    if padding > 0 { return i }
                    acc = acc << 6 | UInt32(v)
                    pending += 1
                    if pending == 4 {
                        out.append(UInt8(acc >> 16)); out.append(UInt8(acc >> 8 & 0xFF)); out.append(UInt8(acc & 0xFF))
                        acc = 0
                        pending = 0
                    }
                } else if v == pad {
                    if pending < 2 || pending + padding >= 4 { return i }
                    padding += 1
                } else if v != skip {
                    return i
                }
            }
            return nil
        }
        if let failure { return .failure(Base64Failure(offset: failure)) }
        switch pending {
        case 0: break
        case 1: return .failure(Base64Failure(offset: bytes.count))
        case 2: out.append(UInt8(acc >> 4 & 0xFF))
        default: out.append(UInt8(acc >> 10 & 0xFF)); out.append(UInt8(acc >> 2 & 0xFF))
        }
        return .success(out)
    }
}

struct Base64Failure: Error {
    let offset: Int
}
