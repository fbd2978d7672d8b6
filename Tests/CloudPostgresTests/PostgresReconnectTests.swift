import Cloud
import CloudPostgres
import Foundation
import PropertyList
import TestPrerequisites
import Testing

/// Servers that go away: each test has a server of its own, which it kills and starts again.
@Suite("PostgreSQL backend: a server that goes away", .requires(.postgresServer, .openssl, .python3))
struct PostgresReconnectTests {
    /// Waits (bounded) for `condition`, which a worker thread makes true.
    func eventually(_ seconds: Double = 60, _ condition: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !condition() {
            if Date() > deadline { return false }
            usleep(10_000)
        }
        return true
    }

    func store(_ device: String, on server: TestPostgresServer) -> UbiquitousKeyValueStore {
        let backend = PostgresBackend(address: server.address(database: "wonderland"), password: server.password,
                                      device: DeviceIdentifier(device)!,
                                      options: .init(connectTimeout: 2, queryTimeout: 2, initialBackoff: 0.05, maximumBackoff: 0.4))
        return UbiquitousKeyValueStore(.init(backend: backend, device: DeviceIdentifier(device)!, pollInterval: 0.2))
    }

    @Test("killed mid-run and started again: both devices keep working offline, then catch up; nothing is lost")
    func killedServerCatchUp() throws {
        let server = try TestPostgresServer.dedicated()
        defer { server.remove() }
        let first = store("aaaa", on: server)
        let second = store("bbbb", on: server)
        first.start()
        second.start()
        defer {
            first.stop()
            second.stop()
        }
        first.set(.string("Tea Party"), forKey: "HPLocation")
        #expect(eventually { second.object(forKey: "HPLocation") == .string("Tea Party") })

        try server.kill()
        first.set(.string("Croquet Ground"), forKey: "HPLocation")
        second.set(.integer(42), forKey: "WLReadingPosition.alice")
        #expect(eventually { first.status.isReachable == false && second.status.isReachable == false })
        #expect(first.status.pendingChanges == 1)
        #expect(second.status.pendingChanges == 1)
        // Working on the local copy meanwhile.
        #expect(first.object(forKey: "HPLocation") == .string("Croquet Ground"))
        #expect(first.status.problem?.contains("127.0.0.1:\(server.port)") == true, "\(first.status.problem ?? "")")

        try server.start()
        #expect(eventually { second.object(forKey: "HPLocation") == .string("Croquet Ground") })
        #expect(eventually { first.object(forKey: "WLReadingPosition.alice") == .integer(42) })
        #expect(eventually { first.status.isReachable == true && first.status.pendingChanges == 0 && second.status.pendingChanges == 0 })
    }

    @Test("a server that is down at launch: the store starts offline and syncs when it comes")
    func downAtLaunch() throws {
        let server = try TestPostgresServer.dedicated()
        defer { server.remove() }
        try server.kill()
        let first = store("aaaa", on: server)
        first.set(.string("written offline"), forKey: "note")
        first.start()
        defer { first.stop() }
        #expect(eventually { first.status.problem != nil })
        #expect(first.status.problem?.contains("cannot connect") == true, "\(first.status.problem ?? "")")
        try server.start()
        #expect(eventually { first.status.isReachable == true && first.status.pendingChanges == 0 })
        let second = store("bbbb", on: server)
        #expect(second.synchronize())
        #expect(second.object(forKey: "note") == .string("written offline"))
    }
}
