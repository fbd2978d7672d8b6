import Cloud
import Testing
@testable import WonderlandApp

@Suite("What the status says of the reading places")
struct CloudShareStatusTests {
    let share = CloudSettings.readingPlaceShare
    var places: EntryShareSummary { EntryShareSummary(localKey: "WLReadingPositions", known: 1_996, synced: 200, share: share) }

    @Test func theTabBarCountsThePlacesSyncedOfThoseKnownAndTheRefusedKeys() {
        let status = KeyValueStoreStatus(isReachable: true)
        #expect(CloudStatusBoard.describe(status, shares: [places]) == "synced, 200 of 1,996 places")
        let all = EntryShareSummary(localKey: "WLReadingPositions", known: 12, synced: 12, share: share)
        #expect(CloudStatusBoard.describe(status, shares: [all]) == "synced")
        var refused = status
        refused.refusedKeys = 1
        #expect(CloudStatusBoard.describe(refused, shares: [all]) == "synced, 1 refused")
    }

    @Test func theStatusCommandSaysWhatIsSyncedAndWhyTheRestStaysHere() {
        #expect(CloudStatusBoard.shareLines([places]) == [
            "Reading places: 1,996 books, the 200 most recent synced; 1,796 older stay on this machine until read again "
                + "(the store keeps at most 200, so the pin always has room)",
        ])
        #expect(CloudStatusBoard.shareLines([EntryShareSummary(localKey: "WLReadingPositions", known: 1, synced: 1, share: share)])
            == ["Reading places: 1 book, all synced"])
        #expect(CloudStatusBoard.grouped(1_234_567) == "1,234,567")
        #expect(CloudStatusBoard.grouped(999) == "999")
    }

    @Test func theSharesLeaveTheWholeKeysRoom() {
        let limits = KeyValueStoreLimits.apple
        let shares = CloudSettings.rules.compactMap(\.share)
        let wholeKeys = CloudSettings.rules.filter { if case .wholeKey = $0.shape { return true } else { return false } }.count
        #expect(CloudSettings.rules.allSatisfy { rule in
            if case .perEntry = rule.shape { return rule.share != nil } else { return true }
        }, "every per-entry rule is bounded")
        #expect(shares.map(\.maximumEntries).reduce(0, +) + wholeKeys * 64 <= limits.maximumKeyCount)
        #expect(shares.map(\.maximumBytes).reduce(0, +) + wholeKeys * 64 * 1_024 <= limits.maximumTotalBytes)
    }
}
