@testable import Cloud
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct FolderBackendTests {
    typealias Data_ = FolderTestData
    let a = FolderTestData.deviceA
    let b = FolderTestData.deviceB
    let c = FolderTestData.deviceC

    @Test func twoDevicesSeeEachOthersRecordsAndOnlyNewOnesLater() throws {
        let fixture = FolderFixture()
        let backendA = try fixture.backend(a)
        let backendB = try fixture.backend(b)
        let fromA = [Data_.record("pin", "paris", 100, a), Data_.record("page", "12", 101, a)]
        let fromB = [Data_.record("pin", "rome", 102, b)]
        try backendA.append(fromA)
        try backendB.append(fromB)
        #expect(Set(try backendA.fetchChanges()) == Set(fromA + fromB))
        #expect(Set(try backendB.fetchChanges()) == Set(fromA + fromB))
        #expect(try backendA.fetchChanges().isEmpty)
        let later = Data_.record("page", nil, 103, b)
        try backendB.append([later])
        #expect(try backendA.fetchChanges() == [later])
        #expect(fixture.changeFileNames == ["aaaa.1.wlkv", "bbbb.1.wlkv"])
    }

    @Test func aNewBackendsFirstFetchReturnsEverything() throws {
        let fixture = FolderFixture()
        let written = (0 ..< 50).map { Data_.record("k\($0 % 7)", "v\($0)", UInt64(100 + $0), $0 % 2 == 0 ? a : b) }
        let writerA = try fixture.backend(a)
        let writerB = try fixture.backend(b)
        for record in written { try (record.stamp.device == a ? writerA : writerB).append([record]) }
        let fresh = try fixture.backend(c)
        #expect(Set(try fresh.fetchChanges()) == Set(written))
    }

    @Test func theMergeIsTheSameWhateverOrderTheFilesAreReadIn() throws {
        let fixture = FolderFixture()
        var generator = SeededRandomNumberGenerator(seed: 7)
        var written: [ChangeRecord] = []
        let devices = [a, b, c]
        let backends = try devices.map { try fixture.backend($0) }
        for step in 0 ..< 300 {
            let index = Int.random(in: 0 ..< 3, using: &generator)
            // Clocks collide on purpose so the device breaks ties.
            let record = Data_.record("k\(Int.random(in: 0 ..< 12, using: &generator))",
                                      Bool.random(using: &generator) ? "v\(step)" : nil,
                                      UInt64(Int.random(in: 0 ..< 40, using: &generator)), devices[index])
            written.append(record)
            try backends[index].append([record])
        }
        let reference = MergedChanges(written)
        let perFile = fixture.changeFileNames.map { FolderReader.readWhole(path: fixture.cloud.appendingPathComponent($0).path)! }
        for order in [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]] {
            #expect(MergedChanges(order.flatMap { perFile[$0] }) == reference)
            #expect(MergedChanges(order.flatMap { perFile[$0].reversed() }) == reference)
        }
        #expect(MergedChanges(try fixture.backend(DeviceIdentifier("dddd")!).fetchChanges()) == reference)
    }

    @Test func theFolderIsMadePrivateWithItsParentsAndFilesArePrivate() throws {
        let fixture = FolderFixture()
        let nested = fixture.root.appendingPathComponent("x/y/cloud")
        #expect(try FolderBackend.createFolder(nested) == .created)
        #expect(try FolderBackend.createFolder(nested) == .alreadyThere)
        let backend = try FolderBackend(folder: nested, device: a)
        try backend.append([Data_.record("k", "v", 1, a)])
        #expect(FolderSystemCalls.status(of: nested.path) != nil)
        var info = stat()
        stat(nested.path, &info)
        #expect(info.st_mode & 0o777 == 0o700)
        stat(nested.appendingPathComponent("aaaa.1.wlkv").path, &info)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(backend.displayName.hasSuffix("x/y/cloud"))
    }

    @Test func aMissingFolderIsUnavailableNeverRecreatedAndRecoversWhenItReturns() throws {
        let fixture = FolderFixture()
        let backendA = try fixture.backend(a)
        let backendB = try fixture.backend(b)
        try backendA.append([Data_.record("k", "one", 1, a)])
        #expect(try backendB.fetchChanges().count == 1)

        let away = fixture.root.appendingPathComponent("unmounted")
        #expect(rename(fixture.cloud.path, away.path) == 0)
        do {
            _ = try backendB.fetchChanges()
            Issue.record("fetching from a missing folder must throw")
        } catch let error as BackendUnavailable {
            #expect(error.reason == "folder missing: \(fixture.cloud.path) — run `wonderland cloud init` to create it")
        }
        #expect(throws: BackendUnavailable.self) { try backendA.append([Data_.record("k", "two", 2, a)]) }
        #expect(!FileManager.default.fileExists(atPath: fixture.cloud.path))
        backendB.waitForChanges(timeout: 0.1)  // must not fail or recreate either
        #expect(!FileManager.default.fileExists(atPath: fixture.cloud.path))

        #expect(rename(away.path, fixture.cloud.path) == 0)
        try backendA.append([Data_.record("k", "three", 3, a)])
        #expect(try backendB.fetchChanges().map(\.payload) == [Data_.record("k", "three", 3, a).payload])
    }

    @Test func aFolderNeverThereIsNotMadeByTheBackendButByCreateFolder() throws {
        let fixture = FolderFixture()
        let missing = fixture.root.appendingPathComponent("not/yet/cloud")
        let backend = try FolderBackend(folder: missing, device: a)
        #expect(throws: BackendUnavailable.self) { try backend.fetchChanges() }
        #expect(throws: BackendUnavailable.self) { try backend.append([Data_.record("k", "v", 1, a)]) }
        backend.waitForChanges(timeout: 0.05)
        #expect(!FileManager.default.fileExists(atPath: fixture.root.appendingPathComponent("not").path), "nothing made, not even a parent")

        let file = fixture.root.appendingPathComponent("a-file")
        #expect(FileManager.default.createFile(atPath: file.path, contents: Data("x".utf8)))
        #expect(throws: BackendUnavailable.self) { try FolderBackend.createFolder(file) }
        #expect(try Data(contentsOf: file) == Data("x".utf8), "a file in the way is left alone")

        #expect(try FolderBackend.createFolder(missing) == .created)
        try backend.append([Data_.record("k", "v", 1, a)])
        #expect(try backend.fetchChanges().count == 1)
    }

    @Test func theDefaultFolderFollowsXDG() {
        #expect(FolderBackend.defaultFolder(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/alice"]).path == "/data/wonderland/cloud")
        #expect(FolderBackend.defaultFolder(environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/alice"]).path == "/home/alice/.local/share/wonderland/cloud")
        #expect(FolderBackend.defaultFolder(environment: ["HOME": "/home/alice"]).path == "/home/alice/.local/share/wonderland/cloud")
    }

    @Test func aFolderThatIsAFileIsUnavailable() throws {
        let fixture = FolderFixture()
        let backend = try fixture.backend(a)
        try FileManager.default.removeItem(at: fixture.cloud)
        try Data("not a folder".utf8).write(to: fixture.cloud)
        #expect(throws: BackendUnavailable.self) { try backend.fetchChanges() }
        #expect(throws: BackendUnavailable.self) { try backend.append([Data_.record("k", "v", 1, a)]) }
    }
}

