#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The archive file, read where it is asked with pread and never as a whole: an EPUB may be
/// hundreds of megabytes of which a book reads a few. Every read is checked against the size the
/// file had when it was opened, so an offset from the archive cannot point past its end.
final class ZipFile {
    let size: UInt64
    private let descriptor: Int32

    /// Takes over `descriptor` (an open regular file of `size` bytes) and closes it when done.
    init(descriptor: Int32, size: Int) {
        self.descriptor = descriptor
        self.size = UInt64(max(0, size))
    }

    deinit { close(descriptor) }

    /// True when `count` bytes from `offset` lie inside the file.
    func contains(offset: UInt64, count: UInt64) -> Bool {
        offset <= size && count <= size - offset
    }

    /// Exactly `count` bytes at `offset`; a range outside the file is malformed, a file that
    /// shrank since it was opened is damaged.
    func read(at offset: UInt64, count: Int) throws(ZipError) -> [UInt8] {
        guard count >= 0, contains(offset: offset, count: UInt64(count)) else {
            throw .malformed("a read of \(count) bytes at \(offset) goes past the end of the file")
        }
        var bytes = [UInt8](repeating: 0, count: count)
        var failure: ZipError?
        bytes.withUnsafeMutableBytes { buffer in
            do throws(ZipError) { try read(at: offset, into: buffer) } catch { failure = error }
        }
        if let failure { throw failure }
        return bytes
    }

    /// Fills `buffer` with the bytes at `offset`.
    func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) throws(ZipError) {
        guard contains(offset: offset, count: UInt64(buffer.count)) else {
            throw .malformed("a read of \(buffer.count) bytes at \(offset) goes past the end of the file")
        }
        var filled = 0
        while filled < buffer.count {
            let got = pread(descriptor, buffer.baseAddress! + filled, buffer.count - filled, off_t(offset) + off_t(filled))
            if got < 0 {
                if errno == EINTR { continue }
                throw .unreadable(errno)
            }
            if got == 0 { throw .damaged("the file ends before its data does") }
            filled += got
        }
    }
}
