import CloudServer
import Testing

@Suite("Server addresses")
struct PostgresSyncAddressTests {
    @Test("a full address: user, host, port, database, TLS")
    func fullAddress() throws {
        let address = try PostgresSyncAddress(parsing: "postgres://alice@db.example.org:6543/wonder?sslmode=verify-full&sslrootcert=/etc/ca.pem")
        #expect(address == PostgresSyncAddress(user: "alice", host: "db.example.org", port: 6543, database: "wonder",
                                               tls: .verifyFull, rootCertificate: "/etc/ca.pem"))
        #expect(address.description == "postgres://alice@db.example.org:6543/wonder?sslmode=verify-full&sslrootcert=/etc/ca.pem")
    }

    @Test("libpq's defaults: port 5432, the database named after the user; TLS unless disabled by name; postgresql:// too")
    func defaults() throws {
        let address = try PostgresSyncAddress(parsing: "postgresql://bob@localhost")
        #expect(address.port == 5432)
        #expect(address.database == "bob")
        #expect(address.tls == .require)
        #expect(address.newsWait == .listen)
        #expect(address.passwordMethods == [.scram, .none])
        #expect(try PostgresSyncAddress(parsing: "postgres://bob@[::1]:5433/x").description == "postgres://bob@[::1]:5433/x")
        // Clear text only by name, and then said in the address as it is shown.
        #expect(try PostgresSyncAddress(parsing: "postgres://bob@h/x?sslmode=disable").description == "postgres://bob@h:5432/x?sslmode=disable")
    }

    @Test("wait=poll and require_auth are read, kept through the description, and refused when unknown")
    func waitAndPasswordMethods() throws {
        let address = try PostgresSyncAddress(parsing: "postgres://a@h/d?wait=poll&require_auth=md5,scram-sha-256")
        #expect(address.newsWait == .poll)
        #expect(address.passwordMethods == [.md5, .scram])
        #expect(address.description == "postgres://a@h:5432/d?wait=poll&require_auth=scram-sha-256,md5")
        #expect(try PostgresSyncAddress(parsing: address.description) == address)
        #expect(try PostgresSyncAddress(parsing: "postgres://a@h/d?require_auth=password").passwordMethods == [.password])
        #expect(throws: PostgresSyncAddress.ParseError.self) { try PostgresSyncAddress(parsing: "postgres://a@h/d?wait=often") }
        #expect(throws: PostgresSyncAddress.ParseError.self) { try PostgresSyncAddress(parsing: "postgres://a@h/d?require_auth=!password") }
    }

    @Test("asking for TLS gets it: prefer and require both encrypt")
    func tlsModes() throws {
        #expect(try PostgresSyncAddress(parsing: "postgres://a@h/d?sslmode=require").tls == .require)
        #expect(try PostgresSyncAddress(parsing: "postgres://a@h/d?sslmode=prefer").tls == .require)
        #expect(try PostgresSyncAddress(parsing: "postgres://a@h/d?sslmode=verify-ca").tls == .verifyCA)
        #expect(throws: PostgresSyncAddress.ParseError.self) { try PostgresSyncAddress(parsing: "postgres://a@h/d?sslmode=sometimes") }
    }

    @Test("a password in the address is kept apart and never shown")
    func passwordNeverShown() throws {
        let address = try PostgresSyncAddress(parsing: "postgres://carol:s3cr%40t@h:5432/d")
        #expect(address.inlinePassword == "s3cr@t")
        #expect(!address.description.contains("s3cr"))
        #expect(!"\(address)".contains("s3cr"))
        #expect(address.storeIdentity == "postgres://h:5432/d")
    }

    @Test("what is wrong with a bad address is said plainly", arguments: [
        ("/home/me/sync", "starts with postgres://"),
        ("postgres:///db", "no host"),
        ("postgres://host/db", "no user"),
        ("postgres://a@h:99999/db", "99999"),
        ("postgres://a@h/db?colour=blue", "colour"),
    ])
    func badAddresses(text: String, expected: String) {
        #expect(PostgresSyncAddress.looksLikeAddress(text) == text.hasPrefix("postgres"))
        do {
            _ = try PostgresSyncAddress(parsing: text)
            Issue.record("\(text) was accepted")
        } catch {
            #expect(error.description.contains(expected), "\(error.description)")
        }
    }
}
