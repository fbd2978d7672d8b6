import Cloud
import CloudPostgres
@testable import CloudServer
import Foundation
import PropertyList
import TestPrerequisites
import Testing

/// The server backend as the app holds it: through the real `wonderland-sync-server` (built
/// beside the test binary, found as the app finds it) against a real server. What goes through
/// the pipes must come out as the in-process backend gives it: records, refusals, reasons.
@Suite("The sync helper: the server backend in a process of its own", .requires(.postgresServer, .openssl, .python3))
struct SyncHelperBackendTests {
    let server: TestPostgresServer
    let address: PostgresSyncAddress

    init() throws {
        server = try TestPostgresServer.shared()
        address = try server.freshDatabase()
    }

    func proxy(_ device: String, password: String? = nil, server options: SyncServerOptions = .init()) -> SyncHelperBackend {
        SyncHelperBackend(address: address, password: password ?? server.password, device: DeviceIdentifier(device)!,
                          options: .init(server: options))
    }

    func record(_ key: String, _ value: String?, clock: UInt64, device: String) -> ChangeRecord {
        ChangeRecord(key: key, payload: value.map { Data($0.utf8) }, stamp: ChangeStamp(clock: HybridTimestamp(rawValue: clock), device: DeviceIdentifier(device)!))
    }

    /// Waits (bounded) for `condition`, which a worker thread makes true.
    func eventually(_ seconds: Double = 60, _ condition: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !condition() {
            if Date() > deadline { return false }
            usleep(10_000)
        }
        return true
    }

    @Test("records go through the helper and come back as written, with their origin; the helper is found beside the binary")
    func roundTrip() throws {
        let writer = proxy("aaaa")
        let reader = proxy("bbbb")
        #expect(try writer.fetchChanges().isEmpty)
        let written = [record("pin", "Tea Party", clock: 9, device: "aaaa"), record("gone", nil, clock: 10, device: "aaaa"),
                       record("big", String(repeating: "x", count: 900_000), clock: 11, device: "aaaa")]
        try writer.append(written)
        let read = try reader.fetchChanges()
        #expect(Set(read) == Set(written))
        #expect(read.allSatisfy { $0.origin?.hasPrefix("server row ") == true })
        #expect(try reader.fetchChanges().isEmpty, "read on from the last change")
        #expect(writer.displayName == "server \(address)")
    }

    @Test("a fetch larger than one frame arrives whole, in several")
    func fetchInFrames() throws {
        let writer = proxy("aaaa")
        _ = try writer.fetchChanges()
        // Each a batch of its own: the server's 1 MB limit counts the live keys.
        for index in 0..<3 {
            try writer.append([record("k\(index)", String(repeating: "\(index)", count: 300_000), clock: UInt64(index + 1), device: "aaaa")])
        }
        let read = try proxy("cccc").fetchChanges()
        #expect(read.map(\.key).sorted() == ["k0", "k1", "k2"])
        #expect(read.map { $0.payload?.count ?? 0 } == [300_000, 300_000, 300_000])
    }

    @Test("a refused batch is the same BackendRefusal, and a wrong password the same reason, as in the app's own process")
    func errorsCrossThePipe() throws {
        _ = try proxy("setup").fetchChanges()
        try server.psql("UPDATE wonderland_limits SET max_keys = 1", database: address.database)
        let batch = [record("k1", "one", clock: 1, device: "aaaa"), record("k2", "two", clock: 2, device: "aaaa")]
        var throughHelper: BackendRefusal?
        do { try proxy("aaaa").append(batch) } catch let refusal as BackendRefusal { throughHelper = refusal }
        var inProcess: BackendRefusal?
        do {
            try PostgresBackend(address: address, password: server.password, device: DeviceIdentifier("aaaa")!).append(batch)
        } catch let refusal as BackendRefusal { inProcess = refusal }
        #expect(throughHelper != nil)
        #expect(throughHelper?.limit == inProcess?.limit)
        #expect(throughHelper?.keys == inProcess?.keys)
        #expect(throughHelper?.description == "the server refused the change: the store would hold 2 keys; it may hold at most 1")

        func reason(_ body: () throws -> Void) -> String? {
            do { try body() } catch { return "\(error)" }
            return nil
        }
        let wrongThroughHelper = reason { _ = try proxy("aaaa", password: "NotThePassword123").fetchChanges() }
        let wrongInProcess = reason {
            _ = try PostgresBackend(address: address, password: "NotThePassword123", device: DeviceIdentifier("aaaa")!).fetchChanges()
        }
        #expect(wrongThroughHelper != nil)
        #expect(wrongThroughHelper == wrongInProcess)
        #expect(wrongThroughHelper?.contains("refused wonderland's password") == true)
        #expect(wrongThroughHelper?.contains("NotThePassword123") == false)
    }

    @Test("wake() ends a wait in progress in the helper, and a wake before a wait ends the next one at once")
    func wakeEndsTheWait() throws {
        let backend = proxy("aaaa")
        _ = try backend.fetchChanges()
        let ended = Flag()
        Thread {
            backend.waitForChanges(timeout: untilNews)
            ended.set()
        }.start()
        usleep(300_000)
        #expect(!ended.isSet, "nothing happened yet: still waiting")
        backend.wake()
        // Bounded: without the wake the wait would last for years.
        #expect(eventually(30) { ended.isSet })
        // The helper still serves.
        #expect(try backend.fetchChanges().isEmpty)

        backend.wake()
        let again = Flag()
        Thread {
            backend.waitForChanges(timeout: untilNews)
            again.set()
        }.start()
        #expect(eventually(30) { again.isSet })
    }

    @Test("another device's write ends the wait through the helper (LISTEN/NOTIFY)")
    func notificationEndsTheWait() throws {
        let reader = proxy("bbbb")
        let writer = proxy("aaaa")
        _ = try reader.fetchChanges()
        _ = try writer.fetchChanges()
        let ended = Flag()
        Thread {
            reader.waitForChanges(timeout: untilNews)
            ended.set()
        }.start()
        usleep(200_000)
        try writer.append([record("pin", "Tea Party", clock: 9, device: "aaaa")])
        #expect(eventually(30) { ended.isSet })
        #expect(try reader.fetchChanges().map(\.key) == ["pin"])
    }

    @Test("a helper killed mid-wait: the store says offline with why, then a new helper starts and what waited arrives")
    func helperKilledMidWait() throws {
        let options = SyncServerOptions(connectTimeout: 2, queryTimeout: 2, initialBackoff: 1.5, maximumBackoff: 3)
        let first = proxy("aaaa", server: options)
        let phone = UbiquitousKeyValueStore(.init(backend: first, device: DeviceIdentifier("aaaa")!, pollInterval: 0.2))
        let laptop = UbiquitousKeyValueStore(.init(backend: proxy("bbbb", server: options), device: DeviceIdentifier("bbbb")!, pollInterval: 0.2))
        phone.start()
        laptop.start()
        defer {
            phone.stop()
            laptop.stop()
        }
        #expect(eventually { phone.status.isReachable == true && laptop.status.isReachable == true })
        let killed = try #require(first.helperProcessID)
        // The worker is waiting in the helper for news by now; kill it there.
        usleep(300_000)
        kill(killed, SIGKILL)
        #expect(eventually { phone.status.isReachable == false }, "offline while no helper runs")
        #expect(phone.status.problem?.contains("the sync helper stopped (killed by signal 9)") == true, "\(phone.status.problem ?? "")")
        laptop.set(.string("Croquet Ground"), forKey: "HPLocation")
        #expect(eventually { phone.status.isReachable == true }, "a new helper, after the back-off")
        #expect(first.helperProcessID != killed)
        #expect(eventually { phone.object(forKey: "HPLocation") == .string("Croquet Ground") })
        phone.set(.integer(42), forKey: "WLReadingPosition.alice")
        #expect(eventually { laptop.object(forKey: "WLReadingPosition.alice") == .integer(42) })
    }
}

/// A flag set on one thread and read on another.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
