import Cloud
import Defaults
import Foundation
import PropertyList
import Testing

/// A heavy reader at the store's limits: the places take a bounded share, newest first; the
/// pin always has room; a new device gets the most recent places; evicted places stay local.
@Suite struct ShareTests {
    @Test func theShareKeepsTheNewestEntriesThatFitAndBreaksTiesByName() {
        let share = EntryShare(maximumEntries: 2, maximumBytes: 10_000)
        let summary = EntryShareSummary(localKey: "k", known: 5, synced: 2, share: share)
        #expect(summary.leftOut == 3)
        let cloud = InMemoryCloud()
        let rules: [SyncRule] = [.perEntry("WLReadingPositions", cloudPrefix: "WLReadingPosition.", enabledBy: "WLSyncReadingPosition",
                                           newestWins: true, share: share)]
        let device = ReaderDevice("phone", cloud: cloud, rules: rules)
        device.sync()
        device.defaults.set(.dictionary([
            "old": ReaderDevice.place(offset: 1, time: 1), "b": ReaderDevice.place(offset: 2, time: 5),
            "a": ReaderDevice.place(offset: 3, time: 5), "unstamped": .integer(9),
        ]), forKey: "WLReadingPositions")
        device.sync()
        #expect(device.syncedBooks == ["a", "b"])
        #expect(device.positions.count == 4, "the others stay on this machine")
    }

    @Test func aByteShareStopsAtTheFirstEntryThatDoesNotFit() {
        let share = EntryShare(maximumEntries: 100, maximumBytes: 400)
        let rules: [SyncRule] = [.perEntry("WLReadingPositions", cloudPrefix: "WLReadingPosition.", enabledBy: "WLSyncReadingPosition",
                                           newestWins: true, share: share)]
        let device = ReaderDevice("phone", cloud: InMemoryCloud(), books: 50, rules: rules)
        device.sync()
        let synced = device.syncedBooks
        #expect(!synced.isEmpty && synced.count < 10)
        #expect(synced.contains(ReaderDevice.book(49)), "the newest first")
        let summary = device.mirror.shareSummaries()
        #expect(summary.first?.known == 50)
        #expect(summary.first?.synced == synced.count)
    }

    @Test func withElevenHundredPlacesThePinStillFitsAndOnlyTheNewest200AreSynced() {
        let cloud = InMemoryCloud()
        let limits = KeyValueStoreLimits()
        let reader = ReaderDevice("reader", cloud: cloud, books: 1_100, limits: limits)
        reader.setPin("Café", at: 5_000)
        reader.sync()
        reader.sync()
        #expect(reader.syncedBooks == Set((900 ..< 1_100).map(ReaderDevice.book)))
        #expect(reader.mirror.store?.object(forKey: "HPLocation") != nil)
        #expect(reader.mirror.takeNotices().isEmpty, "nothing was refused")
        #expect(reader.mirror.store?.status.pendingChanges == 0)
        #expect(reader.positions.count == 1_100, "older places stay on this machine")
        // A new pin later still goes through.
        reader.setPin("Gare", at: 6_000)
        reader.sync()
        let other = ReaderDevice("laptop", cloud: cloud, limits: limits)
        other.sync()
        other.sync()
        if case .dictionary(let pin)? = other.defaults.object(forKey: "HPLocation") { #expect(pin["title"] == .string("Gare")) } else {
            Issue.record("the pin did not reach the other device")
        }
    }

    @Test func aNewDeviceReceivesTheMostRecent200Places() {
        let cloud = InMemoryCloud()
        let reader = ReaderDevice("reader", cloud: cloud, books: 1_100)
        reader.sync(); reader.sync()
        let fresh = ReaderDevice("fresh", cloud: cloud)
        fresh.sync(); fresh.sync()
        #expect(Set(fresh.positions.keys) == Set((900 ..< 1_100).map(ReaderDevice.book)))
        #expect(fresh.positions[ReaderDevice.book(1_099)] == reader.positions[ReaderDevice.book(1_099)])
    }

    @Test func readingAnOldBookAgainBringsItBackAndEvictsTheLeastRecentlyRead() {
        let cloud = InMemoryCloud()
        let reader = ReaderDevice("reader", cloud: cloud, books: 300)
        let laptop = ReaderDevice("laptop", cloud: cloud)
        reader.sync(); reader.sync(); laptop.sync(); laptop.sync()
        #expect(laptop.positions.count == 200)
        #expect(!reader.syncedBooks.contains(ReaderDevice.book(5)))
        reader.read(ReaderDevice.book(5), to: 77, at: 9_000)
        reader.sync(); laptop.sync()
        #expect(reader.syncedBooks.contains(ReaderDevice.book(5)))
        #expect(!reader.syncedBooks.contains(ReaderDevice.book(100)), "the least recently read went")
        #expect(reader.syncedBooks.count == 200)
        #expect(laptop.positions[ReaderDevice.book(5)] == ReaderDevice.place(offset: 77, time: 9_000))
        #expect(laptop.positions[ReaderDevice.book(100)] != nil, "an eviction is no deletion: the laptop keeps the place")
        #expect(reader.positions[ReaderDevice.book(100)] != nil)
        // A page turn in a synced book goes through as before.
        reader.read(ReaderDevice.book(299), to: 5, at: 9_100)
        reader.sync(); laptop.sync()
        #expect(laptop.positions[ReaderDevice.book(299)] == ReaderDevice.place(offset: 5, time: 9_100))
    }

    @Test func aStoreFilledByAnOlderBuildIsBroughtDownToTheShareAndTheNewPinFits() throws {
        let cloud = InMemoryCloud()
        // An older build wrote a place per book until the store was full.
        let old = UbiquitousKeyValueStore(.init(backend: cloud.backend(), device: DeviceIdentifier("old")!))
        var values: [String: PropertyListValue?] = [:]
        for index in 0 ..< 1_024 { values["WLReadingPosition." + ReaderDevice.book(index)] = ReaderDevice.place(offset: index, time: 1_000 + Double(index)) }
        try old.setValues(values)
        #expect(old.synchronize())
        let reader = ReaderDevice("reader", cloud: cloud)
        reader.sync()
        reader.setPin("Here", at: 9_000)
        reader.sync()
        #expect(reader.syncedBooks.count == 200)
        #expect(reader.mirror.store?.object(forKey: "HPLocation") != nil)
        #expect(reader.positions.count == 1_024, "every place the store held is kept on this machine")
        #expect(reader.mirror.takeNotices().isEmpty)
    }
}
