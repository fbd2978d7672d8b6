import CloudServer
import Foundation
import Testing

@Suite("Finding the server's password")
struct PostgresPasswordTests {
    let address = PostgresSyncAddress(user: "alice", host: "db.example.org", port: 5432, database: "wonderland")

    private func passwordFile(_ text: String, mode: Int = 0o600) throws -> String {
        let path = NSTemporaryDirectory() + "pgpass-\(UUID().uuidString)"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    @Test("PGPASSWORD comes first")
    func environmentFirst() throws {
        let file = try passwordFile("*:*:*:*:from-file\n")
        let lookup = PostgresPassword.lookup(for: address, environment: ["PGPASSWORD": "from-env", "PGPASSFILE": file])
        #expect(lookup.password == "from-env")
        #expect(lookup.source == "PGPASSWORD")
    }

    @Test("the first matching line of the password file, with wildcards and escapes")
    func passwordFileLines() throws {
        let file = try passwordFile("""
            # comment
            other.host:5432:wonderland:alice:wrong-host
            db.example.org:5433:wonderland:alice:wrong-port
            db.example.org:*:wonderland:bob:wrong-user
            db.example.org:5432:*:alice:co\\:lon\\\\s
            *:*:*:*:too-late
            """)
        let lookup = PostgresPassword.lookup(for: address, environment: ["PGPASSFILE": file, "HOME": "/nonexistent"])
        #expect(lookup.password == "co:lon\\s")
        #expect(lookup.source == "\(file) line 5")
        #expect(lookup.warning == nil)
    }

    @Test("~/.pgpass when PGPASSFILE is unset")
    func homePasswordFile() throws {
        let home = NSTemporaryDirectory() + "home-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        try "*:*:*:alice:from-home\n".write(toFile: home + "/.pgpass", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: home + "/.pgpass")
        #expect(PostgresPassword.lookup(for: address, environment: ["HOME": home]).password == "from-home")
    }

    @Test("a password file others may read is ignored, as libpq does, and the user is told")
    func openPasswordFileIgnored() throws {
        let file = try passwordFile("*:*:*:*:exposed\n", mode: 0o644)
        let lookup = PostgresPassword.lookup(for: address, environment: ["PGPASSFILE": file])
        #expect(lookup.password == nil)
        #expect(lookup.warning?.contains("chmod 600") == true)
        #expect(lookup.warning?.contains("exposed") == false)
    }

    @Test("no password anywhere: none; one written in the address comes first, as in libpq")
    func nothingFoundAndTheAddressFirst() throws {
        #expect(PostgresPassword.lookup(for: address, environment: ["HOME": "/nonexistent"]).password == nil)
        var withInline = address
        withInline.inlinePassword = "inline"
        let lookup = PostgresPassword.lookup(for: withInline, environment: ["HOME": "/nonexistent", "PGPASSWORD": "from-env"])
        #expect(lookup.password == "inline")
        #expect(lookup.source == "the address")
    }
}
