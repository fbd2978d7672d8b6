import CloudServer
import NIOCore
import NIOTLS

/// Reads the server's messages before PostgresNIO does, until the session is ready, and stops
/// the connection the moment the server asks for the password in a way the address does not
/// allow (`require_auth`): the request never reaches PostgresNIO, so the password is never
/// written, not even to a server that pretends to be the real one. It also keeps the key the
/// server gives for cancelling a statement. Once the server says it is ready, it only passes
/// bytes on.
final class PostgresStartupGuard: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let allowed: Set<PostgresSyncAddress.PasswordMethod>
    private let key: PostgresCancelKey
    private var unread: ByteBuffer?
    private var ready = false
    private var askedForPassword = false
    private var stopped = false

    /// No message before the session is ready is anywhere near this (they are a few hundred
    /// bytes); a server that sends one is not a PostgreSQL server.
    static let maximumStartupMessage = 1 << 20

    init(allowed: Set<PostgresSyncAddress.PasswordMethod>, key: PostgresCancelKey) {
        self.allowed = allowed
        self.key = key
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !stopped else { return }
        if ready {
            context.fireChannelRead(data)
            return
        }
        var incoming = unwrapInboundIn(data)
        if unread == nil { unread = incoming } else { unread!.writeBuffer(&incoming) }
        var inspected = 0
        while !ready, let buffer = unread, let (type, length) = Self.header(of: buffer, at: buffer.readerIndex + inspected) {
            guard length >= 4, length <= Self.maximumStartupMessage else {
                return stop(context, PostgresServerRefused(description: "the server at \(key.place) sent a message of \(length) bytes while starting, which no PostgreSQL server does"))
            }
            guard buffer.readableBytes - inspected >= 1 + Int(length) else { break }
            if let refusal = inspect(type: type, body: buffer.getSlice(at: buffer.readerIndex + inspected + 5, length: Int(length) - 4)) {
                return stop(context, refusal)
            }
            inspected += 1 + Int(length)
            if type == UInt8(ascii: "Z") { ready = true }
        }
        guard var buffer = unread else { return }
        // Only whole, inspected messages go on; once ready, the rest too.
        let passing = ready ? buffer.readableBytes : inspected
        if passing > 0, let slice = buffer.readSlice(length: passing) {
            context.fireChannelRead(wrapInboundOut(slice))
        }
        unread = buffer.readableBytes > 0 ? buffer : nil
        if let pending = unread, pending.readableBytes > Self.maximumStartupMessage + 5 {
            stop(context, PostgresServerRefused(description: "the server at \(key.place) sent more than a starting session needs"))
        }
    }

    /// The TLS layer is ours, not PostgresNIO's, which would take word of a handshake it did
    /// not start for a broken state.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is TLSUserEvent { return }
        context.fireUserInboundEventTriggered(event)
    }

    private static func header(of buffer: ByteBuffer, at index: Int) -> (UInt8, Int32)? {
        guard buffer.writerIndex - index >= 5, let type = buffer.getInteger(at: index, as: UInt8.self),
              let length = buffer.getInteger(at: index + 1, as: Int32.self) else { return nil }
        return (type, length)
    }

    /// A reason to stop, or nil to let the message through.
    private func inspect(type: UInt8, body: ByteBuffer?) -> PostgresServerRefused? {
        switch type {
        case UInt8(ascii: "R"):
            guard let code = body?.getInteger(at: body!.readerIndex, as: Int32.self) else { return nil }
            switch code {
            case 0 where !askedForPassword && !allowed.contains(.none):
                return refusal("let \(key.user) in without asking for a password", method: "none")
            case 3 where !allowed.contains(.password):
                return refusal("asked for the password itself, in the clear", method: "password")
            case 5 where !allowed.contains(.md5):
                return refusal("asked for an MD5 hash of the password, which it could try to guess the password from", method: "md5")
            case 10 where !allowed.contains(.scram):
                return refusal("asked for SCRAM-SHA-256", method: "scram-sha-256")
            case 3, 5, 10:
                askedForPassword = true
                return nil
            default:
                return nil
            }
        case UInt8(ascii: "K"):
            if let body, body.readableBytes >= 8,
               let process = body.getInteger(at: body.readerIndex, as: Int32.self),
               let secret = body.getInteger(at: body.readerIndex + 4, as: Int32.self) {
                key.set(process: process, secret: secret)
            }
            return nil
        default:
            return nil
        }
    }

    private func refusal(_ what: String, method: String) -> PostgresServerRefused {
        PostgresServerRefused(description: "the server at \(key.place) \(what); wonderland sent nothing and left (add require_auth=\(method) to the address to allow it)")
    }

    private func stop(_ context: ChannelHandlerContext, _ refusal: PostgresServerRefused) {
        stopped = true
        unread = nil
        context.fireErrorCaught(refusal)
        context.close(promise: nil)
    }
}

/// The server did something this client will not go along with; the sentence says what.
struct PostgresServerRefused: Error, CustomStringConvertible {
    let description: String
}
