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
        data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}
