import Cloud
import Foundation
import PropertyList
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The real store on the folder backend: two running instances sharing one folder, the way two
/// `wonderland` processes on two machines do.
@Suite struct FolderStoreTests {
    func makeStore(_ fixture: FolderFixture, _ device: DeviceIdentifier, news: FolderFlag) throws -> UbiquitousKeyValueStore {
        UbiquitousKeyValueStore(.init(backend: try fixture.backend(device), device: device, pollInterval: 0.5, onNews: { news.raise() }))
    }

    @Test func aPinSetOnOneInstanceAppearsOnTheOtherAndAClearedOneGoes() throws {
        let fixture = FolderFixture()
        let phoneNews = FolderFlag()
        let padNews = FolderFlag()
        let phone = try makeStore(fixture, FolderTestData.deviceA, news: phoneNews)
        let pad = try makeStore(fixture, FolderTestData.deviceB, news: padNews)
        phone.start()
        pad.start()
        defer {
            phone.stop()
            pad.stop()
        }
        phone.set(.string("48.85,2.35"), forKey: "HPLocation")
        #expect(FolderTestData.eventually { pad.object(forKey: "HPLocation") == .string("48.85,2.35") })
        #expect(padNews.isRaised)
        #expect(pad.processExternalChanges().flatMap(\.changedKeys).contains("HPLocation"))
        pad.removeObject(forKey: "HPLocation")
        #expect(FolderTestData.eventually { phone.object(forKey: "HPLocation") == nil })
    }

    @Test func theStoreKeepsWorkingWhileTheFolderIsAwayAndCatchesUp() throws {
        let fixture = FolderFixture()
        let phone = try makeStore(fixture, FolderTestData.deviceA, news: FolderFlag())
        let pad = try makeStore(fixture, FolderTestData.deviceB, news: FolderFlag())
        #expect(phone.synchronize())
        let away = fixture.root.appendingPathComponent("away")
        #expect(rename(fixture.cloud.path, away.path) == 0)
        phone.set(.integer(42), forKey: "page")
        #expect(!phone.synchronize())
        #expect(phone.status.isReachable == false)
        #expect(phone.status.problem?.contains("folder missing: \(fixture.cloud.path)") == true)
        #expect(phone.object(forKey: "page") == .integer(42))
        #expect(!FileManager.default.fileExists(atPath: fixture.cloud.path))
        #expect(rename(away.path, fixture.cloud.path) == 0)
        #expect(phone.synchronize())
        #expect(phone.status.pendingChanges == 0)
        #expect(pad.synchronize())
        #expect(pad.object(forKey: "page") == .integer(42))
    }
}
