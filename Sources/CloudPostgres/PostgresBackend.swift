import Cloud
import CloudServer
import Foundation
import PostgresNIO

/// The synced store on a PostgreSQL server, for machines that share no folder. One row per key
/// holds the winning change; writes are conditional on the hybrid clock (`wonderland_write` in
/// `PostgresSchema`), so the server keeps the same last-writer-wins result the folder backend
/// gives. News comes by LISTEN/NOTIFY on the device's own connection (`wait=listen`), or by a
/// look every `pollInterval` (`wait=poll`, through a pooler that shares a few server
/// connections among many devices). A listening device that hears nothing for `quietPeriod`
/// looks anyway, so a connection that died without a word is noticed.
///
/// Used from the store's worker thread, one call at a time; `wake()` from any thread. A lost
/// connection makes the backend "unavailable"; it connects again after a back-off that doubles
/// up to `maximumBackoff`, and reads on from the last change it saw, so nothing is missed.
public final class PostgresBackend: KeyValueBackend, @unchecked Sendable {
    /// Time-outs, back-off and page size; shared with the app, which restarts this backend's
    /// helper process on the same back-off.
    public typealias Options = SyncServerOptions

    public let address: PostgresSyncAddress
    public let device: DeviceIdentifier
    public let options: Options
    private let password: String?

    private let connection = ConnectionState()
    private let news = NewsSignal()
    private let unreadRows = RecentLines(keeping: 8)
    private let pace = NewsPace()
    private let lookedAhead = LookedAhead()

    /// Does not connect: the first `fetchChanges` does, and a server that is down is only
    /// "offline" (the app works on its local copy meanwhile).
    public init(address: PostgresSyncAddress, password: String?, device: DeviceIdentifier, options: Options = Options()) {
        self.address = address
        self.password = password
        self.device = device
        self.options = options
    }

    public var displayName: String { "server \(address)" }

    public func append(_ records: [ChangeRecord]) throws {
        // One row per key in a statement; the newest of this batch is the one that can win.
        let batch = MergedChanges(records).latest.values.sorted { $0.key < $1.key }
        guard !batch.isEmpty else { return }
        let session = try connectedSession()
        var keys: [String] = [], payloads: [ByteBuffer] = [], removals: [Bool] = [], clocks: [Int64] = [], devices: [String] = []
        for record in batch {
            guard record.stamp.clock.rawValue <= UInt64(Int64.max) else {
                throw BackendUnavailable(reason: "a change's clock (\(record.stamp.clock)) is beyond what the server can keep")
            }
            keys.append(record.key)
            payloads.append(ByteBuffer(bytes: record.payload ?? Data()))
            removals.append(record.isRemoval)
            clocks.append(Int64(record.stamp.clock.rawValue))
            devices.append(record.stamp.device.rawValue)
        }
        do {
            try session.query("SELECT wonderland_write(\(keys), \(payloads), \(removals), \(clocks), \(devices))")
            pace.heard()
        } catch let error as PSQLError where PostgresLimitRefusal.limitError(from: error) != nil {
            throw BackendRefusal(limit: PostgresLimitRefusal.limitError(from: error)!, keys: keys)
        } catch {
            throw connection.failed(error, backend: self)
        }
    }

    public var lastFetchWasWhole: Bool { pace.lastFetchWasWhole }

    public func fetchChanges() throws -> [ChangeRecord] {
        pace.fetchStarted()
        let session = try connectedSession()
        var records: [ChangeRecord] = []
        // Moved on only once everything up to it is in hand: a fetch that fails half-way is
        // read again from the same place.
        var cursor = connection.cursor
        let fromStart = cursor == 0
        var newest: ConnectionState.LastRead?
        // The look that found news read the first page already, in the same statement.
        var page = lookedAhead.take(cursor: cursor, database: connection.database)
        do {
            while true {
                let rows: [ServerRow]
                if let ahead = page {
                    rows = ahead
                    page = nil
                } else {
                    rows = try session.query(Self.changes(after: cursor, limit: options.fetchPageSize)).map(ServerRow.init(decoding:))
                }
                for row in rows {
                    if row.change > cursor { cursor = row.change }
                    if row.oversized {
                        unreadRows.note("server row \(row.change): \(row.size) bytes, more than any device writes; not fetched")
                        continue
                    }
                    if row.change == cursor { newest = .init(database: connection.database, key: row.key, change: row.change, clock: row.clock) }
                    guard let writerDevice = DeviceIdentifier(row.writer), row.clock >= 0 else { continue }  // not a device's row
                    let stamp = ChangeStamp(clock: HybridTimestamp(rawValue: UInt64(row.clock)), device: writerDevice)
                    // The store checks every record it is given (limits, decoding, expansion)
                    // as it does the folder's; the row number names the one it skips.
                    records.append(ChangeRecord(key: row.key, payload: row.value.map { Data($0.readableBytesView) }, stamp: stamp,
                                                origin: "server row \(row.change)"))
                }
                if rows.count < options.fetchPageSize { break }
            }
        } catch {
            throw connection.failed(error, backend: self)
        }
        connection.cursor = cursor
        if let newest = newest { connection.lastRead = newest }
        pace.fetched(rows: records.count, whole: fromStart)
        return records
    }

    /// The rows after `cursor`, oldest first. `purpose` is a comment that tells a look from a
    /// fetch in the server's `pg_stat_activity`.
    private static func changes(after cursor: Int64, limit: Int, purpose: String = "fetch") -> PostgresQuery {
        "/* \(unescaped: purpose) */ SELECT \(unescaped: rowColumns) FROM wonderland_kv WHERE change > \(cursor) ORDER BY change LIMIT \(limit)"
    }

    /// A change row as `ServerRow` takes it, seven columns. A row larger than any device writes
    /// (someone with the database's password can write anything) is not fetched: only its size
    /// and number come, to name it.
    private static let rowColumns = """
        CASE WHEN octet_length(key) <= \(maximumKeyBytes) THEN key ELSE '' END,
        CASE WHEN coalesce(octet_length(value), 0) <= \(maximumValueBytes) THEN value END,
        clock, left(device, 65), change,
        octet_length(key) > \(maximumKeyBytes) OR coalesce(octet_length(value), 0) > \(maximumValueBytes),
        octet_length(key) + coalesce(octet_length(value), 0)
        """

    /// A row is fetched only when its key and value are within what a device could write:
    /// the key a little over the store's 64 bytes (so the store names one that is too long),
    /// the value the store's whole 1 MB and a little. The store checks the rest.
    static let maximumKeyBytes = 1_024
    static let maximumValueBytes = 1_048_576 + 1_024

    /// Rows left unfetched because of their size, the newest few.
    public var readProblems: [String] { unreadRows.lines }

    public func waitForChanges(timeout: Double) {
        var deadline = Date(timeIntervalSinceNow: timeout)
        if let retry = connection.retryTime {
            // Disconnected: come back when the back-off is over, to try again.
            if retry < deadline { deadline = max(retry, Date()) }
            news.wait(until: deadline, newsNotBefore: pace.nextNewsFetch)
            return
        }
        let quiet = pace.lastHeard.addingTimeInterval(options.quietPeriod)
        if quiet < deadline { deadline = max(quiet, Date()) }
        guard address.newsWait == .poll else {
            news.wait(until: deadline, newsNotBefore: pace.nextNewsFetch)
            return
        }
        // Polling: the looks run on the connection's event loop, one after another, so the
        // store (and the app above it) and this worker wake only when there is something to
        // read, the connection failed, or the quiet period is over — not twice a second for
        // nothing.
        guard let session = connection.openSession() else { return }
        let run = LookRun()
        scheduleLook(on: session, run: run)
        news.wait(until: deadline, newsNotBefore: .distantPast)
        run.stop()
    }

    /// Looks again after the poll interval (±20 %), on `session`'s event loop, until `run` is
    /// stopped or a look has news for the worker.
    private func scheduleLook(on session: PostgresSession, run: LookRun) {
        let delay = options.pollInterval * Double.random(in: 0.8...1.2)
        session.eventLoop.scheduleTask(in: .nanoseconds(Int64(delay * 1e9))) { [self] in
            guard !run.isStopped else { return }
            look(on: session, run: run)
        }
    }

    /// One read through whatever connection or pooler is in use: the first page of changes
    /// after the last one read, which the fetch that follows takes instead of asking again
    /// (one statement per news, not two, through a pooler a thousand devices share). Every
    /// `identityLookInterval` it also reads the database's identity and newest change number:
    /// a database that is not the one read from, or went back in time, is read whole by the
    /// next fetch. A look later than the query time-out is cancelled, and so is the connection.
    private func look(on session: PostgresSession, run: LookRun) {
        let cursor = connection.cursor
        let database = connection.database
        let identifying = pace.identityLookDue(every: Self.identityLookInterval)
        let query: PostgresQuery
        if identifying {
            query = """
                /* look */ SELECT (SELECT id::text FROM wonderland_identity), (SELECT max(change) FROM wonderland_kv), page.*
                FROM (SELECT 1) AS one LEFT JOIN LATERAL (
                    SELECT \(unescaped: Self.rowColumns) FROM wonderland_kv WHERE change > \(cursor) ORDER BY change LIMIT \(options.fetchPageSize)
                ) AS page ON true
                """
        } else {
            query = Self.changes(after: cursor, limit: options.fetchPageSize, purpose: "look")
        }
        let late = session.eventLoop.scheduleTask(in: .nanoseconds(Int64(session.queryTimeout * 1e9))) { [self] in
            guard run.claim() else { return }
            _ = connection.failed(BackendUnavailable(reason: session.giveUp()), backend: self)
            news.wake()
        }
        session.start(query) { [self] result in
            late.cancel()
            guard !run.isStopped else { return }
            let answer = identifying
                ? Self.lookAnswer(identifying: result, cursor: cursor, database: database, connection: connection)
                : Self.lookAnswer(to: result)
            switch answer {
            case .nothingNew:
                pace.heard()
                scheduleLook(on: session, run: run)
            case .news(let page):
                pace.heard()
                if !page.isEmpty { lookedAhead.keep(page, cursor: cursor, database: database) }
                if run.claim() { news.post() }
            case .failed:
                if run.claim() { news.wake() }
            }
        }
    }

    /// How often a look also checks that the database is the one read from.
    static let identityLookInterval = 10.0

    private enum LookResult {
        case nothingNew
        /// Something to fetch: the first page of it, or nothing when the fetch must read whole.
        case news([ServerRow])
        /// No answer: the fetch that follows says why.
        case failed
    }

    private static func lookAnswer(to result: Result<[PostgresRow], any Error>) -> LookResult {
        guard let rows = try? result.get(),
              let page = try? rows.map(ServerRow.init(decoding:)) else { return .failed }
        return page.isEmpty ? .nothingNew : .news(page)
    }

    /// The look that also reads the identity and the newest change number: another database,
    /// or one gone back in time, is news (read whole).
    private static func lookAnswer(identifying result: Result<[PostgresRow], any Error>, cursor: Int64, database: String,
                                   connection: ConnectionState) -> LookResult {
        typealias LookRow = (String?, Int64?, String?, ByteBuffer?, Int64?, String?, Int64?, Bool?, Int64?)
        guard let rows = try? result.get(), !rows.isEmpty,
              let decoded = try? rows.map({ try $0.decode(LookRow.self) }) else { return .failed }
        let newest = decoded[0].1 ?? 0
        if decoded[0].0 != database || newest < cursor {
            connection.readAgain()
            return .news([])
        }
        if newest == cursor { return .nothingNew }
        return .news(decoded.compactMap { row -> ServerRow? in
            guard let key = row.2, let clock = row.4, let writer = row.5, let change = row.6, let oversized = row.7, let size = row.8 else { return nil }
            return ServerRow((key, row.3, clock, writer, change, oversized, size))
        })
    }

    public func wake() { news.wake() }

    /// Nothing to do: the server keeps one row per key already.
    public func compact(latest: MergedChanges) {}

    /// Closes the connection (the store calls this through `deinit` when it is done).
    deinit { connection.close() }

    /// The open session, or a new one after the back-off; throws `BackendUnavailable` while the
    /// server cannot be reached.
    private func connectedSession() throws -> PostgresSession {
        if let session = connection.openSession() { return session }
        try connection.checkBackoff()
        do {
            // A pooler in transaction mode takes no session settings; the role's own apply there.
            let settings = address.newsWait == .listen ? PostgresSession.limits(for: options) : []
            let session = try PostgresSession.connect(to: address, password: password, connectTimeout: options.connectTimeout,
                                                      queryTimeout: options.queryTimeout, serverSettings: settings)
            do {
                try PostgresSchema.migrate(session)
                let identity = try session.query("SELECT id::text, pg_backend_pid() FROM wonderland_identity").first
                    .map { try $0.decode((String, Int32).self) }
                let ownProcess = identity?.1 ?? 0
                if address.newsWait == .listen {
                    // Our own writes come back as notifications too; only other sessions' are news.
                    session.listen(on: PostgresSchema.channel) { [news, pace] sender in
                        pace.heard()
                        if sender != ownProcess { news.post() }
                    }
                }
                session.onClose { [news] in news.wake() }
                let intact = try historyIsIntact(on: session, database: identity?.0 ?? "")
                connection.connected(session, database: identity?.0 ?? "", readAgain: !intact)
            } catch {
                session.close()
                throw error
            }
            return session
        } catch {
            throw connection.failed(error, backend: self)
        }
    }

    /// Whether the server still holds what this device last read. A server restored from a
    /// backup, or one that lost its last commits in a crash (synchronous_commit off), has gone
    /// back in time: its change numbers are handed out again, and reading on from the old
    /// number would skip the new changes. Then everything is read again (at most the store's
    /// 1,024 live keys and their removals).
    private func historyIsIntact(on session: PostgresSession, database: String) throws -> Bool {
        guard let last = connection.lastRead, last.database == database else { return true }
        let row = try session.query("""
            SELECT (SELECT last_value FROM wonderland_kv_changes),
                   (SELECT change FROM wonderland_kv WHERE key = \(last.key)),
                   (SELECT clock FROM wonderland_kv WHERE key = \(last.key))
            """).first
        guard let (sequence, change, clock) = try row?.decode((Int64, Int64?, Int64?).self),
              let change, let clock else { return false }
        if sequence < last.change || change < last.change { return false }
        return change > last.change || clock == last.clock
    }

    fileprivate func backoff(afterFailures failures: Int) -> Double { options.backoff(afterFailures: failures) }

    static func backoff<Generator: RandomNumberGenerator>(afterFailures failures: Int, options: Options,
                                                          using generator: inout Generator) -> Double {
        options.backoff(afterFailures: failures, using: &generator)
    }

    /// Where the connection stands, shared between the worker and NIO's threads.
    private final class ConnectionState: @unchecked Sendable {
        private let lock = NSLock()
        private var session: PostgresSession?
        private var connectedDatabase: String?
        private var failures = 0
        private var nextAttempt: Date?
        private var problem: String?
        private var readUpTo: Int64 = 0
        private var lastRow: LastRead?

        /// The newest row read: checked on reconnecting, to notice a server gone back in time.
        struct LastRead {
            let database: String
            let key: String
            let change: Int64
            let clock: Int64
        }

        var lastRead: LastRead? {
            get { lock.withLock { lastRow } }
            set { lock.withLock { lastRow = newValue } }
        }

        var database: String { lock.withLock { connectedDatabase ?? "" } }

        /// The last change number read: the next fetch reads after it.
        var cursor: Int64 {
            get { lock.withLock { readUpTo } }
            set { lock.withLock { readUpTo = newValue } }
        }

        var retryTime: Date? { lock.withLock { session == nil ? nextAttempt : nil } }

        func openSession() -> PostgresSession? {
            lock.withLock {
                if let session, session.isClosed { self.session = nil }
                return session
            }
        }

        func checkBackoff() throws {
            try lock.withLock {
                if let nextAttempt, Date() < nextAttempt { throw BackendUnavailable(reason: problem ?? "the server cannot be reached") }
            }
        }

        func connected(_ session: PostgresSession, database: String, readAgain: Bool) {
            lock.withLock {
                // Another database, or this one gone back in time: read it all.
                if connectedDatabase != database || readAgain {
                    readUpTo = 0
                    lastRow = nil
                }
                connectedDatabase = database
                self.session = session
                failures = 0
                nextAttempt = nil
                problem = nil
            }
        }

        /// The next fetch reads from the first change: the database is not the one read.
        func readAgain() {
            lock.withLock {
                readUpTo = 0
                lastRow = nil
            }
        }

        /// Drops the connection, schedules the next attempt, and says why in the user's words.
        func failed(_ error: any Error, backend: PostgresBackend) -> BackendUnavailable {
            let reason = PostgresErrorText.describe(error, address: backend.address)
            lock.withLock {
                session?.close()
                session = nil
                failures += 1
                nextAttempt = Date(timeIntervalSinceNow: backend.backoff(afterFailures: failures))
                problem = reason
            }
            return BackendUnavailable(reason: reason)
        }

        func close() {
            lock.withLock {
                session?.close()
                session = nil
            }
        }
    }
}

/// Two flags and a condition: news from the server (a notification), and a wake (the store
/// has something to send, the connection closed), taken by `waitForChanges`. A wake ends a
/// wait at once; news only once `newsNotBefore` has come.
private final class NewsSignal: @unchecked Sendable {
    private let condition = NSCondition()
    private var news = false
    private var woken = false

    func post() {
        condition.withLock {
            news = true
            condition.broadcast()
        }
    }

    func wake() {
        condition.withLock {
            woken = true
            condition.broadcast()
        }
    }

    enum Ending { case woken, news, deadline }

    /// Waits for a wake, for news once `gate` has come, or for `deadline`, and says which.
    @discardableResult
    func wait(until deadline: Date, newsNotBefore gate: Date) -> Ending {
        condition.withLock {
            var ending = Ending.deadline
            while true {
                if woken { ending = .woken; break }
                let now = Date()
                if news && now >= gate { ending = .news; break }
                if now >= deadline { break }
                _ = condition.wait(until: news ? min(gate, deadline) : deadline)
            }
            // The fetch that follows reads whatever the news was about.
            news = false
            woken = false
            return ending
        }
    }
}

/// One wait's looks: stopped when the wait ends, and claimed once by whichever ends the wait
/// (news, a failure, a late answer), so a look left behind never speaks for the next wait.
private final class LookRun: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false

    var isStopped: Bool { lock.withLock { stopped } }

    func stop() { lock.withLock { stopped = true } }

    /// True for the first caller only, while the run is not stopped; it stops the run.
    func claim() -> Bool {
        lock.withLock {
            guard !stopped else { return false }
            stopped = true
            return true
        }
    }
}

/// When the server was last heard from, and how soon news may cost another fetch: each fetch
/// that finds nothing new doubles the gap before the next notification is acted on, up to
/// `maximumGap`, so a flood of notifications (anyone who may connect can send them) costs a
/// fetch every two seconds at most; a fetch that finds something closes the gap.
private final class NewsPace: @unchecked Sendable {
    static let firstGap = 0.05
    static let maximumGap = 2.0

    private let lock = NSLock()
    private var heardAt = Date()
    private var fetchedAt = Date.distantPast
    private var emptyFetches = 0
    private var whole = false

    private var identityLookedAt = Date.distantPast

    var lastHeard: Date { lock.withLock { heardAt } }

    /// True, and counted as done, when the last look at the database's identity is `interval`
    /// seconds old.
    func identityLookDue(every interval: Double) -> Bool {
        lock.withLock {
            let now = Date()
            guard now.timeIntervalSince(identityLookedAt) >= interval else { return false }
            identityLookedAt = now
            return true
        }
    }

    var lastFetchWasWhole: Bool { lock.withLock { whole } }

    var nextNewsFetch: Date {
        lock.withLock {
            guard emptyFetches > 0 else { return .distantPast }
            let gap = min(Self.maximumGap, Self.firstGap * pow(2, Double(min(emptyFetches - 1, 20))))
            return fetchedAt.addingTimeInterval(gap)
        }
    }

    func heard() { lock.withLock { heardAt = Date() } }

    func fetchStarted() { lock.withLock { whole = false } }

    func fetched(rows: Int, whole fromStart: Bool) {
        lock.withLock {
            heardAt = Date()
            fetchedAt = heardAt
            emptyFetches = rows == 0 ? emptyFetches + 1 : 0
            whole = fromStart
        }
    }
}

/// One change row as the server sends it, before it is checked and made a record.
private struct ServerRow: Sendable {
    let key: String
    let value: ByteBuffer?
    let clock: Int64
    let writer: String
    let change: Int64
    let oversized: Bool
    let size: Int64

    init(_ columns: (String, ByteBuffer?, Int64, String, Int64, Bool, Int64)) {
        (key, value, clock, writer, change, oversized, size) = columns
    }

    /// A row of the seven `rowColumns`.
    init(decoding row: PostgresRow) throws {
        self.init(try row.decode((String, ByteBuffer?, Int64, String, Int64, Bool, Int64).self))
    }
}

/// The first page of changes a look brought, given on a NIO thread and taken by the fetch that
/// follows; it stands only for the cursor and database it was read at.
private final class LookedAhead: @unchecked Sendable {
    private let lock = NSLock()
    private var kept: (rows: [ServerRow], cursor: Int64, database: String)?

    func keep(_ rows: [ServerRow], cursor: Int64, database: String) { lock.withLock { kept = (rows, cursor, database) } }

    func take(cursor: Int64, database: String) -> [ServerRow]? {
        lock.withLock {
            defer { kept = nil }
            guard let kept, kept.cursor == cursor, kept.database == database else { return nil }
            return kept.rows
        }
    }
}

/// The newest few lines, shared between the worker and whoever asks.
private final class RecentLines: @unchecked Sendable {
    private let lock = NSLock()
    private let keeping: Int
    private var kept: [String] = []

    init(keeping: Int) { self.keeping = keeping }

    func note(_ line: String) {
        lock.withLock {
            kept.append(line)
            if kept.count > keeping { kept.removeFirst(kept.count - keeping) }
        }
    }

    var lines: [String] { lock.withLock { kept } }
}
