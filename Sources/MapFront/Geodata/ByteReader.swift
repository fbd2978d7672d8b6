/// Bounds-checked reads of little- and big-endian numbers from a file's bytes. Every read
/// checks its range first and throws a `GeodataError` naming the offset, so a truncated or
/// corrupt file can never read past the end of its buffer.
struct ByteReader {
    let bytes: [UInt8]
    let file: String

    init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
    }

    var count: Int { bytes.count }

    func error(_ reason: String) -> GeodataError { GeodataError(file: file, reason: reason) }

    /// Throws unless `length` bytes from `offset` are inside the file.
    func require(_ offset: Int, _ length: Int, _ what: @autoclosure () -> String) throws(GeodataError) {
        guard offset >= 0, length >= 0, offset <= bytes.count - length else {
            throw error("\(what()) at byte \(offset) runs past the end of the file (\(bytes.count) bytes): the file is truncated or corrupt")
        }
    }

    func uint8(at offset: Int) throws(GeodataError) -> UInt8 {
        try require(offset, 1, "a byte")
        return bytes[offset]
    }

    func uint16LE(at offset: Int) throws(GeodataError) -> UInt16 {
        try require(offset, 2, "a 16-bit number")
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    func uint32LE(at offset: Int) throws(GeodataError) -> UInt32 {
        try require(offset, 4, "a 32-bit number")
        return unsafeUInt32LE(offset)
    }

    func int32LE(at offset: Int) throws(GeodataError) -> Int {
        Int(Int32(bitPattern: try uint32LE(at: offset)))
    }

    func int32BE(at offset: Int) throws(GeodataError) -> Int {
        try require(offset, 4, "a 32-bit number")
        let value = UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
        return Int(Int32(bitPattern: value))
    }

    func doubleLE(at offset: Int) throws(GeodataError) -> Double {
        try require(offset, 8, "a coordinate")
        return unsafeDoubleLE(offset)
    }

    /// For loops that checked their whole range once with `require`.
    func unsafeDoubleLE(_ offset: Int) -> Double {
        let low = UInt64(unsafeUInt32LE(offset)), high = UInt64(unsafeUInt32LE(offset + 4))
        return Double(bitPattern: low | high << 32)
    }

    private func unsafeUInt32LE(_ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }
}

extension ByteReader {
    /// Reads a whole file; a missing or unreadable file is an error naming it.
    static func contents(ofFile path: String) throws(GeodataError) -> ByteReader {
        let name = fileName(path)
        guard let handle = fopen(path, "rb") else {
            throw GeodataError(file: name, reason: "cannot be opened (\(String(cString: strerror(errno))))")
        }
        defer { fclose(handle) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let read = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, handle) }
            if read > 0 { bytes.append(contentsOf: chunk[0..<read]) }
            if read < chunk.count {
                if ferror(handle) != 0 { throw GeodataError(file: name, reason: "could not be read to the end") }
                break
            }
        }
        return ByteReader(bytes: bytes, file: name)
    }

    static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
