import Cloud
@testable import CloudPostgres
import CloudServer
import Foundation
import PropertyList
import TestPrerequisites
import Testing

/// A server that is not the one the devices last saw, and a connection that died without a
/// word: each noticed, and healed with nothing lost, through the real store.
@Suite("PostgreSQL backend: a server that changed under the devices", .requires(.postgresServer, .openssl, .python3))
struct PostgresHealingTests {
    let server: TestPostgresServer

    init() throws {
        server = try TestPostgresServer.shared()
    }

    func eventually(_ seconds: Double = 60, _ condition: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !condition() {
            if Date() > deadline { return false }
            usleep(20_000)
        }
        return true
    }

    func store(_ device: String, _ address: PostgresSyncAddress, quietPeriod: Double = 30) -> UbiquitousKeyValueStore {
        let backend = PostgresBackend(address: address, password: server.password, device: DeviceIdentifier(device)!,
                                      options: .init(connectTimeout: 2, queryTimeout: 1, initialBackoff: 0.05, maximumBackoff: 0.4,
                                                     quietPeriod: quietPeriod))
        return UbiquitousKeyValueStore(.init(backend: backend, device: DeviceIdentifier(device)!, pollInterval: 0.2))
    }

    func pin(_ store: UbiquitousKeyValueStore) -> String? {
        if case .string(let text)? = store.object(forKey: "pin") { return text }
        return nil
    }

    @Test("a database made anew at the same address gets back what the devices hold, and they say so; a new device then finds it")
    func databaseMadeAnew() throws {
        let address = try server.freshDatabase()
        let first = store("aaaa", address), second = store("bbbb", address)
        first.start()
        second.start()
        defer {
            first.stop()
            second.stop()
        }
        first.set(.string("Tea Party"), forKey: "pin")
        #expect(eventually { pin(second) == "Tea Party" })

        try server.psql("DROP DATABASE \(address.database) WITH (FORCE)", database: "wonderland")
        try server.psql("CREATE DATABASE \(address.database)", database: "wonderland")

        let newcomer = store("cccc", address)
        newcomer.start()
        defer { newcomer.stop() }
        #expect(eventually { pin(newcomer) == "Tea Party" })
        let warnings = first.takeWarnings() + second.takeWarnings()
        #expect(warnings.contains { $0.contains("holds less than this machine had from it") }, "\(warnings)")
    }

    @Test("a server gone back in time (a row and the change counter put back, as a restored dump does) gets the newer value again")
    func restoredDatabase() throws {
        let address = try server.freshDatabase()
        let first = store("aaaa", address), second = store("bbbb", address)
        first.start()
        second.start()
        defer {
            first.stop()
            second.stop()
        }
        first.set(.string("Tea Party"), forKey: "pin")
        #expect(eventually { pin(second) == "Tea Party" })
        first.set(.string("Croquet Ground"), forKey: "pin")
        #expect(eventually { pin(second) == "Croquet Ground" })
        // What a dump taken between the two writes holds, restored over the database.
        let row = try server.psql("SELECT change FROM wonderland_kv WHERE key = 'pin'", database: address.database).trimmingCharacters(in: .whitespacesAndNewlines)
        try server.psql("""
            DELETE FROM wonderland_kv; SELECT setval('wonderland_kv_changes', \(max(1, (Int(row) ?? 2) - 1)));
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid();
            """, database: address.database)
        let newcomer = store("cccc", address)
        newcomer.start()
        defer { newcomer.stop() }
        #expect(eventually { pin(newcomer) == "Croquet Ground" })
    }

    @Test("a connection that goes silent (no reset, nothing) is noticed within the quiet period, and the device catches up")
    func silentConnectionIsNoticed() throws {
        let address = try server.freshDatabase()
        let proxy = try FreezingProxy(to: server.port)
        defer { proxy.close() }
        var throughProxy = address
        throughProxy.port = proxy.port
        let writer = store("aaaa", address)
        let reader = store("bbbb", throughProxy, quietPeriod: 1)
        writer.start()
        reader.start()
        defer {
            writer.stop()
            reader.stop()
        }
        writer.set(.string("Tea Party"), forKey: "pin")
        #expect(eventually { pin(reader) == "Tea Party" })
        proxy.freeze()
        writer.set(.string("Croquet Ground"), forKey: "pin")
        // Quiet period 1 s, then the look times out after 1 s, then a new connection.
        #expect(eventually(20) { pin(reader) == "Croquet Ground" })
    }
}
