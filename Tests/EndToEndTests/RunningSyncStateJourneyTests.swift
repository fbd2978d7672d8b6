import Foundation
import Testing

/// A machine whose app is running and synced: `wonderland cloud status` says what the app knows
/// from the app's state file, and when the server has no connection to spare for the command's
/// own look, says plainly that the running app is connected. The file goes when the app quits.
@Suite("cloud status reads the running app's sync state", .whenEndToEndIsAskedFor)
struct RunningSyncStateJourneyTests {
    @Test("synced in tmux: cloud status names the running app as reached; the server full for status, the app still connected")
    func statusSeesTheRunningApp() throws {
        let server = try ThrowAwayServer()
        // A role of its own, which (unlike the server's superuser) a connection limit holds.
        let password = "Alice5ecret9"
        try server.psql("CREATE ROLE alice LOGIN PASSWORD '\(password)'")
        try server.psql("CREATE DATABASE alicedb OWNER alice")
        let url = server.url.replacingOccurrences(of: "postgres://wonderland@", with: "postgres://alice@")
            .replacingOccurrences(of: "/wonderland", with: "/alicedb")
        let home = try HomeFolder()
        let state = home.url.appendingPathComponent("state")
        let environment = ["WONDERLAND_SYNC_URL": url, "PGPASSWORD": password, "XDG_STATE_HOME": state.path,
                           "XDG_CONFIG_HOME": home.url.appendingPathComponent("config").path,
                           "XDG_DATA_HOME": home.url.appendingPathComponent("data").path]
        let phone = try TmuxSession(columns: 160, rows: 24, environment: environment, home: home, session: "phone")
        try phone.launchApp("--location 48.8566,2.3522 -HPSyncLocations YES")
        _ = try phone.waitForText("synced · server \(url)")

        let running = state.appendingPathComponent("wonderland/running")
        let files = try FileManager.default.contentsOfDirectory(atPath: running.path).filter { $0.hasPrefix("sync-") }
        #expect(files.count == 1, "\(files)")
        let pid = files.first.map { String($0.dropFirst("sync-".count).dropLast(".json".count)) } ?? "?"

        let reached = try waitForStatus(home: home, environment: environment, containing: "Running app (pid \(pid)): reached the server")
        #expect(reached.status == 0, "\(reached.output)")
        #expect(reached.output.contains("· \(url)"), "\(reached.output)")
        #expect(!reached.output.contains(password))

        // The app keeps the connection it has; a new one, such as the command's, is refused.
        try server.psql("ALTER ROLE alice CONNECTION LIMIT 1")
        let full = try home.wonderland(["cloud", "status"], environment: environment)
        #expect(full.status == 1, "\(full.output)")
        #expect(full.output.contains("Reached:  no: the server is full"), "\(full.output)")
        #expect(full.output.contains("Running app (pid \(pid)): reached the server"), "\(full.output)")
        #expect(full.output.contains("the running app (pid \(pid)) is connected and syncing"), "\(full.output)")

        try phone.type("q")
        _ = try phone.waitForText("exit=0")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: running.path)) ?? []
        #expect(left.filter { $0.hasPrefix("sync-") } == [], "the app removes its file when it quits")
    }

    /// `cloud status` run until it says `text` (the app writes its file at its next idle moment).
    private func waitForStatus(home: HomeFolder, environment: [String: String], containing text: String) throws -> (status: Int32, output: String) {
        let deadline = Date().addingTimeInterval(15)
        while true {
            let result = try home.wonderland(["cloud", "status"], environment: environment)
            if result.output.contains(text) { return result }
            if Date() > deadline { throw E2EError("wonderland cloud status never said \(text):\n\(result.output)") }
            usleep(200_000)
        }
    }
}
