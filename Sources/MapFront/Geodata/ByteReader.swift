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
    /// The largest map file read: ten times Natural Earth's largest, so a device or a runaway
    /// file named like a shapefile is refused instead of filling memory.
    static let maximumFileBytes = 256 << 20

    static func contents(ofFile path: String) throws(GeodataError) -> ByteReader {
        let name = fileName(path)
        // Non-blocking so that a FIFO named like a map file cannot hold the loader forever.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            throw GeodataError(file: name, reason: "cannot be opened (\(String(cString: strerror(errno))))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw GeodataError(file: name, reason: "is not a regular file")
        }
        let size = Int(status.st_size)
        guard size <= maximumFileBytes else {
            throw GeodataError(file: name, reason: "has \(size) bytes, more than the \(maximumFileBytes >> 20) MiB a map file may have")
        }
        // Sized by fstat and filled by read, never zeroed first: these reads are on the first
        // frame's path. A file that grows meanwhile is read as it was; one that shrinks is short,
        // and the readers' own length checks say so.
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            while count < size {
                let got = read(descriptor, buffer.baseAddress! + count, size - count)
                if got > 0 { count += got; continue }
                if got < 0 && errno == EINTR { continue }
                failed = got < 0
                break
            }
        }
        if failed { throw GeodataError(file: name, reason: "could not be read to the end") }
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
