import CZlib

/// Builds zip archives field by field for the zip reader's tests, where every field can lie:
/// sizes, CRCs, offsets, counts, flags and methods are written as the test says, whatever the
/// data is. Deflated entries are compressed by zlib's own deflate at level 9.
struct RawZip {
    struct Entry {
        var name: String
        var data: [UInt8]
        var method: UInt16 = 0
        var flags: UInt16 = 0
        /// The bytes written after the local header; by default `data` stored or deflated.
        var payload: [UInt8]?
        var crc: UInt32?
        var compressedSize: UInt32?
        var uncompressedSize: UInt32?
        var localOffset: UInt32?
        var madeBy: UInt16 = 0x031E
        var external: UInt32 = 0o100644 << 16
        var localExtra: [UInt8] = []
        var centralExtra: [UInt8] = []
        /// Flag bit 3: the local header's CRC and sizes are zero and a descriptor follows the data.
        var dataDescriptor = false
        /// Central directory sizes and offset as 0xFFFFFFFF, their values in a ZIP64 extra field.
        var zip64 = false

        init(_ name: String, _ data: [UInt8], deflated: Bool = false) {
            self.name = name
            self.data = data
            self.method = deflated ? 8 : 0
        }

        init(_ name: String, _ text: String, deflated: Bool = false) {
            self.init(name, Array(text.utf8), deflated: deflated)
        }
    }

    var entries: [Entry] = []
    var comment: [UInt8] = []
    var entryCount: UInt16?
    var directoryOffset: UInt32?
    /// A ZIP64 end record and locator before the end record (whose fields then say 0xFFFF…).
    var zip64End = false

    init(_ entries: [Entry] = []) { self.entries = entries }

    func bytes() -> [UInt8] {
        var output: [UInt8] = []
        var central: [UInt8] = []
        for entry in entries {
            let offset = UInt32(output.count)
            let name = Array(entry.name.utf8)
            let payload = entry.payload ?? (entry.method == 8 ? Self.deflate(entry.data) : entry.data)
            let crc = entry.crc ?? Self.crc32(entry.data)
            let compressed = entry.compressedSize ?? UInt32(payload.count)
            let uncompressed = entry.uncompressedSize ?? UInt32(entry.data.count)
            let flags = entry.flags | (entry.dataDescriptor ? 0x0008 : 0)
            output += le32(0x0403_4B50) + le16(20) + le16(flags) + le16(entry.method) + le16(0) + le16(0x21)
            output += entry.dataDescriptor ? le32(0) + le32(0) + le32(0) : le32(crc) + le32(compressed) + le32(uncompressed)
            output += le16(UInt16(name.count)) + le16(UInt16(entry.localExtra.count)) + name + entry.localExtra + payload
            if entry.dataDescriptor { output += le32(0x0807_4B50) + le32(crc) + le32(compressed) + le32(uncompressed) }

            var extra = entry.centralExtra
            if entry.zip64 {
                extra += le16(1) + le16(24) + le64(UInt64(uncompressed)) + le64(UInt64(compressed)) + le64(UInt64(entry.localOffset ?? offset))
            }
            central += le32(0x0201_4B50) + le16(entry.madeBy) + le16(20) + le16(flags) + le16(entry.method) + le16(0) + le16(0x21)
            central += entry.zip64 ? le32(crc) + le32(.max) + le32(.max) : le32(crc) + le32(compressed) + le32(uncompressed)
            central += le16(UInt16(name.count)) + le16(UInt16(extra.count)) + le16(0) + le16(0) + le16(0)
            central += le32(entry.external) + le32(entry.zip64 ? .max : entry.localOffset ?? offset) + name + extra
        }
        let centralOffset = UInt32(output.count)
        output += central
        let count = entryCount ?? UInt16(entries.count)
        if zip64End {
            let recordOffset = UInt64(output.count)
            output += le32(0x0606_4B50) + le64(44) + le16(45) + le16(45) + le32(0) + le32(0)
            output += le64(UInt64(count)) + le64(UInt64(count)) + le64(UInt64(central.count)) + le64(UInt64(directoryOffset ?? centralOffset))
            output += le32(0x0706_4B50) + le32(0) + le64(recordOffset) + le32(1)
            output += le32(0x0605_4B50) + le16(0) + le16(0) + le16(.max) + le16(.max) + le32(.max) + le32(.max)
        } else {
            output += le32(0x0605_4B50) + le16(0) + le16(0) + le16(count) + le16(count)
            output += le32(UInt32(central.count)) + le32(directoryOffset ?? centralOffset)
        }
        output += le16(UInt16(comment.count)) + comment
        return output
    }

    /// Raw deflate (no zlib header), as zip stores it.
    static func deflate(_ bytes: [UInt8]) -> [UInt8] {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer { deflateEnd(stream); stream.deinitialize(count: 1); stream.deallocate() }
        precondition(wl_deflate_init_raw(stream, 9) == Z_OK)
        var output = [UInt8](repeating: 0, count: Int(deflateBound(stream, uLong(bytes.count))) + 64)
        var input = bytes
        let written = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.pointee.next_in = source.baseAddress
                stream.pointee.avail_in = uInt(source.count)
                stream.pointee.next_out = target.baseAddress
                stream.pointee.avail_out = uInt(target.count)
                precondition(CZlib.deflate(stream, Z_FINISH) == Z_STREAM_END)
                return target.count - Int(stream.pointee.avail_out)
            }
        }
        return Array(output[0..<written])
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 { ZipWriter.crc32(bytes) }

    private func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    private func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> ($0 * 8)) & 0xFF) } }
    private func le64(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8((value >> ($0 * 8)) & 0xFF) } }
}
