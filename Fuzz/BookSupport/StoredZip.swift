import Foundation

/// A minimal zip writer (stored entries, no compression) for FuzzEPUBContents: the harness turns
/// fuzzed file contents into a well-formed archive with correct CRCs, so mutations reach the
/// EPUB's XML instead of dying at the CRC check. Written here, apart from the app's zip reader, so
/// the archive does not come from the code that reads it.
public enum StoredZip {
    public static func archive(_ files: [(path: String, contents: Data)]) -> Data {
        var out = Data()
        var central = Data()
        for (path, contents) in files {
            let name = Data(path.utf8)
            let crc = crc32(contents)
            let offset = UInt32(truncatingIfNeeded: out.count)
            out.append(le32(0x0403_4b50))
            out.append(le16(20)); out.append(le16(0)); out.append(le16(0))  // version, flags, stored
            out.append(le16(0)); out.append(le16(0x21))                      // time, date (1980-01-01)
            out.append(le32(crc))
            out.append(le32(UInt32(contents.count))); out.append(le32(UInt32(contents.count)))
            out.append(le16(UInt16(name.count))); out.append(le16(0))
            out.append(name)
            out.append(contents)

            central.append(le32(0x0201_4b50))
            central.append(le16(20)); central.append(le16(20)); central.append(le16(0)); central.append(le16(0))
            central.append(le16(0)); central.append(le16(0x21))
            central.append(le32(crc))
            central.append(le32(UInt32(contents.count))); central.append(le32(UInt32(contents.count)))
            central.append(le16(UInt16(name.count)))
            central.append(le16(0)); central.append(le16(0)); central.append(le16(0)); central.append(le16(0))
            central.append(le32(0o100644 << 16))                            // external attributes: a file
            central.append(le32(offset))
            central.append(name)
        }
        let centralOffset = UInt32(truncatingIfNeeded: out.count)
        out.append(central)
        out.append(le32(0x0605_4b50))
        out.append(le16(0)); out.append(le16(0))
        out.append(le16(UInt16(files.count))); out.append(le16(UInt16(files.count)))
        out.append(le32(UInt32(central.count))); out.append(le32(centralOffset))
        out.append(le16(0))
        return out
    }

    private static let table: [UInt32] = (0..<256).map { index -> UInt32 in
        var c = UInt32(index)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    public static func crc32(_ data: Data) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in data { c = table[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }

    private static func le16(_ value: UInt16) -> Data { withUnsafeBytes(of: value.littleEndian) { Data($0) } }
    private static func le32(_ value: UInt32) -> Data { withUnsafeBytes(of: value.littleEndian) { Data($0) } }
}
