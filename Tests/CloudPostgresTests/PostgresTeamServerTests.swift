import Cloud
@testable import CloudPostgres
import CloudServer
import Foundation
import PostgresNIO
import TestPrerequisites
import Testing

/// One server for a team: each user a role and a database of their own, and another user on
/// the same server trying what any role that may connect can try.
@Suite("PostgreSQL backend: a server shared by a team", .requires(.postgresServer, .openssl, .python3))
struct PostgresTeamServerTests {
    let server: TestPostgresServer

    init() throws {
        server = try TestPostgresServer.shared()
    }

    struct Role {
        let name: String
        let password: String
    }

    func role(_ prefix: String) throws -> Role {
        let role = Role(name: "\(prefix)_\(UUID().uuidString.prefix(8).lowercased())", password: UUID().uuidString)
        try server.psql("CREATE ROLE \(role.name) LOGIN PASSWORD '\(role.password)'", database: "wonderland")
        return role
    }

    /// A database owned by `owner`, with PostgreSQL's default grants (PUBLIC may connect).
    func database(of owner: Role) throws -> String {
        let name = "team_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        try server.psql("CREATE DATABASE \(name) OWNER \(owner.name)", database: "wonderland")
        return name
    }

    func address(_ role: Role, _ database: String, wait: PostgresSyncAddress.NewsWait = .listen) -> PostgresSyncAddress {
        PostgresSyncAddress(user: role.name, host: "127.0.0.1", port: server.port, database: database, tls: .disable, newsWait: wait)
    }

    func backend(_ role: Role, _ database: String, device: String = "aaaa", wait: PostgresSyncAddress.NewsWait = .listen,
                 options: PostgresBackend.Options = .init(connectTimeout: 3, queryTimeout: 3)) -> PostgresBackend {
        PostgresBackend(address: address(role, database, wait: wait), password: role.password, device: DeviceIdentifier(device)!, options: options)
    }

    func session(_ role: Role, _ database: String) throws -> PostgresSession {
        try PostgresSession.connect(to: address(role, database), password: role.password, connectTimeout: 5, queryTimeout: 30)
    }

    func record(_ key: String, _ value: String, clock: UInt64, device: String = "aaaa") -> ChangeRecord {
        ChangeRecord(key: key, payload: Data(value.utf8), stamp: ChangeStamp(clock: HybridTimestamp(rawValue: clock), device: DeviceIdentifier(device)!))
    }

    /// The store's connections to `database` that are running a statement now.
    func activeStatements(in database: String) throws -> Int {
        Int(try server.psql("SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)' AND application_name = 'wonderland' AND state = 'active'",
                            database: "wonderland").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    @Test("alice, who may connect to bob's database, holds the advisory locks the store once took: bob still connects and writes")
    func advisoryLocksStallNobody() throws {
        let bob = try role("bob"), alice = try role("alice")
        let database = try database(of: bob)
        _ = try backend(bob, database).fetchChanges()
        let intruder = try session(alice, database)
        defer { intruder.close() }
        try intruder.query("SELECT pg_advisory_lock(hashtext('wonderland_kv')), pg_advisory_lock(hashtext('wonderland_schema_version'))")
        // A device connecting now (it checks the schema) and writing, within its 3 s patience.
        let device = backend(bob, database, device: "bbbb")
        try device.append([record("pin", "Tea Party", clock: 5, device: "bbbb")])
        #expect(try device.fetchChanges().map(\.key) == ["pin"])
        // The locks the store takes now need rights on bob's tables, which alice has not.
        #expect(throws: (any Error).self) { try intruder.query("SELECT 1 FROM wonderland_limits FOR UPDATE") }
        #expect(throws: (any Error).self) { try intruder.query("LOCK TABLE wonderland_schema_version IN EXCLUSIVE MODE") }
    }

    @Test("alice listening in bob's database hears that something changed, never which device or what")
    func notificationsCarryNothing() throws {
        let bob = try role("bob"), alice = try role("alice")
        let database = try database(of: bob)
        _ = try backend(bob, database).fetchChanges()
        let listener = try session(alice, database)
        defer { listener.close() }
        let heard = ThreadSafeRecords()
        listener.connection.addListener(channel: PostgresSchema.channel) { _, notification in heard.fail(notification.payload) }
        try backend(bob, database, device: "bob-laptop").append([record("pin", "Tea Party", clock: 5, device: "bob-laptop")])
        let deadline = Date(timeIntervalSinceNow: 30)
        while heard.failures.isEmpty, Date() < deadline { usleep(10_000) }
        #expect(heard.failures == [""])
    }

    @Test("a flood of notifications costs bob's listening device a fetch per back-off, not one per notification")
    func floodCostsLittle() throws {
        let bob = try role("bob"), alice = try role("alice")
        let database = try database(of: bob)
        let reader = backend(bob, database)
        _ = try reader.fetchChanges()
        let flooder = try session(alice, database)
        defer { flooder.close() }
        let stop = ThreadSafeRecords()
        let sent = ThreadSafeRecords()
        Thread {
            var count = 0
            while stop.failures.isEmpty {
                // Each its own transaction: PostgreSQL folds repeats within one.
                _ = try? flooder.query("SELECT pg_notify('wonderland_kv', 'x')")
                count += 1
            }
            sent.fail("\(count)")
        }.start()
        var fetches = 0
        let end = Date(timeIntervalSinceNow: 4)
        while Date() < end {
            reader.waitForChanges(timeout: end.timeIntervalSinceNow)
            _ = try reader.fetchChanges()
            fetches += 1
        }
        stop.fail("stop")
        let deadline = Date(timeIntervalSinceNow: 10)
        while sent.failures.isEmpty, Date() < deadline { usleep(10_000) }
        let notifications = Int(sent.failures.first ?? "0") ?? 0
        // The gaps double from 0.05 s to 2 s: in 4 s, about eight fetches at most.
        #expect(fetches <= 10, "\(fetches) fetches for \(notifications) notifications")
        #expect(notifications > 100)
    }

    @Test("tables alice made first in carol's database are refused, naming alice; carol's own are used")
    func tablesSomeoneElseMadeAreRefused() throws {
        let carol = try role("carol"), alice = try role("alice")
        let database = try database(of: carol)
        // As before PostgreSQL 15: anyone may create in public.
        try server.psql("GRANT CREATE ON SCHEMA public TO PUBLIC", database: database)
        _ = try backend(alice, database).fetchChanges()
        try server.psql("SET ROLE \(alice.name); GRANT ALL ON ALL TABLES IN SCHEMA public TO \(carol.name); GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO \(carol.name)",
                        database: database)
        do {
            _ = try backend(carol, database).fetchChanges()
            Issue.record("carol's device used tables alice made")
        } catch let error as BackendUnavailable {
            #expect(error.reason.contains("was made by \(alice.name), not \(carol.name)"), "\(error.reason)")
            #expect(error.reason.contains("wonderland cloud check"))
        }
    }

    @Test("carol's own tables with a trigger, or rights given to another role, are refused too")
    func hooksAndGrantsAreRefused() throws {
        let carol = try role("carol"), alice = try role("alice")
        let database = try database(of: carol)
        _ = try backend(carol, database).fetchChanges()
        try server.psql("GRANT SELECT ON wonderland_kv TO \(alice.name)", database: database)
        #expect(throws: BackendUnavailable.self) { try backend(carol, database).fetchChanges() }
        try server.psql("REVOKE SELECT ON wonderland_kv FROM \(alice.name)", database: database)
        _ = try backend(carol, database).fetchChanges()
        try server.psql("""
            CREATE FUNCTION copy_out() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
            CREATE TRIGGER copy_out BEFORE INSERT ON wonderland_kv FOR EACH ROW EXECUTE FUNCTION copy_out();
            """, database: database)
        do {
            _ = try backend(carol, database).fetchChanges()
            Issue.record("a trigger wonderland did not make was accepted")
        } catch let error as BackendUnavailable {
            #expect(error.reason.contains("trigger"), "\(error.reason)")
        }
    }

    @Test("the device beyond what the server takes is told the server is full, in words the tab bar shows first")
    func fullServerInWords() throws {
        let bob = try role("bob")
        let database = try database(of: bob)
        try server.psql("ALTER ROLE \(bob.name) CONNECTION LIMIT 1", database: "wonderland")
        let first = backend(bob, database)
        _ = try first.fetchChanges()
        do {
            _ = try backend(bob, database, device: "bbbb").fetchChanges()
            Issue.record("a second connection was let in")
        } catch let error as BackendUnavailable {
            #expect(error.reason.hasPrefix("the server is full: every connection to 127.0.0.1:\(server.port) is in use"), "\(error.reason)")
        }
    }

    @Test("a statement the device gives up on ends on the server: a locked table leaks no busy connection", arguments: [
        PostgresSyncAddress.NewsWait.listen, .poll,
    ])
    func givenUpStatementsEnd(wait: PostgresSyncAddress.NewsWait) throws {
        let bob = try role("bob")
        let database = try database(of: bob)
        let options = PostgresBackend.Options(connectTimeout: 2, queryTimeout: 1, initialBackoff: 0.05, maximumBackoff: 0.1)
        let device = backend(bob, database, wait: wait, options: options)
        _ = try device.fetchChanges()
        // The owner holds the table, as a long migration or a stuck admin would.
        let holder = try PostgresSession.connect(to: server.address(database: database), password: server.password, connectTimeout: 5, queryTimeout: 60)
        defer { holder.close() }
        try holder.query("BEGIN")
        try holder.query("LOCK TABLE wonderland_kv IN ACCESS EXCLUSIVE MODE")
        for clock in 1 ... 4 {
            #expect(throws: BackendUnavailable.self) { try device.append([record("pin", "try \(clock)", clock: UInt64(clock))]) }
            usleep(150_000)
        }
        // The server has stopped each (statement_timeout, lock_timeout, or the cancel).
        let deadline = Date(timeIntervalSinceNow: 10)
        while try activeStatements(in: database) > 0, Date() < deadline { usleep(50_000) }
        #expect(try activeStatements(in: database) == 0)
        try holder.query("ROLLBACK")
        Thread.sleep(forTimeInterval: 0.2)
        try device.append([record("pin", "after", clock: 9)])
    }
}
