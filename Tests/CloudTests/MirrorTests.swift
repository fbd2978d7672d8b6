import Cloud
import Defaults
import Foundation
import PropertyList
import Testing

/// One device: its own defaults and a mirror onto a shared in-memory cloud. Nothing runs in the
/// background: `sync()` does what the worker and the app's wake-up would.
private final class Device {
    let defaults: InMemoryPreferenceStore
    /// The backend of the store opened last (each opening connects afresh, as the app does).
    private(set) var backend: InMemoryBackend?
    let mirror: PreferenceMirror
    private(set) var opened = 0

    static let rules: [SyncRule] = [
        .wholeKey("HPLocation", enabledBy: "HPSyncLocations"),
        .perEntry("WLReadingPositions", cloudPrefix: "WLReadingPosition.", enabledBy: "WLSyncReadingPosition"),
    ]

    init(_ name: String, cloud: InMemoryCloud, values: [String: PropertyListValue] = [:], limits: KeyValueStoreLimits = .apple) {
        defaults = InMemoryPreferenceStore(values: values)
        var box: (() -> UbiquitousKeyValueStore)?
        mirror = PreferenceMirror(defaults: defaults, rules: Self.rules, startsWorker: false) { box!() }
        box = { [unowned self] in
            self.opened += 1
            let backend = cloud.backend()
            self.backend = backend
            return UbiquitousKeyValueStore(.init(backend: backend, device: DeviceIdentifier(name)!, limits: limits))
        }
        mirror.activate()
    }

    /// One sync pass, then the news delivered on "the app's thread".
    func sync() {
        mirror.store?.synchronize()
        mirror.processExternalChanges()
    }

    var pin: PropertyListValue? { defaults.object(forKey: "HPLocation") }
    func setPin(_ title: String) { defaults.set(Self.pin(title), forKey: "HPLocation") }
    static func pin(_ title: String) -> PropertyListValue {
        .dictionary(["lat": .real(48.85), "long": .real(2.35), "title": .string(title)])
    }
    func toggle(_ key: String, _ on: Bool) { defaults.set(.boolean(on), forKey: key) }
    var positions: PropertyListValue? { defaults.object(forKey: "WLReadingPositions") }
    func read(_ book: String, to offset: Int) {
        var all: [String: PropertyListValue] = [:]
        if case .dictionary(let now)? = positions { all = now }
        all[book] = .integer(Int64(offset))
        defaults.set(.dictionary(all), forKey: "WLReadingPositions")
    }
}

@Suite struct MirrorTests {
    let syncOn: [String: PropertyListValue] = ["HPSyncLocations": .boolean(true), "WLSyncReadingPosition": .boolean(true)]

    @Test func aPinSetOnOneDeviceAppearsOnTheOtherAndAClearedOneGoes() {
        let cloud = InMemoryCloud()
        let phone = Device("phone", cloud: cloud, values: syncOn)
        let laptop = Device("laptop", cloud: cloud, values: syncOn)
        phone.sync(); laptop.sync()
        phone.setPin("Café")
        phone.sync(); laptop.sync()
        #expect(laptop.pin == Device.pin("Café"))
        laptop.defaults.set(nil, forKey: "HPLocation")
        laptop.sync(); phone.sync()
        #expect(phone.pin == nil)
        #expect(phone.mirror.store?.record(forKey: "HPLocation")?.isRemoval == true)
    }

    @Test func anEchoDoesNotLoop() {
        let cloud = InMemoryCloud()
        let phone = Device("phone", cloud: cloud, values: syncOn)
        let laptop = Device("laptop", cloud: cloud, values: syncOn)
        phone.setPin("Home")
        for _ in 0..<4 { phone.sync(); laptop.sync() }
        #expect(laptop.pin == Device.pin("Home"))
        // One write in the whole cloud: the laptop did not send the pin back, nor the phone again.
        #expect(cloud.allRecords.map(\.key) == ["HPLocation"])
        #expect(laptop.defaults.writes.filter { $0.key == "HPLocation" }.count == 1)
    }

    @Test func readingPositionsSyncPerBookSoTwoBooksNeverOverwriteEachOther() {
        let cloud = InMemoryCloud()
        let phone = Device("phone", cloud: cloud, values: syncOn)
        let laptop = Device("laptop", cloud: cloud, values: syncOn)
        phone.sync(); laptop.sync()
        // Both read before either syncs: with one key for all books, one would lose its place.
        phone.read("00000000000000aa", to: 100)
        laptop.read("00000000000000bb", to: 200)
        phone.sync(); laptop.sync(); phone.sync()
        let both: PropertyListValue = .dictionary(["00000000000000aa": .integer(100), "00000000000000bb": .integer(200)])
        #expect(phone.positions == both)
        #expect(laptop.positions == both)
        #expect(Set(cloud.allRecords.map(\.key)) == ["WLReadingPosition.00000000000000aa", "WLReadingPosition.00000000000000bb"])
        laptop.read("00000000000000aa", to: 150)
        laptop.sync(); phone.sync()
        #expect(phone.positions == .dictionary(["00000000000000aa": .integer(150), "00000000000000bb": .integer(200)]))
    }

    @Test func turnedOffTheyDivergeTurnedOnTheStoreWins() {
        let cloud = InMemoryCloud()
        let phone = Device("phone", cloud: cloud, values: syncOn)
        let laptop = Device("laptop", cloud: cloud, values: syncOn)
        phone.setPin("One")
        phone.sync(); laptop.sync()
        #expect(laptop.pin == Device.pin("One"))

        laptop.toggle("HPSyncLocations", false)
        laptop.toggle("WLSyncReadingPosition", false)
        #expect(laptop.mirror.store == nil)  // every toggle off: the store is closed
        phone.setPin("Two")
        phone.sync(); laptop.sync()
        #expect(laptop.pin == Device.pin("One"))
        laptop.setPin("Three")
        phone.sync()
        #expect(phone.pin == Device.pin("Two"))

        laptop.toggle("HPSyncLocations", true)
        #expect(laptop.mirror.store != nil)
        laptop.sync()
        #expect(laptop.pin == Device.pin("Two"))  // the store had a record: it wins
        phone.sync()
        #expect(phone.pin == Device.pin("Two"))
    }

    @Test func aLocalValueTheStoreNeverSawIsPushedWhenSyncTurnsOn() {
        let cloud = InMemoryCloud()
        let phone = Device("phone", cloud: cloud, values: ["HPLocation": Device.pin("Before")])
        let laptop = Device("laptop", cloud: cloud, values: syncOn)
        #expect(phone.mirror.store == nil && phone.opened == 0)
        phone.toggle("HPSyncLocations", true)
        // Not pushed before the store's first sync: it could still hold a newer pin.
        #expect(cloud.allRecords.isEmpty)
        phone.sync()  // the first sync: the store had nothing, so the local pin is pushed
        phone.sync()
        laptop.sync()
        #expect(laptop.pin == Device.pin("Before"))
    }

    @Test func aRemovalInTheStoreWinsOverALocalValueWhenSyncTurnsOn() {
        let cloud = InMemoryCloud()
        let phone = Device("phone", cloud: cloud, values: syncOn)
        phone.setPin("Gone soon")
        phone.sync()
        phone.defaults.set(nil, forKey: "HPLocation")
        phone.sync()
        let laptop = Device("laptop", cloud: cloud, values: ["HPLocation": Device.pin("Stale")])
        laptop.toggle("HPSyncLocations", true)
        laptop.sync()
        #expect(laptop.pin == nil)
    }

    @Test func onlyTheToggledRuleSyncs() {
        let cloud = InMemoryCloud()
        let phone = Device("phone", cloud: cloud, values: ["HPSyncLocations": .boolean(true)])
        let laptop = Device("laptop", cloud: cloud, values: syncOn)
        phone.sync()
        phone.read("00000000000000aa", to: 7)
        phone.setPin("Here")
        phone.sync(); laptop.sync()
        #expect(laptop.pin == Device.pin("Here"))
        #expect(laptop.positions == nil)
        #expect(cloud.allRecords.map(\.key) == ["HPLocation"])
    }

    @Test func aWriteOverTheLimitIsToldOnceAndKeptLocally() {
        let cloud = InMemoryCloud()
        let phone = Device("phone", cloud: cloud, values: syncOn, limits: KeyValueStoreLimits(maximumTotalBytes: 120))
        phone.sync()
        phone.setPin(String(repeating: "long title ", count: 20))
        phone.setPin(String(repeating: "longer title ", count: 20))
        phone.sync()
        let notices = phone.mirror.takeNotices()
        #expect(notices.count == 1)
        if case .quotaViolation(let why)? = notices.first { #expect(why.contains("120")) } else { Issue.record("no quota notice: \(notices)") }
        #expect(phone.pin == Device.pin(String(repeating: "longer title ", count: 20)))
        #expect(cloud.allRecords.isEmpty)
        #expect(phone.mirror.takeNotices().isEmpty)
    }

    @Test func anEntryWhoseKeyWouldBeTooLongStaysLocalAndIsToldOnce() {
        let cloud = InMemoryCloud()
        let phone = Device("phone", cloud: cloud, values: syncOn)
        phone.sync()
        let longID = String(repeating: "a", count: 60)
        phone.read(longID, to: 5)
        phone.read("00000000000000aa", to: 9)
        phone.read(longID, to: 6)
        phone.sync()
        #expect(cloud.allRecords.map(\.key) == ["WLReadingPosition.00000000000000aa"])
        let notices = phone.mirror.takeNotices()
        #expect(notices.count == 1)
    }

    @Test func aChangeArrivingWhileSuspendedIsDeliveredAfterResume() {
        let cloud = InMemoryCloud()
        let phone = Device("phone", cloud: cloud, values: syncOn)
        let laptop = Device("laptop", cloud: cloud, values: syncOn)
        laptop.mirror.suspend()
        phone.setPin("While away")
        phone.sync()
        laptop.mirror.resume()
        laptop.sync()
        #expect(laptop.pin == Device.pin("While away"))
    }

    @Test func reopeningTheStoreReconcilesAgainstItAgain() {
        let first = InMemoryCloud()
        let phone = Device("phone", cloud: first, values: syncOn)
        phone.setPin("Kept")
        phone.sync()
        #expect(phone.opened == 1)
        phone.mirror.reopen()
        #expect(phone.opened == 2)
        phone.sync(); phone.sync()
        #expect(phone.pin == Device.pin("Kept"))
    }
}
