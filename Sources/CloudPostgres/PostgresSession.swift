import Cloud
import CloudServer
import Foundation
import Logging
import NIOSSL
import PostgresNIO

/// One open connection to the server, used synchronously from the store's worker thread:
/// every call blocks until the server answers or `timeout` passes, so a server that hangs
/// (stopped, a dead network path) is "offline" in seconds rather than never.
final class PostgresSession: @unchecked Sendable {
    let connection: PostgresConnection
    private let timeout: Double
    /// swift-log's default handler prints to stdout, which would scribble over the screen; and
    /// nothing about the connection (its user, its password) belongs in a log anyway.
    static let silentLogger = Logger(label: "wonderland.sync.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    private init(connection: PostgresConnection, timeout: Double) {
        self.connection = connection
        self.timeout = timeout
    }

    static func connect(to address: PostgresSyncAddress, password: String?, connectTimeout: Double, queryTimeout: Double) throws -> PostgresSession {
        var configuration = PostgresConnection.Configuration(
            host: address.host, port: address.port, username: address.user, password: password,
            database: address.database, tls: try PostgresTLS.configuration(for: address))
        configuration.options.connectTimeout = .milliseconds(Int64(connectTimeout * 1_000))
        // PostgresNIO sends the host as the TLS server name itself (an IP address is not valid
        // there, and is checked against the certificate's IP entries instead).
        let future = PostgresConnection.connect(on: PostgresConnection.defaultEventLoopGroup.any(),
                                                configuration: configuration, id: 1, logger: silentLogger)
        // The connect timeout covers TCP; authentication and TLS get the rest of the budget.
        let connection = try wait(for: future, seconds: connectTimeout + queryTimeout, what: "connecting") {
            future.whenSuccess { late in Self.closeNow(late) }
        }
        return PostgresSession(connection: connection, timeout: queryTimeout)
    }

    /// Runs one statement and returns its rows.
    @discardableResult
    func query(_ query: PostgresQuery) throws -> [PostgresRow] {
        let future = connection.query(query, logger: Self.silentLogger)
        return try Self.wait(for: future, seconds: timeout, what: "waiting for an answer") { [connection] in
            Self.closeNow(connection)
        }.rows
    }

    /// Calls `handler` with the server process that sent each notification on `channel` (on a
    /// NIO thread).
    func listen(on channel: String, handler: @escaping @Sendable (Int32) -> Void) {
        connection.addListener(channel: channel) { _, notification in handler(notification.backendPID) }
    }

    /// Called once, on a NIO thread, when the connection ends for any reason.
    func onClose(_ handler: @escaping @Sendable () -> Void) {
        connection.closeFuture.whenComplete { _ in handler() }
    }

    var isClosed: Bool { connection.isClosed }

    func close() { Self.closeNow(connection) }

    /// Starts closing without waiting (the future-returning `close`, not the async one).
    private static func closeNow(_ connection: PostgresConnection) {
        let closing: EventLoopFuture<Void> = connection.close()
        // The connection must outlive its own closing (NIO checks that it was closed first).
        closing.whenComplete { _ in withExtendedLifetime(connection) {} }
    }

    /// Blocks until `future` completes or `seconds` pass; `onTimeout` tidies up what is left.
    private static func wait<Value>(for future: EventLoopFuture<Value>, seconds: Double, what: String,
                                    onTimeout: () -> Void) throws -> Value {
        let outcome = Outcome<Value>()
        future.whenComplete { outcome.finish($0) }
        guard outcome.wait(seconds: seconds) else {
            onTimeout()
            throw BackendUnavailable(reason: "the server did not answer within \(Int(seconds.rounded())) s (\(what))")
        }
        return try outcome.result!.get()
    }
}

/// A result handed from a NIO thread to the waiting worker thread.
private final class Outcome<Value>: @unchecked Sendable {
    private let condition = NSCondition()
    private(set) var result: Result<Value, any Error>?

    func finish(_ result: Result<Value, any Error>) {
        condition.withLock {
            self.result = result
            condition.broadcast()
        }
    }

    func wait(seconds: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        return condition.withLock {
            while result == nil { if !condition.wait(until: deadline) { break } }
            return result != nil
        }
    }
}
