import Platform
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The POSIX socket work of the gpsd reader, all of it non-blocking and bounded by `poll`, which
/// also watches a wake-up pipe: `stop()` writes to that pipe and every wait here returns at once.
/// Only the reader's thread calls these.
enum GPSDSocket {
    enum ConnectOutcome {
        case connected(Int32)
        case failed(GPSDConnectionFailure)
        case interrupted
    }

    enum ReadOutcome {
        case data([UInt8])
        case closed
        case failed(String)
        case idle
        case interrupted
    }

    /// Tries each address the host resolves to (localhost is ::1 and 127.0.0.1; gpsd may listen
    /// on either) within `timeout` seconds in all. Name lookup blocks this thread, never the main one.
    static func connect(to address: GPSDAddress, timeout: Double, wake: WakePipe) -> ConnectOutcome {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = streamType
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(address.host, String(address.port), &hints, &list)
        guard status == 0, let first = list else { return .failed(.unresolved(address.host)) }
        defer { freeaddrinfo(first) }

        var lastFailure = GPSDConnectionFailure.refused
        let deadline = monotonicSeconds() + timeout
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            entry = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, streamType, 0)
            guard fd >= 0 else { lastFailure = .error(errorText(errno)); continue }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            #if canImport(Darwin)
            var one: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
            #endif
            if posixConnect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 { return .connected(fd) }
            guard errno == EINPROGRESS else {
                lastFailure = failure(for: errno)
                close(fd)
                continue
            }
            switch wake.wait(for: fd, events: Int16(POLLOUT), timeout: deadline - monotonicSeconds()) {
            case .woken:
                close(fd)
                return .interrupted
            case .timedOut:
                close(fd)
                lastFailure = .timedOut
            case .ready:
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                if error == 0 { return .connected(fd) }
                lastFailure = failure(for: error)
                close(fd)
            }
        }
        return .failed(lastFailure)
    }

    /// Sends all of `bytes`; false when the connection broke.
    static func send(_ bytes: [UInt8], on fd: Int32, wake: WakePipe, timeout: Double) -> Bool {
        var offset = 0
        let deadline = monotonicSeconds() + timeout
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { buffer in
                posixSend(fd, buffer.baseAddress, buffer.count, noSignal)
            }
            if sent > 0 { offset += sent; continue }
            guard sent < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else { return false }
            guard case .ready = wake.wait(for: fd, events: Int16(POLLOUT), timeout: deadline - monotonicSeconds()) else { return false }
        }
        return true
    }

    /// Reads what has arrived, waiting at most `timeout` seconds for something to (nil: until
    /// something does, or the wake pipe).
    static func read(from fd: Int32, wake: WakePipe, timeout: Double?) -> ReadOutcome {
        switch wake.wait(for: fd, events: Int16(POLLIN), timeout: timeout) {
        case .woken: return .interrupted
        case .timedOut: return .idle
        case .ready: break
        }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count > 0 { return .data(Array(buffer[..<count])) }
        if count == 0 { return .closed }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return .idle }
        return .failed(errorText(errno))
    }

    /// Sleeps up to `timeout` seconds; false when woken early.
    static func pause(_ timeout: Double, wake: WakePipe) -> Bool {
        if case .woken = wake.wait(timeout: timeout) { return false }
        return true
    }

    private static func failure(for code: Int32) -> GPSDConnectionFailure {
        switch code {
        case ECONNREFUSED: return .refused
        case ETIMEDOUT: return .timedOut
        default: return .error(errorText(code))
        }
    }

    static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    #if canImport(Glibc)
    private static let streamType = Int32(SOCK_STREAM.rawValue)
    private static let noSignal = Int32(MSG_NOSIGNAL)
    #else
    private static let streamType = SOCK_STREAM
    private static let noSignal: Int32 = 0
    #endif
}

// The module's own names would shadow the C functions inside the enum above.
private func posixConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>!, _ length: socklen_t) -> Int32 {
    connect(fd, address, length)
}

private func posixSend(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
    send(fd, buffer, count, flags)
}
