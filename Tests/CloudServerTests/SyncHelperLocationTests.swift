import Testing
@testable import CloudServer

@Suite("Where the app finds its sync helper")
struct SyncHelperLocationTests {
    @Test("an installed app looks in its prefix's libexec folder after its own folder")
    func installedPlaces() {
        #expect(SyncHelperLocation.candidates(executableFolder: "/usr/bin") == [
            "/usr/bin/wonderland-sync-server", "/usr/libexec/wonderland/wonderland-sync-server",
        ])
        #expect(SyncHelperLocation.candidates(executableFolder: "/home/a/.local/bin") == [
            "/home/a/.local/bin/wonderland-sync-server", "/home/a/.local/libexec/wonderland/wonderland-sync-server",
        ])
    }

    @Test("a build folder that is not a bin folder looks beside itself, then one level up")
    func buildFolder() {
        #expect(SyncHelperLocation.candidates(executableFolder: "/src/.build/release") == [
            "/src/.build/release/wonderland-sync-server", "/src/.build/release/../libexec/wonderland/wonderland-sync-server",
        ])
    }

    @Test("the first place holding the helper wins; with none, the place beside the app is named")
    func firstThatExists() {
        let places = SyncHelperLocation.candidates(executableFolder: SyncHelperLocation.runningExecutableFolder())
        #expect(SyncHelperLocation.path(environment: [:], isExecutable: { $0 == places[1] }) == places[1])
        #expect(SyncHelperLocation.path(environment: [:], isExecutable: { _ in true }) == places[0])
        #expect(SyncHelperLocation.path(environment: [:], isExecutable: { _ in false }) == places[0])
    }

    @Test("the environment's helper is used as given, even where nothing is")
    func environmentWins() {
        let environment = [SyncHelperLocation.environmentVariable: "/nowhere/helper"]
        #expect(SyncHelperLocation.path(environment: environment, isExecutable: { _ in true }) == "/nowhere/helper")
    }
}
