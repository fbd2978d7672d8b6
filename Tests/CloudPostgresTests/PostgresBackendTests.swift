import Cloud
@testable import CloudPostgres
import CloudServer
import Foundation
import PropertyList
import TestPrerequisites
import Testing

/// The backend against a real server (scripts/pg-server): each test has a database of its own.
@Suite("PostgreSQL backend", .requires(.postgresServer, .openssl, .python3))
struct PostgresBackendTests {
    let server: TestPostgresServer
    let address: PostgresSyncAddress

    init() throws {
        server = try TestPostgresServer.shared()
        address = try server.freshDatabase()
    }

    func backend(_ device: String, options: PostgresBackend.Options = .init()) -> PostgresBackend {
        PostgresBackend(address: address, password: server.password, device: DeviceIdentifier(device)!, options: options)
    }

    func record(_ key: String, _ value: String?, clock: UInt64, device: String) -> ChangeRecord {
        ChangeRecord(key: key, payload: value.map { Data($0.utf8) }, stamp: ChangeStamp(clock: HybridTimestamp(rawValue: clock), device: DeviceIdentifier(device)!))
    }

    @Test("the first connection creates the tables and records every version; later ones change nothing")
    func schemaCreatedOnce() throws {
        let first = backend("aaaa")
        #expect(try first.fetchChanges().isEmpty)
        let second = backend("bbbb")
        #expect(try second.fetchChanges().isEmpty)
        #expect(try server.psql("SELECT string_agg(version::text, ',') FROM wonderland_schema_version", database: address.database) == "1\n")
        #expect(try server.psql("SELECT max_keys, max_total_bytes, max_key_bytes FROM wonderland_limits", database: address.database) == "1024|1048576|64\n")
    }

    @Test("a database an older wonderland made keeps its layout version, so older devices go on syncing, and gets the current write function")
    func olderDatabaseGetsCurrentFunction() throws {
        _ = try backend("aaaa").fetchChanges()
        // The function as the first version made it: an advisory lock, the device in the notification.
        try server.psql("DROP FUNCTION \(PostgresSchema.writeFunction)", database: address.database)
        try server.psql(PostgresSchema.migrations[0].last!, database: address.database)
        let body = "SELECT prosrc FROM pg_proc WHERE oid = to_regprocedure('\(PostgresSchema.writeFunction)')"
        #expect(try server.psql(body, database: address.database).contains("pg_advisory_xact_lock"))

        let device = backend("bbbb")
        try device.append([record("pin", "Tea Party", clock: 3, device: "bbbb")])
        #expect(try !server.psql(body, database: address.database).contains("pg_advisory"))
        #expect(try server.psql("SELECT has_function_privilege('public', '\(PostgresSchema.writeFunction)', 'EXECUTE')", database: address.database) == "f\n")
        #expect(try server.psql("SELECT string_agg(version::text, ',') FROM wonderland_schema_version", database: address.database) == "1\n")
        #expect(try device.fetchChanges().map(\.key) == ["pin"])
    }

    @Test("a server whose tables are newer than this app is refused, saying so")
    func newerSchemaRefused() throws {
        _ = try backend("aaaa").fetchChanges()
        try server.psql("INSERT INTO wonderland_schema_version (version) VALUES (7)", database: address.database)
        do {
            _ = try backend("bbbb").fetchChanges()
            Issue.record("a newer schema was accepted")
        } catch let error as BackendUnavailable {
            #expect(error.reason.contains("version 7, newer than this app knows (\(PostgresSchema.currentVersion))"))
        }
    }

    @Test("writes are conditional on the clock: the server keeps what last-writer-wins keeps, in any order")
    func compareAndSetOnTheClock() throws {
        let device = backend("aaaa")
        let records = [
            record("k", "old", clock: 100, device: "aaaa"),
            record("k", "new", clock: 200, device: "aaaa"),
            record("tie", "from-b", clock: 50, device: "bbbb"),
            record("tie", "from-a", clock: 50, device: "aaaa"),  // same clock: the larger device wins
            record("gone", "value", clock: 10, device: "aaaa"),
            record("gone", nil, clock: 11, device: "aaaa"),
            record("same", nil, clock: 5, device: "aaaa"),
            record("same", "value beats removal", clock: 5, device: "aaaa"),
            record("bytes", "aaa", clock: 7, device: "aaaa"),
            record("bytes", "aab", clock: 7, device: "aaaa"),  // equal stamps: the larger bytes
        ]
        // Each record alone, newest first and oldest first: the server must end the same way.
        for order in [records, records.reversed()] {
            let fresh = try server.freshDatabase()
            let writer = PostgresBackend(address: fresh, password: server.password, device: DeviceIdentifier("aaaa")!)
            for record in order { try writer.append([record]) }
            let reader = PostgresBackend(address: fresh, password: server.password, device: DeviceIdentifier("cccc")!)
            let onServer = MergedChanges(try reader.fetchChanges())
            #expect(onServer == MergedChanges(records))
        }
        _ = device
    }

    @Test("four devices writing the same keys at once from threads converge to the merge of every write")
    func concurrentWritersConverge() throws {
        let devices = ["d1", "d2", "d3", "d4"]
        let all = ThreadSafeRecords()
        DispatchQueue.concurrentPerform(iterations: devices.count) { index in
            let writer = backend(devices[index])
            var generator = SeededRandomNumberGenerator(seed: UInt64(index + 1))
            for round in 0 ..< 60 {
                let batch = (0 ..< 3).map { _ in
                    record("key\(Int.random(in: 0 ..< 8, using: &generator))",
                           Bool.random(using: &generator) && round % 7 == 0 ? nil : "v\(round)-\(devices[index])",
                           clock: UInt64.random(in: 1 ... 400, using: &generator), device: devices[index])
                }
                do {
                    try writer.append(batch)
                    all.add(batch)
                } catch {
                    all.fail("\(error)")
                }
            }
        }
        #expect(all.failures.isEmpty, "\(all.failures)")
        let reader = backend("reader")
        #expect(MergedChanges(try reader.fetchChanges()) == MergedChanges(all.records))
    }

    @Test("a reader is told only what changed since the last fetch, and its own writes come back too")
    func incrementalFetches() throws {
        let writer = backend("aaaa")
        let reader = backend("bbbb")
        #expect(try reader.fetchChanges().isEmpty)
        try writer.append([record("a", "1", clock: 1, device: "aaaa"), record("b", "2", clock: 2, device: "aaaa")])
        #expect(Set(try reader.fetchChanges().map(\.key)) == ["a", "b"])
        #expect(try reader.fetchChanges().isEmpty)
        try writer.append([record("a", "3", clock: 3, device: "aaaa")])
        #expect(try reader.fetchChanges().map(\.key) == ["a"])
        try writer.append([record("a", "older", clock: 2, device: "aaaa")])  // loses: nothing new
        #expect(try reader.fetchChanges().isEmpty)
    }

    @Test("catching up reads in pages, and a reader that fetched in pages has everything once")
    func pagedCatchUp() throws {
        let writer = backend("aaaa")
        try writer.append((1 ... 10).map { record("k\($0)", "v\($0)", clock: UInt64($0), device: "aaaa") })
        let reader = backend("bbbb", options: .init(fetchPageSize: 3))
        let first = try reader.fetchChanges()
        #expect(first.count == 10)
        #expect(Set(first.map(\.key)).count == 10)
        try writer.append([record("k1", "again", clock: 11, device: "aaaa")])
        #expect(try reader.fetchChanges().map(\.key) == ["k1"])
    }

    @Test("a write from another device ends the other's wait early (LISTEN/NOTIFY)")
    func notificationEndsTheWait() throws {
        let writer = backend("aaaa")
        let reader = backend("bbbb")
        _ = try reader.fetchChanges()
        _ = try writer.fetchChanges()
        let woke = ThreadSafeRecords()
        let waiting = Thread {
            reader.waitForChanges(timeout: 120)
            woke.fail("woke")
        }
        waiting.start()
        try writer.append([record("pin", "Tea Party", clock: 9, device: "aaaa")])
        // Bounded: without the notification the wait would last two minutes.
        let deadline = Date(timeIntervalSinceNow: 60)
        while woke.failures.isEmpty, Date() < deadline { usleep(5_000) }
        #expect(woke.failures == ["woke"])
        #expect(try reader.fetchChanges().map(\.key) == ["pin"])
    }

    @Test("the server checks the limits itself, in the writing transaction: an overrun is refused whole")
    func serverRefusesOverrunWhole() throws {
        let first = backend("aaaa")
        _ = try first.fetchChanges()
        try server.psql("UPDATE wonderland_limits SET max_keys = 3, max_total_bytes = 200", database: address.database)
        try first.append([record("k1", "one", clock: 1, device: "aaaa"), record("k2", "two", clock: 2, device: "aaaa")])

        let second = backend("bbbb")
        #expect(throws: BackendRefusal.self) {
            try second.append([record("k3", "three", clock: 3, device: "bbbb"), record("k4", "four", clock: 4, device: "bbbb")])
        }
        do {
            try second.append([record("k3", "three", clock: 3, device: "bbbb"), record("k4", "four", clock: 4, device: "bbbb")])
        } catch let refusal as BackendRefusal {
            #expect(refusal.limit == .tooManyKeys(count: 4, limit: 3))
            #expect(refusal.keys == ["k3", "k4"])
        }
        do {
            try second.append([record("k1", String(repeating: "x", count: 300), clock: 5, device: "bbbb")])
            Issue.record("300 bytes went into a 200-byte store")
        } catch let refusal as BackendRefusal {
            #expect(refusal.limit == .tooLarge(bytes: 2 + 300 + 2 + 3, limit: 200))
        }
        let longKey = String(repeating: "k", count: 65)
        do {
            try second.append([record("fine", "x", clock: 6, device: "bbbb"), record(longKey, "x", clock: 6, device: "bbbb")])
            Issue.record("a 65-byte key was taken")
        } catch let refusal as BackendRefusal {
            #expect(refusal.limit == .keyTooLong(key: longKey, bytes: 65, limit: 64))
        }
        // Nothing of any refused batch is there.
        #expect(try server.psql("SELECT string_agg(key || '=' || encode(value, 'escape'), ',' ORDER BY key) FROM wonderland_kv", database: address.database) == "k1=one,k2=two\n")
        // Over the limit already (the limit lowered): a batch that does not make it worse is taken.
        try server.psql("UPDATE wonderland_limits SET max_keys = 1", database: address.database)
        try second.append([record("k1", nil, clock: 7, device: "bbbb")])
        #expect(try server.psql("SELECT string_agg(key, ',' ORDER BY key) FROM wonderland_kv WHERE NOT deleted", database: address.database) == "k2\n")
    }

    @Test("a batch the server refuses is split: the key over the limit is taken back in the store, and the app hears of it as a quota violation; the other key is stored")
    func storeTakesBackARefusedBatch() throws {
        _ = try backend("setup").fetchChanges()
        try server.psql("UPDATE wonderland_limits SET max_keys = 3", database: address.database)
        let first = UbiquitousKeyValueStore(.init(backend: backend("aaaa"), device: DeviceIdentifier("aaaa")!))
        first.set(.string("one"), forKey: "k1")
        first.set(.string("two"), forKey: "k2")
        #expect(first.synchronize())
        // The second device has not heard of them yet: its own limits let both writes through.
        let second = UbiquitousKeyValueStore(.init(backend: backend("bbbb"), device: DeviceIdentifier("bbbb")!))
        try second.setValues(["k3": .string("three"), "k4": .string("four")])
        #expect(second.status.pendingChanges == 2)
        #expect(second.synchronize())
        let changes = second.processExternalChanges()
        let violation = changes.first { $0.reason == .quotaViolationChange }
        #expect(violation?.changedKeys == ["k4"])
        #expect(violation?.refusal == .tooManyKeys(count: 4, limit: 3))
        #expect(second.object(forKey: "k3") == .string("three"), "one key over the limit holds back no other")
        #expect(second.object(forKey: "k4") == nil)
        #expect(second.object(forKey: "k1") == .string("one"))
        #expect(second.status.refusedKeys == 1)
        #expect(second.status.pendingChanges == 0)
        #expect(second.synchronize())  // not sent again
        #expect(!second.processExternalChanges().contains { $0.reason == .quotaViolationChange })
    }

    @Test("a wrong or missing password is said plainly, and the password never appears in the message")
    func passwordProblems() throws {
        let wrong = PostgresBackend(address: address, password: "NotThePassword123", device: DeviceIdentifier("aaaa")!)
        do {
            _ = try wrong.fetchChanges()
            Issue.record("a wrong password was accepted")
        } catch let error as BackendUnavailable {
            #expect(error.reason.contains("refused wonderland's password"), "\(error.reason)")
            #expect(!error.reason.contains("NotThePassword123"))
        }
        let missing = PostgresBackend(address: address, password: nil, device: DeviceIdentifier("aaaa")!)
        do {
            _ = try missing.fetchChanges()
            Issue.record("no password was accepted")
        } catch let error as BackendUnavailable {
            #expect(error.reason.contains("PGPASSWORD"), "\(error.reason)")
        }
    }

    @Test("sslmode=require, verify-ca and verify-full connect over TLS; the server sees an encrypted connection")
    func tlsWhenAsked() throws {
        var encrypted = address
        encrypted.tls = .require
        let writer = PostgresBackend(address: encrypted, password: server.password, device: DeviceIdentifier("aaaa")!)
        try writer.append([record("k", "over TLS", clock: 1, device: "aaaa")])
        let sql = "SELECT count(*) FROM pg_stat_ssl JOIN pg_stat_activity USING (pid) WHERE datname = '\(address.database)' AND ssl"
        #expect(try server.psql(sql, database: "wonderland") == "1\n")

        var verified = address
        verified.tls = .verifyCA
        verified.rootCertificate = server.folder + "/data/server.crt"
        let reader = PostgresBackend(address: verified, password: server.password, device: DeviceIdentifier("bbbb")!)
        #expect(try reader.fetchChanges().map(\.key) == ["k"])

        // verify-full: the host must match the certificate too (it names 127.0.0.1 and localhost).
        for host in ["127.0.0.1", "localhost"] {
            var checked = address
            checked.host = host
            checked.tls = .verifyFull
            checked.rootCertificate = server.folder + "/data/server.crt"
            let full = PostgresBackend(address: checked, password: server.password, device: DeviceIdentifier("dddd")!)
            #expect(try full.fetchChanges().map(\.key) == ["k"], "verify-full through \(host)")
        }

        var untrusted = address
        untrusted.tls = .verifyCA  // the system's roots do not know the throw-away certificate
        let refused = PostgresBackend(address: untrusted, password: server.password, device: DeviceIdentifier("cccc")!)
        #expect(throws: BackendUnavailable.self) { try refused.fetchChanges() }
    }

    @Test("a server gone back in time (its last commits lost, a backup restored) is read again, so no new change is skipped")
    func serverBackInTimeIsReadAgain() throws {
        let writer = backend("aaaa", options: .init(initialBackoff: 0.01, maximumBackoff: 0.05))
        let reader = backend("bbbb", options: .init(initialBackoff: 0.01, maximumBackoff: 0.05))
        for clock in 1 ... 5 as ClosedRange<UInt64> { try writer.append([record("k\(clock)", "v", clock: clock, device: "aaaa")]) }
        #expect(try reader.fetchChanges().count == 5)
        // What a crash with synchronous_commit off does: the last two commits and their change
        // numbers are gone, and both connections drop.
        try server.psql("DELETE FROM wonderland_kv WHERE key IN ('k4', 'k5')", database: address.database)
        try server.psql("SELECT setval('wonderland_kv_changes', 3)", database: address.database)
        try server.psql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(address.database)' AND pid <> pg_backend_pid()",
                        database: "wonderland")
        // The new changes get the numbers the lost ones had.
        var written = false
        let deadline = Date(timeIntervalSinceNow: 30)
        while !written, Date() < deadline {
            written = (try? writer.append([record("after1", "v", clock: 10, device: "aaaa"), record("after2", "v", clock: 11, device: "aaaa")])) != nil
            if !written { usleep(20_000) }
        }
        #expect(written)
        var seen = Set<String>()
        while !seen.isSuperset(of: ["after1", "after2"]), Date() < deadline {
            if let records = try? reader.fetchChanges() { seen.formUnion(records.map(\.key)) } else { usleep(20_000) }
        }
        #expect(seen.isSuperset(of: ["after1", "after2"]), "\(seen)")
    }

    @Test("a database made anew at the same address is read from its start")
    func recreatedDatabaseIsReadAgain() throws {
        let reader = backend("bbbb", options: .init(initialBackoff: 0.01, maximumBackoff: 0.05))
        let writer = backend("aaaa")
        for clock in 1 ... 5 as ClosedRange<UInt64> { try writer.append([record("k\(clock)", "v", clock: clock, device: "aaaa")]) }
        #expect(try reader.fetchChanges().count == 5)
        try server.psql("DROP DATABASE \(address.database) WITH (FORCE)", database: "wonderland")
        try server.psql("CREATE DATABASE \(address.database)", database: "wonderland")
        let newWriter = backend("cccc")
        try newWriter.append([record("fresh", "v", clock: 1, device: "cccc")])
        var seen: [String] = []
        let deadline = Date(timeIntervalSinceNow: 30)
        while !seen.contains("fresh"), Date() < deadline {
            if let records = try? reader.fetchChanges() { seen += records.map(\.key) } else { usleep(20_000) }
        }
        #expect(seen.contains("fresh"))
    }
}

/// Records and failures gathered from several threads.
final class ThreadSafeRecords: @unchecked Sendable {
    private let lock = NSLock()
    private var gathered: [ChangeRecord] = []
    private var problems: [String] = []
    func add(_ batch: [ChangeRecord]) { lock.withLock { gathered += batch } }
    func fail(_ problem: String) { lock.withLock { problems.append(problem) } }
    var records: [ChangeRecord] { lock.withLock { gathered } }
    var failures: [String] { lock.withLock { problems } }
}
