import Cloud
import Foundation
import PropertyList
import Testing

@Suite struct LocalReplicaFolderTests {
    func temporaryFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("wl-replicas-\(UUID().uuidString)")
    }

    @Test func switchingFoldersKeepsWhatTheFirstFolderHasNotReceivedYet() throws {
        let data = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        let replicas = LocalReplicaFolder.standard(dataFolder: data)
        var warning: String?
        let device = replicas.deviceIdentifier(warning: &warning)
        let home = InMemoryCloud()
        let offline = home.backend()
        offline.isReachable = false
        func open(_ backend: KeyValueBackend, _ name: String) -> UbiquitousKeyValueStore {
            UbiquitousKeyValueStore(.init(backend: backend, replicaFile: replicas.replicaFile(forBackend: name), device: device))
        }
        let first = open(RenamedBackend(offline, name: "folder ~/Sync/home"), "folder ~/Sync/home")
        first.set(.string("queued for home"), forKey: "HPLocation")
        first.synchronize()
        first.stop()
        // Another folder for a while (or `wonderland cloud status` in a shell without the variable).
        let elsewhere = open(RenamedBackend(InMemoryCloud().backend(), name: "folder /mnt/work"), "folder /mnt/work")
        elsewhere.set(.string("work"), forKey: "HPLocation")
        elsewhere.synchronize()
        elsewhere.stop()
        #expect(elsewhere.processExternalChanges().isEmpty, "no account change: each folder has its own copy")
        let back = open(RenamedBackend(home.backend(), name: "folder ~/Sync/home"), "folder ~/Sync/home")
        #expect(back.object(forKey: "HPLocation") == .string("queued for home"))
        #expect(back.synchronize())
        #expect(home.allRecords.map(\.stamp.device) == [device])
    }

    @Test func theDeviceIdentityIsMadeOnceAndADamagedOneIsMovedAside() throws {
        let data = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        let replicas = LocalReplicaFolder.standard(dataFolder: data)
        var warning: String?
        let first = replicas.deviceIdentifier(warning: &warning)
        #expect(replicas.deviceIdentifier(warning: &warning) == first)
        #expect(warning == nil)
        try Data("Not An Identity!\n".utf8).write(to: replicas.url.appendingPathComponent("device-id"))
        let second = replicas.deviceIdentifier(warning: &warning)
        #expect(second != first)
        #expect(warning?.contains("moved to device-id.damaged-") == true)
        let names = try FileManager.default.contentsOfDirectory(atPath: replicas.url.path)
        #expect(names.contains { $0.hasPrefix("device-id.damaged-") })
    }

    @Test func backendsGetTheirOwnReadableFileNames() {
        let replicas = LocalReplicaFolder(url: URL(fileURLWithPath: "/x"))
        let home = replicas.replicaFile(forBackend: "folder ~/Sync/wonderland").url.lastPathComponent
        #expect(home.hasPrefix("folder-sync-wonderland-") && home.hasSuffix(".plist"))
        #expect(home != replicas.replicaFile(forBackend: "folder ~/sync/wonderland").url.lastPathComponent)
    }
}

/// A backend under another name, as two sync folders are two backends.
final class RenamedBackend: KeyValueBackend, @unchecked Sendable {
    let displayName: String
    private let inner: KeyValueBackend
    init(_ inner: KeyValueBackend, name: String) {
        self.inner = inner
        displayName = name
    }
    func append(_ records: [ChangeRecord]) throws { try inner.append(records) }
    func fetchChanges() throws -> [ChangeRecord] { try inner.fetchChanges() }
    func waitForChanges(timeout: Double) { inner.waitForChanges(timeout: timeout) }
    func wake() { inner.wake() }
    func compact(latest: MergedChanges) { inner.compact(latest: latest) }
}
