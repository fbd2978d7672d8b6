import Cloud
import CloudPostgres
import CloudServer
import Foundation
import PropertyList
import TestPrerequisites
import Testing

/// Rows another device (or anyone with the database's password) wrote that no device may
/// apply go through the same checks as a folder's change files: skipped, named by row.
@Suite("PostgreSQL backend: hostile rows", .requires(.postgresServer, .openssl, .python3))
struct PostgresHostileRowTests {
    let server: TestPostgresServer
    let address: PostgresSyncAddress

    init() throws {
        server = try TestPostgresServer.shared()
        address = try server.freshDatabase()
    }

    /// Object k is an array of two references to object k + 1, forty deep: 2^40 leaves.
    static func sharedReferenceBomb() -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for index in 0 ..< 40 {
            offsets.append(UInt8(bytes.count))
            bytes += [0xA2, UInt8(index + 1), UInt8(index + 1)]
        }
        offsets.append(UInt8(bytes.count))
        bytes += [0x10, 0x01]
        let table = UInt64(bytes.count)
        bytes += offsets + [0, 0, 0, 0, 0, 0, 1, 1]
        for number in [UInt64(offsets.count), 0, table] { withUnsafeBytes(of: number.bigEndian) { bytes += $0 } }
        return Data(bytes)
    }

    @Test("a shared-reference bomb in a server row is skipped and named by its row; the good rows arrive")
    func bombRowSkipped() throws {
        let peer = DeviceIdentifier("bbbb")!
        let writer = PostgresBackend(address: address, password: server.password, device: peer)
        try writer.append([
            try ChangeRecord(key: "good", value: .string("fine"), stamp: ChangeStamp(clock: HybridTimestamp(milliseconds: 1000, counter: 0), device: peer)),
            ChangeRecord(key: "bomb", payload: Self.sharedReferenceBomb(), stamp: ChangeStamp(clock: HybridTimestamp(milliseconds: 1001, counter: 0), device: peer)),
        ])
        let row = try server.psql("SELECT change FROM wonderland_kv WHERE key = 'bomb'", database: address.database)
            .trimmingCharacters(in: .whitespacesAndNewlines)

        let me = DeviceIdentifier("aaaa")!
        let store = UbiquitousKeyValueStore(.init(backend: PostgresBackend(address: address, password: server.password, device: me), device: me))
        #expect(store.synchronize())
        #expect(store.dictionaryRepresentation == ["good": .string("fine")])
        #expect(store.status.skippedChanges == 1)
        let named = try #require(store.status.lastSkipped.first)
        #expect(named.key == "bomb")
        #expect(named.origin == "server row \(row)")
        #expect(named.description.contains("expands to more than"))
    }

    @Test("a row larger than any device writes, put there by hand, is not fetched and is named; the rest arrive")
    func oversizedRowNotFetched() throws {
        let peer = DeviceIdentifier("bbbb")!
        try PostgresBackend(address: address, password: server.password, device: peer).append([
            try ChangeRecord(key: "good", value: .string("fine"), stamp: ChangeStamp(clock: HybridTimestamp(milliseconds: 1000, counter: 0), device: peer)),
        ])
        try server.psql("""
            INSERT INTO wonderland_kv (key, value, clock, device, deleted, change)
            VALUES ('huge', decode(repeat('00', 3000000), 'hex'), 99999999999, 'bbbb', false, nextval('wonderland_kv_changes'))
            """, database: address.database)
        let row = try server.psql("SELECT change FROM wonderland_kv WHERE key = 'huge'", database: address.database)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let me = DeviceIdentifier("aaaa")!
        let store = UbiquitousKeyValueStore(.init(backend: PostgresBackend(address: address, password: server.password, device: me), device: me))
        #expect(store.synchronize())
        #expect(store.dictionaryRepresentation == ["good": .string("fine")])
        #expect(store.status.readProblems == ["server row \(row): 3000004 bytes, more than any device writes; not fetched"])
        #expect(store.takeWarnings().contains { $0.contains("server row \(row)") })
    }
}
