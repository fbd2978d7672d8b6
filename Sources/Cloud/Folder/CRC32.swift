/// CRC-32 (the IEEE polynomial of zip, PNG and Ethernet, reflected, 0xEDB88320). Our own small
/// one: Foundation on Linux offers none, and zlib would be a new dependency for a few lines.
/// Python's `zlib.crc32` computes the same value, which the reference merge relies on.
///
/// Slicing by 8 (eight tables, eight bytes a step): every byte of every change file is checked
/// on each first read, and this is about four times as fast as a byte at a time.
enum CRC32 {
    static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for index in 0 ..< 256 {
            var value = UInt32(index)
            for _ in 0 ..< 8 { value = value & 1 != 0 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1 }
            tables[index] = value
        }
        for index in 0 ..< 256 {
            for slice in 1 ..< 8 {
                let previous = tables[(slice - 1) * 256 + index]
                tables[slice * 256 + index] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
            }
        }
        return tables
    }()

    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        tables.withUnsafeBufferPointer { table in
            var crc: UInt32 = 0xFFFF_FFFF
            var index = 0
            let count = bytes.count
            while index + 8 <= count {
                let low = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt32.self)) ^ crc
                let high = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index + 4, as: UInt32.self))
                crc = table[7 * 256 + Int(low & 0xFF)] ^ table[6 * 256 + Int((low >> 8) & 0xFF)]
                    ^ table[5 * 256 + Int((low >> 16) & 0xFF)] ^ table[4 * 256 + Int(low >> 24)]
                    ^ table[3 * 256 + Int(high & 0xFF)] ^ table[2 * 256 + Int((high >> 8) & 0xFF)]
                    ^ table[1 * 256 + Int((high >> 16) & 0xFF)] ^ table[Int(high >> 24)]
                index += 8
            }
            while index < count {
                crc = table[Int((crc ^ UInt32(bytes[index])) & 0xFF)] ^ (crc >> 8)
                index += 1
            }
            return crc ^ 0xFFFF_FFFF
        }
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0) }
    }
}
