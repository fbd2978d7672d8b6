import Foundation
import Testing

/// `wonderland cloud check` as an admin runs it: the real binary and its sync helper against a
/// throw-away server of the journey's own, the password from a PGPASSFILE. The exit status is
/// what a script acts on: 1 while a problem stands, 0 once the README's statements are run, 3
/// when the server is down; 2 when the store syncs through a folder.
@Suite("cloud check against a PostgreSQL server", .whenEndToEndIsAskedFor)
struct CloudCheckJourneyTests {
    @Test("problems give status 1 and say the fix; fixed, status 0; the server down, status 3; a folder, status 2; the password never printed")
    func exitStatuses() throws {
        let server = try ThrowAwayServer()
        let home = try HomeFolder()
        let passwordFile = home.url.appendingPathComponent("pgpass")
        let port = URLComponents(string: server.url)?.port ?? 0
        try "127.0.0.1:\(port):*:wonderland:\(server.password)\n".write(to: passwordFile, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: passwordFile.path)
        let environment = ["WONDERLAND_SYNC_URL": server.url, "PGPASSFILE": passwordFile.path]

        let first = try home.wonderland(["cloud", "check"], environment: environment)
        #expect(first.status == 1, "\(first.output)")
        #expect(first.output.contains("problem: every role on this server (PUBLIC) may connect to database wonderland"), "\(first.output)")
        #expect(first.output.contains("REVOKE CONNECT, TEMPORARY ON DATABASE wonderland FROM PUBLIC"), "\(first.output)")
        #expect(first.output.contains("warning: role wonderland is a superuser"), "\(first.output)")
        #expect(first.output.contains("Password: from \(passwordFile.path)"), "\(first.output)")
        #expect(!first.output.contains(server.password))

        try server.psql("REVOKE CONNECT, TEMPORARY ON DATABASE wonderland FROM PUBLIC")
        let fixed = try home.wonderland(["cloud", "check"], environment: environment)
        #expect(fixed.status == 0, "\(fixed.output)")
        #expect(fixed.output.contains("ok: PUBLIC may not connect to database wonderland"), "\(fixed.output)")
        #expect(!fixed.output.contains("problem:"), "\(fixed.output)")
        #expect(fixed.output.contains("No problems"), "\(fixed.output)")

        try server.kill()
        let down = try home.wonderland(["cloud", "check"], environment: environment)
        #expect(down.status == 3, "\(down.output)")
        #expect(down.output.contains("cannot check the server"), "\(down.output)")

        let folder = try home.wonderland(["cloud", "check"], environment: ["WONDERLAND_SYNC_FOLDER": home.url.path])
        #expect(folder.status == 2, "\(folder.output)")
        #expect(folder.output.contains("not a server"), "\(folder.output)")
    }
}

extension ThrowAwayServer {
    /// SQL as the server's owner, on its own socket.
    func psql(_ sql: String) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/pg-server").path
        let result = try Subprocess.run([script, "psql", folder.path, "-qAt", "-v", "ON_ERROR_STOP=1", "-c", sql])
        guard result.status == 0 else { throw E2EError("psql \(sql) failed:\n\(result.output)") }
    }
}
