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

    /// The rules with stamped values: the newer copy stands, wherever it is.
    static let stampedRules: [SyncRule] = rules.map { SyncRule($0.shape, enabledBy: $0.enabledBy, newestWins: true) }

    init(_ name: String, cloud: InMemoryCloud, values: [String: PropertyListValue] = [:], limits: KeyValueStoreLimits = .apple,
         rules: [SyncRule] = Device.rules) {
        defaults = InMemoryPreferenceStore(values: values)
        var box: (() -> UbiquitousKeyValueStore)?
        mirror = PreferenceMirror(defaults: defaults, rules: rules, startsWorker: false) { box!() }
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

/// Values that carry the stamp of the user's change (the pin, the reading positions): an older
/// copy never replaces a newer one, whichever side holds it.
@Suite struct StampedMirrorTests {
    let syncOn: [String: PropertyListValue] = ["HPSyncLocations": .boolean(true), "WLSyncReadingPosition": .boolean(true)]

    static func place(_ offset: Int, at time: Double, on device: String = "d") -> PropertyListValue {
        var fields = EditStamp(time: time, device: device).fields()
        fields["offset"] = .integer(Int64(offset))
        return .dictionary(fields)
    }

    static func pin(_ title: String, at time: Double) -> PropertyListValue {
        var fields = EditStamp(time: time, device: "d").fields()
        fields["lat"] = .real(1)
        fields["long"] = .real(2)
        fields["title"] = .string(title)
        return .dictionary(fields)
    }

    fileprivate func setPlace(_ device: Device, _ value: PropertyListValue) {
        device.defaults.set(.dictionary(["book": value]), forKey: "WLReadingPositions")
    }

    @Test func anOlderPlaceWrittenLocallyAfterARelaunchIsNotPushedOverTheNewerOne() {
        let cloud = InMemoryCloud()
        let reader = Device("b", cloud: cloud, values: syncOn, rules: Device.stampedRules)
        let follower = Device("a", cloud: cloud, values: syncOn, rules: Device.stampedRules)
        reader.sync(); follower.sync()
        setPlace(reader, Self.place(95, at: 200))
        reader.sync(); follower.sync()
        #expect(follower.positions == .dictionary(["book": Self.place(95, at: 200)]))
        #expect(follower.defaults.saves.count > 0, "a place from another device is saved at once")

        // The follower restores an older archived place and writes it (with its own old stamp).
        setPlace(follower, Self.place(13, at: 100))
        #expect(follower.positions == .dictionary(["book": Self.place(95, at: 200)]), "the store's newer place stands")
        follower.sync(); reader.sync()
        #expect(reader.positions == .dictionary(["book": Self.place(95, at: 200)]))
    }

    @Test func aNewerLocalPlaceStandsAgainstAnOlderOneInTheStoreAndIsSent() {
        let cloud = InMemoryCloud()
        let first = Device("b", cloud: cloud, values: syncOn, rules: Device.stampedRules)
        first.sync()
        setPlace(first, Self.place(10, at: 100))
        first.sync()
        // A device that read further while sync was off turns it on.
        let second = Device("a", cloud: cloud, values: ["WLReadingPositions": .dictionary(["book": Self.place(50, at: 300)])],
                            rules: Device.stampedRules)
        second.toggle("WLSyncReadingPosition", true)
        second.sync(); second.sync(); first.sync()
        #expect(second.positions == .dictionary(["book": Self.place(50, at: 300)]))
        #expect(first.positions == .dictionary(["book": Self.place(50, at: 300)]))
    }

    @Test func theNewerPinStandsOnBothSides() {
        let cloud = InMemoryCloud()
        let phone = Device("phone", cloud: cloud, values: syncOn, rules: Device.stampedRules)
        let laptop = Device("laptop", cloud: cloud, values: syncOn, rules: Device.stampedRules)
        phone.sync(); laptop.sync()
        phone.defaults.set(Self.pin("New", at: 500), forKey: "HPLocation")
        phone.sync(); laptop.sync()
        #expect(laptop.pin == Self.pin("New", at: 500))
        laptop.defaults.set(Self.pin("Old", at: 400), forKey: "HPLocation")
        #expect(laptop.pin == Self.pin("New", at: 500))
        laptop.sync(); phone.sync()
        #expect(phone.pin == Self.pin("New", at: 500))
    }

    @Test func withoutStampsTheStoreStillWinsAsBefore() {
        let cloud = InMemoryCloud()
        let phone = Device("phone", cloud: cloud, values: syncOn, rules: Device.stampedRules)
        phone.sync()
        phone.read("book", to: 5)
        phone.sync()
        let laptop = Device("laptop", cloud: cloud, values: syncOn.merging(["WLReadingPositions": .dictionary(["book": .integer(9)])]) { a, _ in a },
                            rules: Device.stampedRules)
        laptop.sync()
        #expect(laptop.positions == .dictionary(["book": .integer(5)]))
    }

    // MARK: a fleet with a release that stamps nothing

    static func unstampedPin(_ title: String) -> PropertyListValue {
        .dictionary(["lat": .real(1), "long": .real(2), "title": .string(title)])
    }

    @Test func anOlderReleasesUnstampedPinIsFollowedAndNotPutBack() {
        let cloud = InMemoryCloud()
        let newer = Device("newer", cloud: cloud, values: syncOn, rules: Device.stampedRules)
        // The release before stamps: it mirrors by the store's order alone.
        let older = Device("older", cloud: cloud, values: syncOn, rules: Device.rules)
        newer.sync(); older.sync()
        let earlier = Date().timeIntervalSince1970 - 60
        newer.defaults.set(Self.pin("Desk", at: earlier), forKey: "HPLocation")
        newer.sync(); older.sync()
        #expect(older.pin == Self.pin("Desk", at: earlier))

        older.defaults.set(Self.unstampedPin("Garden"), forKey: "HPLocation")
        older.sync(); newer.sync(); older.sync()
        // Taken in stamped with the store's record of it, which is newer than the stamp here.
        #expect(Self.withoutStamp(newer.pin) == Self.unstampedPin("Garden"))
        #expect(Self.stampTime(newer.pin) ?? 0 > earlier)
        #expect(older.pin == Self.unstampedPin("Garden"), "and the newer release does not put its own back")

        let later = Date().timeIntervalSince1970 + 1
        newer.defaults.set(Self.pin("Shop", at: later), forKey: "HPLocation")
        newer.sync(); older.sync()
        #expect(older.pin == Self.unstampedPin("Shop"), "sent in the form the older release wrote the key in")
        newer.sync()
        #expect(newer.pin == Self.pin("Shop", at: later), "its own value stays as it is")
    }

    @Test func anOlderReleasesUnstampedPageIsFollowed() {
        let cloud = InMemoryCloud()
        let newer = Device("newer", cloud: cloud, values: syncOn, rules: Device.stampedRules)
        let older = Device("older", cloud: cloud, values: syncOn, rules: Device.rules)
        newer.sync(); older.sync()
        setPlace(newer, Self.place(24, at: Date().timeIntervalSince1970 - 60))
        newer.sync(); older.sync()
        older.defaults.set(.dictionary(["book": .dictionary(["offset": .integer(27)])]), forKey: "WLReadingPositions")
        older.sync(); newer.sync(); older.sync()
        guard case .dictionary(let places)? = newer.positions else { Issue.record("no places"); return }
        #expect(Self.withoutStamp(places["book"]) == .dictionary(["offset": .integer(27)]))
        #expect(older.positions == .dictionary(["book": .dictionary(["offset": .integer(27)])]))
    }

    static func withoutStamp(_ value: PropertyListValue?) -> PropertyListValue? {
        guard case .dictionary(var fields)? = value else { return value }
        fields[EditStamp.timeKey] = nil
        fields[EditStamp.deviceKey] = nil
        return .dictionary(fields)
    }

    static func stampTime(_ value: PropertyListValue?) -> Double? {
        guard case .dictionary(let fields)? = value else { return nil }
        return EditStamp(fields: fields)?.time
    }
}
