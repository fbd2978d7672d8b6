#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What tells a book file from any other, or from itself after an edit, without reading it:
/// where it lives (device, inode), its size, its modification and change times, and a hash of
/// a few blocks spread over it. The change time is in it because a tool can set the
/// modification time back after an edit, but not the change time; the sampled blocks catch a
/// file rewritten in place within one timestamp tick.
struct FileIdentity: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: UInt64
    var modified: Timestamp
    var changed: Timestamp
    var sampleHash: UInt64

    struct Timestamp: Hashable, Sendable {
        var seconds: Int64
        var nanoseconds: Int64
    }

    static let sampleCount = 8
    static let sampleSize = 4096

    /// The identity of the open file `descriptor`, whose bytes are `bytes` (read or mapped);
    /// nil when fstat fails or the file's size is no longer the size of `bytes`.
    static func of(descriptor: Int32, bytes: UnsafeRawBufferPointer) -> FileIdentity? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, Int(status.st_size) == bytes.count else { return nil }
        return FileIdentity(status: status, sampleHash: sampleHash(of: bytes))
    }

    /// The identity of the open file `descriptor` without mapping it: the sampled blocks are
    /// read (an EPUB, whose zip reader opens the file itself). Nil when fstat or a read fails.
    static func of(descriptor: Int32) -> FileIdentity? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        let size = Int(status.st_size)
        var bytes = [UInt8](repeating: 0, count: sampleCount * sampleSize)
        var filled = 0
        for range in sampleRanges(count: size) {
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + filled, range.count, off_t(range.lowerBound)) }
            guard got == range.count else { return nil }
            filled += range.count
        }
        return FileIdentity(status: status, sampleHash: sampleHash(count: size, blocks: bytes[..<filled]))
    }

    /// XXH64 over the file's first and last blocks and blocks spread evenly between them:
    /// eight pages touched, whatever the file's size (a file of eight blocks or less whole).
    static func sampleHash(of bytes: UnsafeRawBufferPointer) -> UInt64 {
        var blocks: [UInt8] = []
        blocks.reserveCapacity(sampleCount * sampleSize)
        for range in sampleRanges(count: bytes.count) {
            blocks.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[range]))
        }
        return sampleHash(count: bytes.count, blocks: blocks[...])
    }

    /// The hash of the file's length and its sampled blocks, one after the other.
    private static func sampleHash(count: Int, blocks: ArraySlice<UInt8>) -> UInt64 {
        var sample: [UInt8] = []
        sample.reserveCapacity(blocks.count + 8)
        withUnsafeBytes(of: UInt64(count).littleEndian) { sample.append(contentsOf: $0) }
        sample.append(contentsOf: blocks)
        return sample.withUnsafeBytes { XXH64.hash($0, seed: 2) }
    }

    /// Where the sampled blocks are: the whole file when it is no bigger than they are.
    static func sampleRanges(count: Int) -> [Range<Int>] {
        guard count > sampleCount * sampleSize else { return [0..<count] }
        let last = count - sampleSize
        return (0..<sampleCount).map { last * $0 / (sampleCount - 1) }.map { $0..<($0 + sampleSize) }
    }
}

extension FileIdentity {
    // In an extension, so the memberwise initialiser (the index file's decoder uses it) stays.
    fileprivate init(status: stat, sampleHash: UInt64) {
        self.init(device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: UInt64(status.st_size),
                  modified: Timestamp(seconds: Int64(status.st_mtim.tv_sec), nanoseconds: Int64(status.st_mtim.tv_nsec)),
                  changed: Timestamp(seconds: Int64(status.st_ctim.tv_sec), nanoseconds: Int64(status.st_ctim.tv_nsec)),
                  sampleHash: sampleHash)
    }
}
