import CloudServer
import Foundation
import NIOCore
import NIOPosix

/// The key a server gives each session for cancelling its statement, and the cancel itself:
/// a statement this device stopped waiting for is stopped on the server too, so it holds no
/// connection and no lock after the device has given up on it.
final class PostgresCancelKey: @unchecked Sendable {
    let host: String
    let port: Int
    let user: String
    private let lock = NSLock()
    private var process: Int32?
    private var secret: Int32 = 0

    init(address: PostgresSyncAddress) {
        host = address.host
        port = address.port
        user = address.user
    }

    /// "host:port", for messages.
    var place: String { "\(host):\(port)" }

    func set(process: Int32, secret: Int32) {
        lock.withLock {
            self.process = process
            self.secret = secret
        }
    }

    /// The server process of the session, once it is known.
    var serverProcess: Int32? { lock.withLock { process } }

    /// Sends a CancelRequest on a connection of its own (as libpq does) and does not wait for
    /// it: the server answers a cancel by closing, and the statement ends as an error on the
    /// session. Nothing happens before the server has given its key.
    func cancel(on group: any EventLoopGroup) {
        guard let (process, secret) = lock.withLock({ self.process.map { ($0, secret) } }) else { return }
        let connecting = ClientBootstrap(group: group)
            .connectTimeout(.seconds(2))
            .connect(host: host, port: port)
        connecting.whenSuccess { channel in
            var request = channel.allocator.buffer(capacity: 16)
            request.writeInteger(Int32(16))
            request.writeInteger(Int32(80_877_102))
            request.writeInteger(process)
            request.writeInteger(secret)
            channel.writeAndFlush(request).whenComplete { _ in channel.close(promise: nil) }
        }
    }
}
