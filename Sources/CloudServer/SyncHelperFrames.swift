import FoundationEssentials
import PropertyList
#if canImport(Glibc)
import Glibc
#endif

/// The messages between the app and its sync helper, one per frame: a 4-byte big-endian
/// length, then that many bytes of binary property list. Each side reads the other's frames
/// under a size cap and property-list limits, so a broken or hostile peer gets a clear error
/// rather than a huge allocation or a deep recursion.
public enum SyncHelperFrames {
    public struct Bounds: Sendable {
        public var maximumBytes: Int
        public var limits: PropertyListLimits

        public init(maximumBytes: Int, limits: PropertyListLimits) {
            self.maximumBytes = maximumBytes
            self.limits = limits
        }
    }

    /// What the app accepts from the helper: a record holds at most a 1 KiB key and a value of
    /// 1 MiB and a little (the largest row the backend fetches), and the helper sends a fetch's
    /// records in frames of about 1 MiB, so 4 MiB leaves room and bounds every read.
    public static let fromHelper = Bounds(maximumBytes: 4 << 20, limits: PropertyListLimits(
        maxDepth: 4, maxObjects: 1 << 20, maxExpandedElements: 1 << 20, maxStringBytes: 4 << 20, maxDataBytes: 4 << 20))

    /// What the helper accepts from the app: one batch of changes to append, which the store
    /// keeps within 1 MB and 1,024 keys; 64 MiB is far past any such batch.
    public static let fromApp = Bounds(maximumBytes: 64 << 20, limits: PropertyListLimits(
        maxDepth: 4, maxObjects: 1 << 22, maxExpandedElements: 1 << 22, maxStringBytes: 64 << 20, maxDataBytes: 64 << 20))

    /// The frame's bytes: length, then the property list.
    public static func encode(_ value: PropertyListValue) throws -> [UInt8] {
        let body = try BinaryPropertyListWriter.data(from: value)
        guard body.count <= Int(UInt32.max) else { throw SyncHelperFailure("a message of \(body.count) bytes is too large to send") }
        let length = UInt32(body.count)
        return [UInt8(length >> 24), UInt8(length >> 16 & 0xff), UInt8(length >> 8 & 0xff), UInt8(length & 0xff)] + Array(body)
    }

    /// Reads one frame from `fd`; nil when the stream ends cleanly before it. `awaitReadable`
    /// is called before every read: the app's side blocks there until the descriptor has data
    /// or its patience ends (then it throws); the helper's side reads without one.
    public static func read(from fd: Int32, bounds: Bounds, peer: String,
                            awaitReadable: () throws -> Void = {}) throws -> PropertyListValue? {
        var header = [UInt8](repeating: 0, count: 4)
        guard try readExactly(into: &header, from: fd, peer: peer, endAllowed: true, awaitReadable: awaitReadable) else { return nil }
        let length = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
        guard length <= bounds.maximumBytes else {
            throw SyncHelperFailure("\(peer) sent a message of \(length) bytes, more than the \(bounds.maximumBytes) allowed")
        }
        var body = [UInt8](repeating: 0, count: length)
        _ = try readExactly(into: &body, from: fd, peer: peer, endAllowed: false, awaitReadable: awaitReadable)
        do {
            return try BinaryPropertyListReader.read(Data(body), limits: bounds.limits)
        } catch {
            throw SyncHelperFailure("\(peer) sent a message that cannot be read: \(error)")
        }
    }

    /// Fills `buffer`; false when the stream ended before its first byte and `endAllowed`.
    private static func readExactly(into buffer: inout [UInt8], from fd: Int32, peer: String, endAllowed: Bool,
                                    awaitReadable: () throws -> Void) throws -> Bool {
        var filled = 0
        while filled < buffer.count {
            try awaitReadable()
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if count > 0 {
                filled += count
            } else if count == 0 {
                if filled == 0 && endAllowed { return false }
                throw SyncHelperFailure("\(peer) stopped in the middle of a message")
            } else if errno != EINTR && errno != EAGAIN {
                throw SyncHelperFailure("reading from \(peer) failed: \(String(cString: strerror(errno)))")
            }
        }
        return true
    }

    /// Writes all of `bytes` to `fd`; `awaitWritable` as `awaitReadable` above, for a
    /// descriptor that does not block.
    public static func write(_ bytes: [UInt8], to fd: Int32, peer: String, awaitWritable: () throws -> Void = {}) throws {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if count > 0 {
                written += count
            } else if count < 0 && errno == EAGAIN {
                try awaitWritable()
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                throw SyncHelperFailure("writing to \(peer) failed: \(String(cString: strerror(errno)))")
            }
        }
    }
}

/// The pipe to the helper broke, or what came through it makes no sense: the helper is ended
/// and the server counts as unreachable until a new one starts.
public struct SyncHelperFailure: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
