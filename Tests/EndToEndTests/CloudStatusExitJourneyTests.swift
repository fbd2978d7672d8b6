import Foundation
import Testing

/// `wonderland cloud status` and `list` as a script runs them against a server: status 0 while
/// the server answers, 1 once it cannot be reached, the reason said either way; a folder store is
/// status 0 whether or not the folder is there.
@Suite("cloud status and list exit statuses", .whenEndToEndIsAskedFor)
struct CloudStatusExitJourneyTests {
    @Test("a running server: status 0; the server gone (its port closed): status 1 and why; a folder: status 0")
    func exitStatuses() throws {
        let server = try ThrowAwayServer()
        let home = try HomeFolder()
        let environment = ["WONDERLAND_SYNC_URL": server.url, "PGPASSWORD": server.password]

        let status = try home.wonderland(["cloud", "status"], environment: environment)
        #expect(status.status == 0, "\(status.output)")
        #expect(status.output.contains("Reached:  yes"), "\(status.output)")
        let list = try home.wonderland(["cloud", "list"], environment: environment)
        #expect(list.status == 0, "\(list.output)")

        try server.kill()
        let downStatus = try home.wonderland(["cloud", "status"], environment: environment)
        #expect(downStatus.status == 1, "\(downStatus.output)")
        #expect(downStatus.output.contains("Reached:  no: cannot connect to"), "\(downStatus.output)")
        #expect(downStatus.output.contains("Server:   \(server.url)"), "the output is kept: \(downStatus.output)")
        let downList = try home.wonderland(["cloud", "list"], environment: environment)
        #expect(downList.status == 1, "\(downList.output)")
        #expect(downList.output.contains("could not reach the server: cannot connect to"), "\(downList.output)")
        #expect(!(downStatus.output + downList.output).contains(server.password))

        // --offline does not try, so it has nothing to fail at.
        let offline = try home.wonderland(["cloud", "status", "--offline"], environment: environment)
        #expect(offline.status == 0, "\(offline.output)")

        let missing = home.url.appendingPathComponent("no-such-folder").path
        let folder = try home.wonderland(["cloud", "status"], environment: ["WONDERLAND_SYNC_FOLDER": missing])
        #expect(folder.status == 0, "\(folder.output)")
        #expect(folder.output.contains("folder missing"), "\(folder.output)")
        let folderList = try home.wonderland(["cloud", "list"], environment: ["WONDERLAND_SYNC_FOLDER": missing])
        #expect(folderList.status == 0, "\(folderList.output)")
    }
}

extension HomeFolder {
    /// The real binary with this HOME, `environment` and nothing else of the test's.
    func wonderland(_ arguments: [String], environment: [String: String]) throws -> (status: Int32, output: String) {
        let variables = environment.map { "\($0.key)=\($0.value)" }.sorted()
        return try Subprocess.run(["/usr/bin/env", "-i", "PATH=/usr/bin:/bin", "HOME=\(url.path)", "LANG=C.UTF-8"] + variables
                                  + [try TmuxSession.locateBinary()] + arguments)
    }
}
