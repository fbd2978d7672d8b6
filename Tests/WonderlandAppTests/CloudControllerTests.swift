import BookFront
import Cloud
import Defaults
import Foundation
import PropertyList
import Screens
import ScreensTesting
import Terminal
import Testing
@testable import WonderlandApp

/// One instance of the app on a headless terminal, its synced store on a shared in-memory
/// cloud. No worker thread: `sync()` does its pass, then an idle tick delivers the news as the
/// run loop would.
private final class Instance: Pilot {
    let store: InMemoryPreferenceStore
    let services: AppServices
    let controller: CloudController
    private(set) var backends: [InMemoryBackend] = []

    init(cloud: InMemoryCloud, values: [String: PropertyListValue], bookPath: String? = nil, replicas: LocalReplicaFolder? = nil,
         environment: [String: String] = [:]) {
        let store = InMemoryPreferenceStore(values: values)
        let launch = LaunchOptions(location: "48.8566,2.3522", bookPath: bookPath, dataFolder: LaunchOptions.emptyDataFolder,
                                   environment: environment)
        let services = AppServices(store: store, bundle: .embedded, launch: launch)
        // Made before the controller, as the runner does.
        let root = RootScreen.make(services: services)
        let made = Box()
        var factory = CloudStoreFactory(replicas: replicas) { _, _ in
            let backend = cloud.backend()
            made.backends.append(backend)
            return backend
        }
        factory.startsWorker = false
        let controller = CloudController(services: services, factory: factory, onNews: {})
        self.store = store
        self.services = services
        self.made = made
        self.controller = controller
        super.init(root, columns: 100, rows: 30, observers: [controller])
    }

    private let made: Box
    final class Box: @unchecked Sendable { var backends: [InMemoryBackend] = [] }
    var lastBackend: InMemoryBackend? { made.backends.last }

    func sync() throws {
        controller.mirror.store?.synchronize()
        try becomeIdle()
    }

    var tabBar: String { terminal.lines[0] }
    func screenContains(_ text: String) -> Bool { terminal.lines.contains { $0.contains(text) } }
    /// The screen's words in one line, for text an alert wraps.
    var screenText: String {
        terminal.lines.joined(separator: " ").replacingOccurrences(of: "│", with: " ").split(separator: " ").joined(separator: " ")
    }
}

@Suite("Synced store in the app")
struct CloudControllerTests {
    let locationsOn: [String: PropertyListValue] = ["HPSyncLocations": .boolean(true)]

    @Test func aPinRememberedInOneInstanceAppearsOnTheOthersMapAndGoesWhenCleared() throws {
        let cloud = InMemoryCloud()
        let phone = Instance(cloud: cloud, values: locationsOn)
        let laptop = Instance(cloud: cloud, values: locationsOn)
        try phone.sync(); try laptop.sync()
        #expect(laptop.tabBar.hasSuffix("synced"))
        try phone.press(.character("r"))
        try phone.type("Rabbit hole")
        try phone.press(.enter)
        #expect(phone.screenContains("Rabbit hole"))
        phone.app.becomeIdle()
        try phone.app.processPendingEvents()
        #expect(phone.tabBar.hasSuffix("syncing, 1 change waiting"))
        try phone.sync(); try laptop.sync()
        #expect(laptop.screenContains("Rabbit hole"))
        #expect(phone.tabBar.hasSuffix("synced"))

        try laptop.press(.character("c"))
        try laptop.press(.character("y"))
        #expect(!laptop.screenContains("Rabbit hole"))
        try laptop.sync(); try phone.sync()
        #expect(!phone.screenContains("Rabbit hole"))
        #expect(phone.store.object(forKey: "HPLocation") == nil)
    }

    @Test func theToggleTakesEffectWhileTheAppRuns() throws {
        let cloud = InMemoryCloud()
        let phone = Instance(cloud: cloud, values: [:])
        #expect(phone.controller.mirror.store == nil)
        #expect(!phone.tabBar.contains("sync"))
        // As the settings screen or `wonderland defaults write` would.
        phone.store.set(.boolean(true), forKey: "HPSyncLocations")
        try phone.app.processPendingEvents()
        #expect(phone.controller.mirror.store != nil)
        try phone.sync()
        #expect(phone.tabBar.hasSuffix("synced"))
        phone.store.set(.boolean(false), forKey: "HPSyncLocations")
        try phone.sync()
        #expect(phone.controller.mirror.store == nil)
        #expect(!phone.tabBar.contains("sync"))
    }

    @Test func theRunningStateFileFollowsTheSyncAndGoesAtQuit() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("wl-running-state-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let phone = Instance(cloud: InMemoryCloud(), values: locationsOn, environment: ["XDG_STATE_HOME": state.path])
        let files = RunningSyncFiles(folderPath: state.appendingPathComponent("wonderland/running").path) { _ in true }
        try phone.sync()
        let synced = try #require(files.read().first)
        #expect(synced.pid == getpid())
        #expect(synced.reached == true && synced.lastSync != nil && synced.problem == nil)
        #expect(!synced.isServer)
        phone.lastBackend?.isReachable = false
        phone.store.set(.dictionary(["lat": .real(51.5), "long": .real(-0.12), "title": .string("Offline pin")]), forKey: "HPLocation")
        try phone.sync()
        let offline = try #require(files.read().first)
        #expect(offline.reached == false && offline.problem != nil)
        #expect(offline.lastSync == synced.lastSync)
        phone.store.set(.boolean(false), forKey: "HPSyncLocations")
        try phone.sync()
        #expect(files.read() == [], "nothing syncs: no file")
        phone.store.set(.boolean(true), forKey: "HPSyncLocations")
        try phone.app.processPendingEvents()
        try phone.sync()
        #expect(files.read().count == 1)
        try phone.quit()
        #expect(files.read() == [], "removed at quit")
    }

    @Test func offlineTheAppKeepsWorkingAndSaysWhatWaits() throws {
        let cloud = InMemoryCloud()
        let phone = Instance(cloud: cloud, values: locationsOn)
        let laptop = Instance(cloud: cloud, values: locationsOn)
        try phone.sync(); try laptop.sync()
        phone.lastBackend?.isReachable = false
        phone.store.set(.dictionary(["lat": .real(51.5), "long": .real(-0.12), "title": .string("Offline pin")]), forKey: "HPLocation")
        try phone.sync()
        #expect(phone.tabBar.contains("offline"))
        #expect(phone.tabBar.contains("1 change waiting"))
        #expect(phone.screenContains("Offline pin"))
        try laptop.sync()
        #expect(!laptop.screenContains("Offline pin"))
        phone.lastBackend?.isReachable = true
        try phone.sync(); try laptop.sync()
        #expect(laptop.screenContains("Offline pin"))
        #expect(phone.tabBar.hasSuffix("synced"))
    }

    @Test func aChangedSyncFolderReopensTheStore() throws {
        let cloud = InMemoryCloud()
        let phone = Instance(cloud: cloud, values: locationsOn)
        let first = phone.controller.mirror.store
        #expect(first != nil)
        phone.store.set(.string("/tmp/elsewhere"), forKey: "WLSyncFolder")
        #expect(phone.controller.folder.path == "/tmp/elsewhere")
        #expect(phone.controller.mirror.store !== first)
    }

    @Test func aReadingPlaceIsSentAsABareOffsetWhereTheReleaseBeforeStampsWroteOne() {
        let form = CloudSettings.readingPlaceWithoutStamp
        #expect(form.holds(.integer(27)))
        #expect(!form.holds(ReadingPlace(offset: 27, stamp: EditStamp(time: 5, device: "d")).propertyList))
        #expect(form.withoutStamp(ReadingPlace(offset: 24, stamp: EditStamp(time: 5, device: "d")).propertyList) == .integer(24))
        let stamped = form.stamped(.integer(27), EditStamp(time: 9, device: "desk"))
        #expect(ReadingPlace(propertyList: stamped) == ReadingPlace(offset: 27, stamp: EditStamp(time: 9, device: "desk")))
        #expect(form.stamped(.string("x"), EditStamp(time: 9, device: "desk")) == nil)
    }

    @Test func theSyncFolderComesFromTheEnvironmentThenTheSettingThenTheDataFolder() {
        let store = InMemoryPreferenceStore()
        let data = URL(fileURLWithPath: "/data/wonderland")
        #expect(CloudSettings.folder(store: store, environment: [:], dataFolder: data).path == "/data/wonderland/cloud")
        store.set(.string("~/Sync/wl"), forKey: "WLSyncFolder")
        #expect(CloudSettings.folder(store: store, environment: ["HOME": "/home/alice"], dataFolder: data).path == "/home/alice/Sync/wl")
        #expect(CloudSettings.folder(store: store, environment: ["HOME": "/home/alice", "WONDERLAND_SYNC_FOLDER": "/mnt/shared"], dataFolder: data).path == "/mnt/shared")
        // An empty or relative HOME is no home: ~ is the password file's, never the root.
        let account = FileManager.default.homeDirectoryForCurrentUser.path
        for home in ["", "relative"] {
            #expect(CloudSettings.folder(store: store, environment: ["HOME": home], dataFolder: data).path == account + "/Sync/wl")
        }
        // ~user is a name under HOME here, as it always was.
        store.set(.string("~root/wl"), forKey: "WLSyncFolder")
        #expect(CloudSettings.folder(store: store, environment: ["HOME": "/home/alice"], dataFolder: data).path == "/home/alice/~root/wl")
    }

    @Test func aPinTooBigForTheStoreStaysHereAndTheUserIsToldOnce() throws {
        let cloud = InMemoryCloud()
        let phone = Instance(cloud: cloud, values: locationsOn)
        try phone.sync()
        // Written from outside the app (`wonderland defaults write`), far over the 1 MB limit.
        let huge = String(repeating: "a", count: 1_100_000)
        phone.store.set(.dictionary(["lat": .real(48.85), "long": .real(2.35), "title": .string(huge)]), forKey: "HPLocation")
        try phone.sync()
        // Told among the messages and counted in the tab bar; no alert stops the user.
        #expect(phone.app.modals.isEmpty)
        #expect(phone.screenText.contains("synced, 1 refused"))
        let told = phone.app.messageLog.entries.filter { $0.hasPrefix("Sync: A change could not be synced") }
        #expect(told.count == 1)
        #expect(told.first?.contains("bytes") == true)
        #expect(cloud.allRecords.isEmpty, "nothing of the refused write reached the cloud")
        #expect(phone.controller.mirror.store?.object(forKey: "HPLocation") == nil)
        #expect(phone.store.object(forKey: "HPLocation") != nil, "the pin stays on this machine")
        phone.store.set(.dictionary(["lat": .real(1), "long": .real(2), "title": .string(huge + "b")]), forKey: "HPLocation")
        try phone.sync()
        #expect(phone.app.modals.isEmpty)
        #expect(phone.app.messageLog.entries.filter { $0.hasPrefix("Sync: A change could not be synced") }.count == 1, "told once")
    }

    @Test func aDamagedLocalCopyIsToldOnceInAnAlert() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-cloud-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let replicas = LocalReplicaFolder.standard(dataFolder: folder)
        let replica = replicas.replicaFile(forBackend: InMemoryCloud().backend().displayName)
        try FileManager.default.createDirectory(at: replicas.url, withIntermediateDirectories: true)
        try Data("not a property list".utf8).write(to: replica.url)
        let phone = Instance(cloud: InMemoryCloud(), values: locationsOn, replicas: replicas)
        #expect(phone.app.modals.count == 1)
        try phone.app.processPendingEvents()
        #expect(phone.screenText.contains("could not be read"))
        try phone.press(.enter)
        try phone.sync()
        #expect(phone.app.modals.isEmpty)
    }

    @Test func theOpenBookFollowsAPositionReadElsewhereWithoutFightingPageTurns() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-cloud-book-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = folder.appendingPathComponent("book.txt")
        let text = (1...400).map { "Line \($0) of a long walk down the rabbit hole." }.joined(separator: "\n")
        try Data(text.utf8).write(to: book)
        let on: [String: PropertyListValue] = ["WLSyncReadingPosition": .boolean(true)]
        let cloud = InMemoryCloud()
        let phone = Instance(cloud: cloud, values: on, bookPath: book.path)
        let laptop = Instance(cloud: cloud, values: on, bookPath: book.path)
        try phone.press(.character("3")); try laptop.press(.character("3"))
        // The book's notes (no chapters found) come up once, in an alert.
        for device in [phone, laptop] { while !device.app.modals.isEmpty { try device.press(.enter) } }
        try phone.sync(); try laptop.sync()
        #expect(laptop.screenContains("Line 1 of"))

        for _ in 0..<5 { try phone.press(.character(" ")) }
        let phoneTop = try #require(phone.terminal.lines.first { $0.contains("Line ") && !$0.contains("Line 1 of") })
        try phone.sync(); try laptop.sync()
        #expect(laptop.screenContains("Moved to where you were reading elsewhere."))
        let reader = try #require(laptop.services.store.object(forKey: "WLReadingPositions"))
        #expect(reader == phone.store.object(forKey: "WLReadingPositions"))
        #expect(laptop.terminal.lines.contains(phoneTop))

        // The laptop's own page turn is its own: it stays, and goes to the phone.
        try laptop.press(.character(" "))
        #expect(!laptop.screenContains("Moved to where"))
        let laptopPosition = laptop.store.object(forKey: "WLReadingPositions")
        try laptop.sync(); try phone.sync(); try laptop.sync()
        #expect(laptop.store.object(forKey: "WLReadingPositions") == laptopPosition)
        #expect(phone.store.object(forKey: "WLReadingPositions") == laptopPosition)
    }

    @Test func aBackendThatCannotBeMadeYetLeavesTheStoreOfflineAndIsTriedAgain() {
        final class Attempts: @unchecked Sendable { var count = 0 }
        let attempts = Attempts()
        let cloud = InMemoryCloud()
        let backend = CloudDeferredBackend(displayName: "folder /mnt/gone") {
            attempts.count += 1
            if attempts.count == 1 { throw BackendUnavailable(reason: "cannot create /mnt/gone") }
            return cloud.backend()
        }
        let store = UbiquitousKeyValueStore(.init(backend: backend, device: DeviceIdentifier("phone")!))
        #expect(attempts.count == 0, "nothing is made when the store opens")
        store.set(.string("kept"), forKey: "k")
        #expect(!store.synchronize())
        #expect(store.status.problem == "cannot create /mnt/gone")
        #expect(CloudStatusBoard.describe(store.status) == "offline, 1 change waiting: cannot create /mnt/gone")
        #expect(store.synchronize())
        #expect(cloud.allRecords.map(\.key) == ["k"])
        #expect(CloudStatusBoard.describe(store.status) == "synced")
    }
}

@Suite("A heavy reader's places in the app")
struct HeavyReaderInAppTests {
    static func places(_ count: Int) -> [String: PropertyListValue] {
        var all: [String: PropertyListValue] = [:]
        for index in 0 ..< count {
            all[String(format: "%040x", index)] = .dictionary(["offset": .integer(Int64(index)), "modified": .real(1_000 + Double(index)),
                                                               "device": .string("reader")])
        }
        return all
    }

    @Test func theTabBarSaysHowManyPlacesSyncAndThePinStillReachesTheOtherInstance() throws {
        let cloud = InMemoryCloud()
        var values: [String: PropertyListValue] = ["HPSyncLocations": .boolean(true), "WLSyncReadingPosition": .boolean(true)]
        values["WLReadingPositions"] = .dictionary(Self.places(1_996))
        let reader = Instance(cloud: cloud, values: values)
        try reader.sync(); try reader.sync()
        #expect(reader.tabBar.hasSuffix("synced, 200 of 1,996 places"))
        #expect(reader.app.modals.isEmpty)
        try reader.press(.character("r"))
        try reader.type("Rabbit hole")
        try reader.press(.enter)
        try reader.sync()
        let laptop = Instance(cloud: cloud, values: ["HPSyncLocations": .boolean(true), "WLSyncReadingPosition": .boolean(true)])
        try laptop.sync(); try laptop.sync()
        #expect(laptop.screenContains("Rabbit hole"))
        if case .dictionary(let got)? = laptop.store.object(forKey: "WLReadingPositions") {
            #expect(got.count == 200)
            #expect(got[String(format: "%040x", 1_995)] != nil, "the most recent place")
        } else {
            Issue.record("no places reached the laptop")
        }
        #expect(laptop.tabBar.hasSuffix("synced"))
    }
}
