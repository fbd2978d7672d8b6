import Cloud
import CloudServer
import Foundation
import Logging
import NIOCore
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

    private let cancelKey: PostgresCancelKey

    private init(connection: PostgresConnection, timeout: Double, cancelKey: PostgresCancelKey) {
        self.connection = connection
        self.timeout = timeout
        self.cancelKey = cancelKey
    }

    static func connect(to address: PostgresSyncAddress, password: String?, connectTimeout: Double, queryTimeout: Double,
                        serverSettings: [(String, String)] = []) throws -> PostgresSession {
        let tls = try PostgresTLS.context(for: address)
        let loop = PostgresConnection.defaultEventLoopGroup.any()
        let key = PostgresCancelKey(address: address)
        let reached = PostgresReachedFlag()
        let future = PostgresTransport.open(address, tls: tls, key: key, connectTimeout: connectTimeout, on: loop, reached: reached)
            .flatMap { channel -> EventLoopFuture<PostgresConnection> in
                var configuration = PostgresConnection.Configuration(
                    establishedChannel: channel, tls: .disable, username: address.user, password: password, database: address.database)
                // Later than the wait below, which tells a silent server from an unreachable one.
                configuration.options.connectTimeout = .milliseconds(Int64((connectTimeout + queryTimeout + 2) * 1_000))
                configuration.options.additionalStartupParameters = [("application_name", "wonderland")] + serverSettings
                return PostgresConnection.connect(on: loop, configuration: configuration, id: 1, logger: silentLogger)
            }
        // The connect timeout covers TCP; TLS and authentication get the query's budget too.
        let connection = try wait(for: future, seconds: connectTimeout + queryTimeout, onTimeout: {
            future.whenSuccess { late in Self.closeNow(late) }
            if reached.isSet {
                return "the server at \(key.place) took the connection but did not answer within \(Self.seconds(connectTimeout + queryTimeout)) s (overloaded or hung?)"
            }
            return "cannot connect to \(key.place): no answer within \(Self.seconds(connectTimeout + queryTimeout)) s"
        })
        return PostgresSession(connection: connection, timeout: queryTimeout, cancelKey: key)
    }

    /// The settings that keep a session from outliving the device's patience: the server ends a
    /// statement, a wait for a lock, or a transaction left open, a little before the device
    /// would give up on it. Sent as startup parameters; a pooler in transaction mode takes
    /// none, so an address with `wait=poll` relies on the role's own settings there.
    static func limits(for options: SyncServerOptions) -> [(String, String)] {
        let milliseconds = "\(options.serverStatementTimeoutMilliseconds)"
        return [("statement_timeout", milliseconds), ("lock_timeout", milliseconds),
                ("idle_in_transaction_session_timeout", "\(options.serverStatementTimeoutMilliseconds * 2)")]
    }

    private static func seconds(_ value: Double) -> String { "\(Int(value.rounded()))" }

    /// Runs one statement and returns its rows.
    @discardableResult
    func query(_ query: PostgresQuery) throws -> [PostgresRow] {
        let future = connection.query(query, logger: Self.silentLogger)
        return try Self.wait(for: future, seconds: timeout) { giveUp() }.rows
    }

    /// Sends `query` and returns at once; `handler` gets the rows, or the failure, on a NIO
    /// thread. For a look whose waiter must be free to leave when woken; it calls `giveUp()`
    /// when the answer is later than `queryTimeout`.
    func start(_ query: PostgresQuery, then handler: @escaping @Sendable (Result<[PostgresRow], any Error>) -> Void) {
        connection.query(query, logger: Self.silentLogger).whenComplete { handler($0.map(\.rows)) }
    }

    /// The event loop the connection's work runs on.
    var eventLoop: any EventLoop { connection.eventLoop }

    /// How long a statement may take before it is given up.
    var queryTimeout: Double { timeout }

    /// Stops the statement on the server too, then leaves, so the statement holds nothing once
    /// given up; says so in the user's words.
    func giveUp() -> String {
        cancelKey.cancel(on: PostgresConnection.defaultEventLoopGroup)
        Self.closeNow(connection)
        return "the server at \(cancelKey.place) did not answer within \(Self.seconds(timeout)) s; the statement was cancelled"
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

    /// The server process of this session (as notifications name their sender).
    var serverProcess: Int32? { cancelKey.serverProcess }

    func close() { Self.closeNow(connection) }

    /// Starts closing without waiting (the future-returning `close`, not the async one).
    private static func closeNow(_ connection: PostgresConnection) {
        let closing: EventLoopFuture<Void> = connection.close()
        // The connection must outlive its own closing (NIO checks that it was closed first).
        closing.whenComplete { _ in withExtendedLifetime(connection) {} }
    }

    /// Blocks until `future` completes or `seconds` pass; `onTimeout` tidies up what is left
    /// and says what happened.
    private static func wait<Value>(for future: EventLoopFuture<Value>, seconds: Double,
                                    onTimeout: () -> String) throws -> Value {
        let outcome = Outcome<Value>()
        future.whenComplete { outcome.finish($0) }
        guard outcome.wait(seconds: seconds) else {
            throw BackendUnavailable(reason: onTimeout())
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
