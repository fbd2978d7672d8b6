import FoundationEssentials

/// Little-endian fields and length-prefixed UTF-8 strings, for the book index file.
struct IndexByteWriter {
    private(set) var bytes: [UInt8] = []

    mutating func u8(_ value: UInt8) { bytes.append(value) }
    mutating func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func int(_ value: Int) { u64(UInt64(bitPattern: Int64(value))) }
    mutating func i64(_ value: Int64) { u64(UInt64(bitPattern: value)) }
    mutating func raw(_ value: [UInt8]) { bytes.append(contentsOf: value) }

    mutating func string(_ value: String) {
        let utf8 = Array(value.utf8)
        u32(UInt32(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    mutating func optionalString(_ value: String?) {
        u8(value == nil ? 0 : 1)
        if let value { string(value) }
    }
}

/// Reads what `IndexByteWriter` wrote, never past the end: every read of bytes that are not
/// there, every count or string over its bound and every string that is not UTF-8 throws.
struct IndexByteReader {
    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    private let bytes: [UInt8]
    private(set) var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var remaining: Int { bytes.count - position }

    mutating func take(_ count: Int) throws -> ArraySlice<UInt8> {
        guard count >= 0, count <= remaining else { throw Malformed(description: "ends early at byte \(position)") }
        defer { position += count }
        return bytes[position..<(position + count)]
    }

    mutating func u8() throws -> UInt8 { try take(1).first! }

    mutating func u32() throws -> UInt32 {
        try take(4).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }

    mutating func u64() throws -> UInt64 {
        try take(8).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }

    mutating func i64() throws -> Int64 { Int64(bitPattern: try u64()) }

    /// A non-negative integer no larger than `limit`.
    mutating func int(atMost limit: Int, _ what: String) throws -> Int {
        let value = Int64(bitPattern: try u64())
        guard value >= 0, value <= Int64(limit) else { throw Malformed(description: "\(what) \(value) is out of range 0...\(limit)") }
        return Int(value)
    }

    mutating func count(atMost limit: Int, _ what: String) throws -> Int {
        let value = try u32()
        guard Int(value) <= limit else { throw Malformed(description: "\(what): \(value), more than \(limit)") }
        return Int(value)
    }

    mutating func string(atMost limit: Int, _ what: String) throws -> String {
        let length = try count(atMost: limit, "\(what) length")
        guard let text = String(validating: try take(length), as: UTF8.self) else { throw Malformed(description: "\(what) is not UTF-8") }
        return text
    }

    mutating func optionalString(atMost limit: Int, _ what: String) throws -> String? {
        switch try u8() {
        case 0: return nil
        case 1: return try string(atMost: limit, what)
        case let flag: throw Malformed(description: "\(what) has presence flag \(flag)")
        }
    }
}
