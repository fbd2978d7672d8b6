import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP listener on a free loopback port whose connections a test handles on threads of their
/// own: a fake server that asks for a password in clear text, one that never answers, a proxy
/// that stops passing bytes on without closing anything.
final class LoopbackListener: @unchecked Sendable {
    let port: Int
    private let socket: Int32
    private let lock = NSLock()
    private var open: Set<Int32> = []
    private var closing = false

    /// `handle` reads and writes the connection and returns; the listener closes it afterwards.
    /// Every descriptor is closed exactly once, by the thread that owns it, and `close()` only
    /// shuts down descriptors still open: tests run side by side in one process, and a second
    /// close would close whatever socket another test was given that number for since.
    init(handle: @escaping @Sendable (Int32) -> Void) throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.socket = socket
        var yes: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(socket, 16) == 0 else {
            Glibc.close(socket)
            throw CocoaError(.fileWriteUnknown)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread { [self] in
            while true {
                let client = accept(socket, nil, nil)
                guard client >= 0, keep(client) else {
                    if client >= 0 { Glibc.close(client) }
                    // The accepting thread owns the listening socket: it closes it only once
                    // nothing can call accept on that number again.
                    Glibc.close(socket)
                    return
                }
                Thread { [self] in
                    handle(client)
                    release(client)
                }.start()
            }
        }.start()
    }

    private func keep(_ descriptor: Int32) -> Bool {
        lock.withLock {
            guard !closing else { return false }
            open.insert(descriptor)
            return true
        }
    }

    private func release(_ descriptor: Int32) {
        lock.withLock {
            open.remove(descriptor)
            Glibc.close(descriptor)
        }
    }

    /// Stops accepting and ends every connection; safe to call more than once.
    func close() {
        lock.withLock {
            guard !closing else { return }
            closing = true
            shutdown(socket, Int32(SHUT_RDWR))
            for descriptor in open { shutdown(descriptor, Int32(SHUT_RDWR)) }
        }
    }

    /// Reads what comes within `seconds` (until the peer closes).
    static func read(_ descriptor: Int32, seconds: Double) -> [UInt8] {
        var collected: [UInt8] = []
        let deadline = Date(timeIntervalSinceNow: seconds)
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while Date() < deadline {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 50) >= 0 else { break }
            if ready.revents == 0 { continue }
            let count = Glibc.read(descriptor, &buffer, buffer.count)
            if count <= 0 { break }
            collected += buffer[0 ..< count]
        }
        return collected
    }

    /// Reads exactly `count` bytes, or fewer if the peer closes first.
    static func read(_ descriptor: Int32, count: Int) -> [UInt8] {
        var collected: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: count)
        while collected.count < count {
            let got = Glibc.read(descriptor, &buffer, count - collected.count)
            if got <= 0 { break }
            collected += buffer[0 ..< got]
        }
        return collected
    }

    static func write(_ descriptor: Int32, _ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
    }
}

/// A proxy to a real server that can go silent: `freeze()` stops passing bytes either way on
/// the connections it holds, closing nothing, as a dropped network path or a hung server does.
/// Connections made afterwards pass bytes again.
final class FreezingProxy: @unchecked Sendable {
    private let lock = NSLock()
    private var frozenBefore = 0
    private var stopped = false
    private var connections = 0
    private var listener: LoopbackListener!

    init(to port: Int) throws {
        listener = try LoopbackListener { [weak self] client in
            guard let self else { return }
            let number = self.lock.withLock { () -> Int in
                self.connections += 1
                return self.connections
            }
            let server = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(port).bigEndian
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else {
                Glibc.close(server)
                return
            }
            self.pass(client, server, number: number)
            Glibc.close(server)
        }
    }

    var port: Int { listener.port }

    func freeze() { lock.withLock { frozenBefore = connections } }

    private func frozen(_ number: Int) -> Bool { lock.withLock { number <= frozenBefore } }

    private func pass(_ client: Int32, _ server: Int32, number: Int) {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            var descriptors = [pollfd(fd: client, events: Int16(POLLIN), revents: 0), pollfd(fd: server, events: Int16(POLLIN), revents: 0)]
            guard poll(&descriptors, 2, 100) >= 0 else { break }
            if lock.withLock({ stopped }) { return }
            if frozen(number) {
                usleep(100_000)
                continue
            }
            for (from, to) in [(0, server), (1, client)] where descriptors[from].revents != 0 {
                let count = Glibc.read(descriptors[from].fd, &buffer, buffer.count)
                if count <= 0 { return }
                _ = buffer.withUnsafeBytes { Glibc.write(to, $0.baseAddress, count) }
            }
        }
    }

    func close() {
        lock.withLock { stopped = true }
        listener.close()
    }
}
