import Foundation

/// Writes zip archives for the EPUB tests, byte by byte, so a test can build what a real tool
/// would refuse to make: an entry named "../escape.txt", one that claims 300 MB. Entries are
/// stored, or "deflated" into stored deflate blocks (real inflating, no compression), which is
/// how a test makes an entry inflate to more than it claims.
struct ZipWriter {
    struct Entry {
        var path: String
        var bytes: [UInt8]
        /// The uncompressed size written in the headers; the real size when nil.
        var claimedSize: UInt32?
        var deflated = false
    }

    var entries: [Entry] = []

    mutating func add(_ path: String, _ text: String, claimedSize: UInt32? = nil, deflated: Bool = false) {
        entries.append(Entry(path: path, bytes: Array(text.utf8), claimedSize: claimedSize, deflated: deflated))
    }

    /// A raw deflate stream of stored blocks (RFC 1951, BTYPE 00).
    static func storedDeflate(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        var start = 0
        repeat {
            let end = min(bytes.count, start + 65_535)
            let length = UInt16(end - start)
            output.append(end == bytes.count ? 1 : 0)
            output += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            output += bytes[start..<end]
            start = end
        } while start < bytes.count
        return output
    }

    func data() -> Data {
        var output: [UInt8] = []
        var central: [UInt8] = []
        for entry in entries {
            let offset = UInt32(output.count)
            let name = Array(entry.path.utf8)
            let crc = ZipWriter.crc32(entry.bytes)
            let stored = entry.deflated ? ZipWriter.storedDeflate(entry.bytes) : entry.bytes
            let method: UInt16 = entry.deflated ? 8 : 0
            let size = UInt32(stored.count)
            let claimed = entry.claimedSize ?? UInt32(entry.bytes.count)
            output += le32(0x0403_4B50) + le16(20) + le16(0x0800) + le16(method) + le16(0) + le16(0x21)
            output += le32(crc) + le32(size) + le32(claimed) + le16(UInt16(name.count)) + le16(0)
            output += name + stored
            central += le32(0x0201_4B50) + le16(0x031E) + le16(20) + le16(0x0800) + le16(method) + le16(0) + le16(0x21)
            central += le32(crc) + le32(size) + le32(claimed) + le16(UInt16(name.count)) + le16(0) + le16(0)
            central += le16(0) + le16(0) + le32(0o100644 << 16) + le32(offset) + name
        }
        let centralOffset = UInt32(output.count)
        output += central
        output += le32(0x0605_4B50) + le16(0) + le16(0) + le16(UInt16(entries.count)) + le16(UInt16(entries.count))
        output += le32(UInt32(central.count)) + le32(centralOffset) + le16(0)
        return Data(output)
    }

    func write(name: String) throws -> String {
        let url = try BookFixture.temporaryFolder().appendingPathComponent(name)
        try data().write(to: url)
        return url.path
    }

    private func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    private func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> ($0 * 8)) & 0xFF) } }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
