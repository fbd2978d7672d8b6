import CloudServer
import Foundation
import NIOCore
import NIOPosix
import NIOSSL
#if canImport(Glibc)
import Glibc
#endif

/// The connection under a session, made here rather than by PostgresNIO so that it is ours to
/// shape: TCP keepalive (a path that died without a word is noticed in about a minute), TLS
/// asked for as libpq does and set up before anything else is said, and `PostgresStartupGuard`
/// between the TLS layer and PostgresNIO. It also tells a server that took the connection but
/// never answered apart from one that could not be reached.
enum PostgresTransport {
    /// Idle seconds before the first keepalive probe, seconds between probes, probes unanswered
    /// before the connection counts as dead: 30 + 3 × 10 s.
    static let keepalive = (idle: Int32(30), interval: Int32(10), count: Int32(3))

    /// Connects and negotiates TLS; the future gives a channel ready for PostgresNIO's startup.
    /// `reached` is set once TCP is connected.
    static func open(_ address: PostgresSyncAddress, tls: NIOSSLContext?, key: PostgresCancelKey,
                     connectTimeout: Double, on loop: any EventLoop, reached: PostgresReachedFlag) -> EventLoopFuture<any Channel> {
        let bootstrap = ClientBootstrap(group: loop)
            .connectTimeout(.milliseconds(Int64(connectTimeout * 1_000)))
            .channelOption(.socketOption(.so_keepalive), value: 1)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .channelOption(.socket(SocketOptionLevel(IPPROTO_TCP), SocketOptionName(TCP_KEEPIDLE)), value: SocketOptionValue(keepalive.idle))
            .channelOption(.socket(SocketOptionLevel(IPPROTO_TCP), SocketOptionName(TCP_KEEPINTVL)), value: SocketOptionValue(keepalive.interval))
            .channelOption(.socket(SocketOptionLevel(IPPROTO_TCP), SocketOptionName(TCP_KEEPCNT)), value: SocketOptionValue(keepalive.count))
        let startupGuard = PostgresStartupGuard(allowed: address.passwordMethods, key: key)
        return bootstrap.connect(host: address.host, port: address.port).flatMap { channel in
            reached.set()
            guard let tls else {
                do {
                    try channel.pipeline.syncOperations.addHandler(startupGuard)
                    return channel.eventLoop.makeSucceededFuture(channel)
                } catch {
                    channel.close(promise: nil)
                    return channel.eventLoop.makeFailedFuture(error)
                }
            }
            let answer = channel.eventLoop.makePromise(of: Void.self)
            let request = TLSRequest(context: tls, serverName: PostgresTLS.serverName(for: address.host), startupGuard: startupGuard,
                                     place: key.place, answer: answer)
            do {
                try channel.pipeline.syncOperations.addHandler(request)
            } catch {
                channel.close(promise: nil)
                return channel.eventLoop.makeFailedFuture(error)
            }
            var message = channel.allocator.buffer(capacity: 8)
            message.writeInteger(Int32(8))
            message.writeInteger(Int32(80_877_103))
            channel.writeAndFlush(message, promise: nil)
            return answer.futureResult.map { channel }.flatMapError { error in
                channel.close(promise: nil)
                return channel.eventLoop.makeFailedFuture(error)
            }
        }
    }

    /// Asks for TLS and reads the one-byte answer; on "S" puts the TLS layer and the guard in
    /// its own place and leaves. A server that sends more than the byte before the handshake
    /// is refused: whatever came with it would otherwise be read as if it had been encrypted.
    private final class TLSRequest: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer

        private let context: NIOSSLContext
        private let serverName: String?
        private let startupGuard: PostgresStartupGuard
        private let place: String
        private let answer: EventLoopPromise<Void>
        private var answered = false

        init(context: NIOSSLContext, serverName: String?, startupGuard: PostgresStartupGuard, place: String, answer: EventLoopPromise<Void>) {
            self.context = context
            self.serverName = serverName
            self.startupGuard = startupGuard
            self.place = place
            self.answer = answer
        }

        func channelRead(context handlerContext: ChannelHandlerContext, data: NIOAny) {
            guard !answered else { return }
            answered = true
            var bytes = unwrapInboundIn(data)
            guard bytes.readableBytes == 1, let reply = bytes.readInteger(as: UInt8.self) else {
                return answer.fail(PostgresServerRefused(description: "the server at \(place) answered the request for TLS with \(bytes.readableBytes) bytes, not one: it is not a PostgreSQL server wonderland will talk to"))
            }
            switch reply {
            case UInt8(ascii: "S"):
                do {
                    let tls = try NIOSSLClientHandler(context: context, serverHostname: serverName)
                    let pipeline = handlerContext.pipeline.syncOperations
                    try pipeline.addHandler(tls, position: .after(self))
                    try pipeline.addHandler(startupGuard, position: .after(tls))
                    handlerContext.pipeline.removeHandler(context: handlerContext, promise: nil)
                    answer.succeed(())
                } catch {
                    answer.fail(error)
                }
            case UInt8(ascii: "N"):
                answer.fail(PostgresServerRefused(description: "the server at \(place) does not offer TLS; wonderland sent nothing (add sslmode=disable to the address to send in clear text)"))
            default:
                answer.fail(PostgresServerRefused(description: "the server at \(place) gave an answer no PostgreSQL server gives to a request for TLS"))
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            if !answered {
                answered = true
                answer.fail(error)
            }
            context.fireErrorCaught(error)
        }

        func channelInactive(context: ChannelHandlerContext) {
            if !answered {
                answered = true
                answer.fail(PostgresServerRefused(description: "the server at \(place) closed the connection when asked for TLS"))
            }
            context.fireChannelInactive()
        }
    }
}

/// Set once the TCP connection is made, read when a connect times out.
final class PostgresReachedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var reached = false

    func set() { lock.withLock { reached = true } }
    var isSet: Bool { lock.withLock { reached } }
}
