import FoundationEssentials

/// The bytes of a change file (all integers big-endian):
///
///     header   "WLKV" 0x01 0x00 0x00 0x00            (magic, format version 1, reserved)
///     record   u32 body length, u32 CRC-32 of the body, body
///     body     u16 key length, key (UTF-8), u64 hybrid clock, u8 device length, device (ASCII),
///              u8 flags (1 = removal), the value's binary property list (the rest; empty for a removal)
///
/// The length and checksum let a reader tell a record that is all there from one a sync tool or a
/// killed writer left half written, and from damage; see `ChangeFileScanner`.
enum ChangeFileFormat {
    static let header: [UInt8] = [0x57, 0x4C, 0x4B, 0x56, 0x01, 0x00, 0x00, 0x00]
    static let frameSize = 8
    /// The smallest body: empty key, a one-character device, no value.
    static let minimumBodySize = 2 + 8 + 1 + 1 + 1
    /// A value is at most 1 MB (the store's whole quota); anything much longer is damage.
    static let maximumBodySize = 4 << 20
    static let removalFlag: UInt8 = 1

    static let version: UInt8 = 1

    /// The version a file's header names when it is our magic with a newer version: such a
    /// file is another build's to read and write, and this one leaves it as it is.
    static func newerVersion(in bytes: UnsafeRawBufferPointer) -> UInt8? {
        guard bytes.count >= 5, zip(bytes.prefix(4), header.prefix(4)).allSatisfy({ $0 == $1 }), bytes[4] > version else { return nil }
        return bytes[4]
    }

    /// One record, framed, appended to `buffer`.
    static func append(_ record: ChangeRecord, to buffer: inout [UInt8]) {
        let key = Array(record.key.utf8.prefix(Int(UInt16.max)))
        let device = Array(record.stamp.device.rawValue.utf8)
        let value = record.payload ?? Data()
        let bodySize = 2 + key.count + 8 + 1 + device.count + 1 + value.count
        let start = buffer.count
        appendInteger(UInt32(bodySize), to: &buffer)
        appendInteger(UInt32(0), to: &buffer)  // the checksum, filled in below
        appendInteger(UInt16(key.count), to: &buffer)
        buffer += key
        appendInteger(record.stamp.clock.rawValue, to: &buffer)
        buffer.append(UInt8(device.count))
        buffer += device
        buffer.append(record.isRemoval ? removalFlag : 0)
        buffer += value
        let checksum = buffer.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[(start + frameSize)...])) }
        withUnsafeBytes(of: checksum.bigEndian) { bytes in
            for index in 0 ..< 4 { buffer[start + 4 + index] = bytes[index] }
        }
    }

    /// A whole file: the header and the records.
    static func file(_ records: [ChangeRecord]) -> [UInt8] {
        var buffer = header
        for record in records { append(record, to: &buffer) }
        return buffer
    }

    private static func appendInteger<T: FixedWidthInteger>(_ value: T, to buffer: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { buffer += $0 }
    }
}
