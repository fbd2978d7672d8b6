import Cloud
@testable import CloudPostgres
import CloudServer
import Foundation
import TestPrerequisites
import Testing

/// `wait=poll`, as through a pooler: the looks happen inside the wait, so a device learns of
/// another's change within a look or two, and a quiet store is not woken for nothing.
@Suite("PostgreSQL backend: news by polling", .requires(.postgresServer, .openssl, .python3))
struct PostgresPollingTests {
    let server: TestPostgresServer

    init() throws {
        server = try TestPostgresServer.shared()
    }

    func database() throws -> String {
        let name = "poll_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        try server.psql("CREATE DATABASE \(name)", database: "wonderland")
        return name
    }

    func backend(_ database: String, device: String, quietPeriod: Double = 30, pageSize: Int = 2_000) -> PostgresBackend {
        var address = server.address(database: database)
        address.newsWait = .poll
        return PostgresBackend(address: address, password: server.password, device: DeviceIdentifier(device)!,
                               options: .init(connectTimeout: 5, queryTimeout: 5, fetchPageSize: pageSize, pollInterval: 0.2, quietPeriod: quietPeriod))
    }

    func record(_ value: String, clock: UInt64, device: String) -> ChangeRecord {
        ChangeRecord(key: "pin", payload: Data(value.utf8), stamp: ChangeStamp(clock: HybridTimestamp(rawValue: clock), device: DeviceIdentifier(device)!))
    }

    @Test("a wait ends when another device writes, and the fetch after it has the change")
    func anotherDevicesWriteEndsTheWait() throws {
        let database = try database()
        let reader = backend(database, device: "aaaa"), writer = backend(database, device: "bbbb")
        _ = try reader.fetchChanges()
        _ = try writer.fetchChanges()
        let change = record("Tea Party", clock: 5, device: "bbbb")
        let started = Date()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { try? writer.append([change]) }
        reader.waitForChanges(timeout: 60)
        #expect(Date().timeIntervalSince(started) < 30, "ended by the change, not by the quiet period or the time-out")
        #expect(try reader.fetchChanges().map(\.payload) == [Data("Tea Party".utf8)])
    }

    @Test("the look that finds news brings the changes: the fetch after it sends no statement of its own")
    func theLookBringsTheChanges() throws {
        let database = try database()
        let reader = backend(database, device: "aaaa"), writer = backend(database, device: "bbbb")
        _ = try reader.fetchChanges()
        _ = try writer.fetchChanges()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { try? writer.append([record("Tea Party", clock: 5, device: "bbbb")]) }
        reader.waitForChanges(timeout: 60)
        #expect(try reader.fetchChanges().map(\.payload) == [Data("Tea Party".utf8)])
        // Each backend's last statement: the writer's write, the reader's look.
        let last = try server.psql("SELECT left(regexp_replace(query, '\\s+', ' ', 'g'), 400) FROM pg_stat_activity WHERE datname = '\(database)' AND application_name = 'wonderland' ORDER BY query",
                                   database: "wonderland").split(separator: "\n").map(String.init)
        #expect(last.count == 2)
        #expect(last.contains { $0.hasPrefix("/* look */") }, "the reader's last statement is its look: \(last)")
        #expect(!last.contains { $0.hasPrefix("/* fetch */") }, "no fetch of its own after the look: \(last)")
    }

    @Test("more changes than a page: the look's page, then the fetch's own pages, every change once")
    func moreThanAPageAfterALook() throws {
        let database = try database()
        let reader = backend(database, device: "aaaa", pageSize: 3), writer = backend(database, device: "bbbb")
        _ = try reader.fetchChanges()
        _ = try writer.fetchChanges()
        let burst = (0 ..< 8).map { index in
            ChangeRecord(key: "key\(index)", payload: Data("value \(index)".utf8), stamp: ChangeStamp(clock: HybridTimestamp(rawValue: 10 + UInt64(index)), device: DeviceIdentifier("bbbb")!))
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { try? writer.append(burst) }
        reader.waitForChanges(timeout: 60)
        var fetched = try reader.fetchChanges()
        // The burst is one statement, so one look sees all of it or none.
        #expect(fetched.count == 8)
        fetched += try reader.fetchChanges()
        #expect(fetched.map(\.key).sorted() == burst.map(\.key).sorted())
    }

    @Test("with nothing new the wait lasts until its deadline: looking finds nothing and says so to nobody")
    func nothingNewKeepsWaiting() throws {
        let database = try database()
        let reader = backend(database, device: "aaaa")
        _ = try reader.fetchChanges()
        let started = Date()
        reader.waitForChanges(timeout: 1.5)
        // Several looks (every 0.2 s) happened meanwhile; none ended the wait.
        #expect(Date().timeIntervalSince(started) >= 1.4)
        #expect(try reader.fetchChanges().isEmpty)
    }

    @Test("a wake ends the wait at once, even while a look is on its way")
    func aWakeEndsTheWait() throws {
        let database = try database()
        let reader = backend(database, device: "aaaa")
        _ = try reader.fetchChanges()
        // The table locked, so a look would wait for it until its time-out.
        let holder = try PostgresSession.connect(to: server.address(database: database), password: server.password, connectTimeout: 5, queryTimeout: 60)
        defer { holder.close() }
        try holder.query("BEGIN")
        try holder.query("LOCK TABLE wonderland_kv IN ACCESS EXCLUSIVE MODE")
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) { reader.wake() }
        let started = Date()
        reader.waitForChanges(timeout: 60)
        #expect(Date().timeIntervalSince(started) < 4.5, "not held until the look's 5 s time-out")
        try holder.query("ROLLBACK")
    }

    @Test("a database made anew at the same address ends the wait, and the fetch after it reads it whole")
    func aNewDatabaseIsNoticed() throws {
        let database = try database()
        let reader = backend(database, device: "aaaa"), writer = backend(database, device: "bbbb")
        _ = try writer.fetchChanges()
        try writer.append([record("one", clock: 1, device: "bbbb")])
        try writer.append([record("two", clock: 2, device: "bbbb")])
        #expect(try reader.fetchChanges().count == 1)
        // The identity row replaced, as a database made anew has another.
        try server.psql("UPDATE wonderland_identity SET id = gen_random_uuid()", database: database)
        reader.waitForChanges(timeout: 60)
        #expect(try reader.fetchChanges().map(\.payload) == [Data("two".utf8)])
        #expect(reader.lastFetchWasWhole)
    }
}
