import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Standard output or error written straight to its file descriptor: all of the bytes, again
/// after an interruption; a stream that is gone (a closed pipe) takes nothing more.
struct StandardStream {
    let descriptor: Int32

    static let output = StandardStream(descriptor: STDOUT_FILENO)
    static let error = StandardStream(descriptor: STDERR_FILENO)

    func write(_ data: Data) {
        _ = Self.writeAll(data, to: descriptor, waitingWhenFull: false)
    }

    /// Writes all of `data` to `descriptor`, again after an interruption and, with
    /// `waitingWhenFull`, after waiting for a non-blocking descriptor to take more (standard
    /// output may come non-blocking from whoever started us). Returns the error number of a
    /// write that failed otherwise, nil when every byte went.
    static func writeAll(_ data: Data, to descriptor: Int32, waitingWhenFull: Bool) -> Int32? {
        data.withUnsafeBytes { buffer -> Int32? in
            guard let base = buffer.baseAddress else { return nil }
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN, waitingWhenFull, waitUntilWritable(descriptor) { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
    }

    private static func waitUntilWritable(_ descriptor: Int32) -> Bool {
        var request = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        while true {
            if poll(&request, 1, -1) >= 0 { return true }
            if errno != EINTR { return false }
        }
    }
}
