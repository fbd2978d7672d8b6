import Cloud
import CloudServer
import Foundation
import Testing
@testable import WonderlandApp

/// The housekeeping after the first frame: the same keep rules as `state clean`, over the
/// folders the app writes to, and never the current backend's copy.
@Suite("Housekeeping")
struct HousekeepingTests {
    @Test("the copy's name for a place is the one its backend's store is opened under")
    func replicaNames() throws {
        let address = try PostgresSyncAddress(parsing: "postgres://alice@db.example.org:5433/wl")
        let backend = SyncHelperBackend(address: address, password: nil, device: DeviceIdentifier.random())
        let server = CloudSyncPlace(kind: .server(address, PostgresPassword.lookup(for: address, environment: [:])), source: "test")
        #expect(server.replicaBackendName == backend.displayName)
        let folder = URL(fileURLWithPath: "/mnt/sync/wonderland")
        #expect(CloudSyncPlace(kind: .folder(folder), source: "test").replicaBackendName
                == CloudStoreFactory.folderBackend(folder: folder, device: DeviceIdentifier.random()).displayName)
        #expect(CloudSyncPlace(kind: .unusableServer("no"), source: "test").replicaBackendName == nil)
    }

    @Test("a run prunes moved-aside files in every folder and unused copies, and keeps the current copy and the settings")
    func run() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("wl-housekeeping-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let places = SavedDataPlaces(environment: ["HOME": home.path])
        func write(_ path: String, modified: Date? = nil) throws {
            let url = URL(fileURLWithPath: path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("x".utf8).write(to: url)
            if let modified { try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: path) }
        }
        let longAgo = Date(timeIntervalSince1970: 1_500_000_000)
        for folder in places.movedAsideFolders {
            for day in 1 ... 4 { try write(folder + "/thing.corrupt-2020010\(day)T000000Z") }
        }
        try write(places.settingsFile)
        let current = places.replicas.path + "/" + LocalReplicaFolder.fileName(forBackend: "folder /mnt/now")
        let old = places.replicas.path + "/" + LocalReplicaFolder.fileName(forBackend: "folder /mnt/then")
        try write(current, modified: longAgo)
        try write(old, modified: longAgo)

        let removed = Housekeeping.run(places: places, currentBackend: "folder /mnt/now")
        #expect(Set(removed) == Set(places.movedAsideFolders.map { $0 + "/thing.corrupt-20200101T000000Z" } + [old]))
        #expect(FileManager.default.fileExists(atPath: current))
        #expect(FileManager.default.fileExists(atPath: places.settingsFile))
        #expect(Housekeeping.run(places: places, currentBackend: nil).isEmpty)
    }
}
