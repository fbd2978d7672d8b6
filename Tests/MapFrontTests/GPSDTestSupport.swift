import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import MapFront

/// A stand-in gpsd on a loopback port, run from the test's own thread: it accepts the source's
/// connection, reads what it asks for and sends whatever lines the test gives it.
final class FakeGPSDServer {
    let port: Int
    private let listener: Int32

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        guard listener >= 0 else { throw TestFailure("socket: \(errno)") }
        var one: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 4) == 0 else { throw TestFailure("bind/listen: \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(listener) }

    var address: GPSDAddress { GPSDAddress(host: "127.0.0.1", port: port) }

    /// Waits (bounded) for the source to connect.
    func accept(timeout: Double = 10) throws -> FakeGPSDClient {
        var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
        guard poll(&fds, 1, Int32(timeout * 1000)) == 1 else { throw TestFailure("no connection within \(timeout) s") }
        let fd = Glibc.accept(listener, nil, nil)
        guard fd >= 0 else { throw TestFailure("accept: \(errno)") }
        return FakeGPSDClient(fd: fd)
    }

    /// A port on which nothing listens (bound, then let go).
    static func closedPort() throws -> Int {
        let server = try FakeGPSDServer()
        return server.port
    }
}

final class FakeGPSDClient {
    private let fd: Int32
    private var received: [UInt8] = []
    private var closed = false

    init(fd: Int32) { self.fd = fd }
    deinit { close() }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return }
            offset += sent
        }
    }

    func sendLines(_ lines: String...) { send(lines.map { $0 + "\n" }.joined()) }

    /// The first line the source sent, waiting at most `timeout`.
    func readLine(timeout: Double = 10) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let newline = received.firstIndex(of: 0x0A) {
                let line = String(decoding: received[..<newline], as: UTF8.self)
                received.removeSubrange(...newline)
                return line
            }
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 1, 100) >= 0 else { break }
            if fds[0].revents != 0 {
                var buffer = [UInt8](repeating: 0, count: 1024)
                let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { break }
                received += buffer[..<count]
            }
        }
        throw TestFailure("no line from the source within \(timeout) s")
    }

    func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(fd)
    }
}

/// A clock the test moves by hand.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var seconds: Double

    init(_ start: Double = 1_000) { seconds = start }

    var now: Double {
        lock.lock()
        defer { lock.unlock() }
        return seconds
    }

    func advance(by delta: Double) {
        lock.lock()
        seconds += delta
        lock.unlock()
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Calls `refresh()` until `condition` holds, for at most `timeout` seconds: the reader runs on
/// its own thread, so the test can only wait for it, never drive it.
@discardableResult
func waitFor(_ source: LocationSource, timeout: Double = 10, _ condition: (LocationSource) -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        _ = source.refresh()
        if condition(source) { return true }
        usleep(5_000)
    }
    _ = source.refresh()
    return condition(source)
}
