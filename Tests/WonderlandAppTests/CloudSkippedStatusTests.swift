import Cloud
import Testing
@testable import WonderlandApp

/// The tab bar says when changes from elsewhere were not applied; `wonderland cloud status`
/// names them.
@Suite("Skipped changes in the status line")
struct CloudSkippedStatusTests {
    @Test func theCountFollowsTheStateAndComesBeforeTheServer() {
        var status = KeyValueStoreStatus(isReachable: true)
        #expect(CloudStatusBoard.describe(status) == "synced")
        status.skippedChanges = 2
        #expect(CloudStatusBoard.describe(status) == "synced, 2 skipped")
        #expect(CloudStatusBoard.describe(status, server: "server postgres://alice@db:5432/w") == "synced, 2 skipped · server postgres://alice@db:5432/w")
        status.pendingChanges = 1
        #expect(CloudStatusBoard.describe(status) == "syncing, 1 change waiting, 2 skipped")
        status.pendingChanges = 0
        status.isReachable = false
        status.problem = "cannot read /mnt/gone"
        #expect(CloudStatusBoard.describe(status) == "offline, 2 skipped: cannot read /mnt/gone")
    }
}
