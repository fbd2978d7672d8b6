import CloudServer
import Foundation
import Testing

/// A password file that is not a small regular file is ignored with a warning, never read:
/// a FIFO in its place would otherwise block every start.
@Suite("A password file that is not a file")
struct PasswordFileSafetyTests {
    let address = PostgresSyncAddress(user: "alice", host: "db.example.org", port: 5432, database: "wonderland")

    @Test("a FIFO is ignored at once, and said to be one")
    func fifo() throws {
        let path = NSTemporaryDirectory() + "pgpass-fifo-\(UUID().uuidString)"
        defer { unlink(path) }
        #expect(mkfifo(path, 0o600) == 0)
        let lookup = PostgresPassword.lookup(for: address, environment: ["PGPASSFILE": path])
        #expect(lookup.password == nil)
        #expect(lookup.warning == "\(path) is a FIFO (named pipe), not a regular file, so it is ignored")
    }

    @Test("a huge file is ignored unread")
    func huge() throws {
        let path = NSTemporaryDirectory() + "pgpass-huge-\(UUID().uuidString)"
        defer { unlink(path) }
        let descriptor = open(path, O_WRONLY | O_CREAT, 0o600)
        #expect(ftruncate(descriptor, 3 << 30) == 0)
        close(descriptor)
        let lookup = PostgresPassword.lookup(for: address, environment: ["PGPASSFILE": path])
        #expect(lookup.password == nil)
        #expect(lookup.warning == "\(path) is 3 GB, more than the 1 MB allowed for a password file, so it is ignored")
    }
}
