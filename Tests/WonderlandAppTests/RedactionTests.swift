import CloudServer
import Defaults
import Foundation
import Testing
@testable import WonderlandApp

/// What `cloud status`, the tab bar and the alerts print with a server password in play: the
/// password field of an address is hidden, and nothing else is — a short password that is also
/// part of the host, the user's name, the database or a path leaves them as they are.
@Suite("Redaction")
struct RedactionTests {
    func place(_ url: String, password: String) throws -> CloudSyncPlace {
        let address = try PostgresSyncAddress(parsing: url)
        return CloudSyncPlace(kind: .server(address, PostgresPassword.lookup(for: address, environment: ["PGPASSWORD": password])),
                              source: "WONDERLAND_SYNC_URL")
    }

    @Test("a password of \"sam\" leaves the user, the database and a path named sam alone")
    func shortPasswordChangesNothingElse() throws {
        let place = try place("postgres://sam@127.0.0.1:5432/sam?sslmode=disable", password: "sam")
        for line in ["Server:   postgres://sam@127.0.0.1:5432/sam?sslmode=disable (from WONDERLAND_SYNC_URL)",
                     "Password: from /home/sam/.pgpass",
                     "Reached:  no: cannot connect to 127.0.0.1:5432 for sam/sam: connection refused"] {
            #expect(place.redacting(line) == line)
        }
        #expect(place.redacting("postgres://sam:sam@127.0.0.1:5432/sam") == "postgres://sam:•••@127.0.0.1:5432/sam")
    }

    @Test("a password of \"0.0\" leaves the host 127.0.0.1 alone")
    func passwordInsideTheHost() throws {
        let place = try place("postgres://alice@127.0.0.1:5432/wl", password: "0.0")
        #expect(place.redacting("cannot connect to 127.0.0.1:5432") == "cannot connect to 127.0.0.1:5432")
        #expect(place.redacting("Server:   postgres://alice@127.0.0.1:5432/wl") == "Server:   postgres://alice@127.0.0.1:5432/wl")
        #expect(place.redacting("postgres://alice:0.0@127.0.0.1:5432/wl") == "postgres://alice:•••@127.0.0.1:5432/wl")
    }

    @Test("the password field is hidden whatever it holds: percent-encoded, with \"@\" or \"/\", or among other words")
    func theFieldIsHidden() {
        #expect(CloudServerCredentials.redact("postgres://alice:p%40ss%2Fw0rd@db/wl", passwords: []) == "postgres://alice:•••@db/wl")
        #expect(CloudServerCredentials.redact("postgres://alice:p@ss/x@db:5432/wl?sslmode=disable", passwords: [])
                == "postgres://alice:•••@db:5432/wl?sslmode=disable")
        #expect(CloudServerCredentials.redact("tried postgres://a:one@h/db, then postgresql://b:two@k/db2 as alice@home", passwords: [])
                == "tried postgres://a:•••@h/db, then postgresql://b:•••@k/db2 as alice@home")
        #expect(CloudServerCredentials.redact("\"postgres://a:x@h/db\"\nnext line", passwords: []) == "\"postgres://a:•••@h/db\"\nnext line")
    }

    @Test("an address without a password, or with an empty one, is left as it is")
    func noPassword() {
        for text in ["postgres://alice@db.example.org:5432/wl", "postgres://db.example.org:5432/wl", "postgres://alice:@db/wl",
                     "mail alice@example.org at 10:30", "no address here: a:b@c"] {
            #expect(CloudServerCredentials.redact(text, passwords: []) == text)
        }
        #expect(URLPassword.passwordRange(in: "postgres://alice@db/wl") == nil)
        let text = "postgres://alice:s%40m@db/wl"
        #expect(URLPassword.passwordRange(in: text[...]).map { String(text[$0]) } == "s%40m")
        #expect(URLPassword.split(from: text)?.address == "postgres://alice@db/wl")
        #expect(URLPassword.split(from: text)?.password == "s@m")
    }

    @Test("a distinctive password is hidden in free text; a short or common one never is")
    func distinctivePasswordsInFreeText() throws {
        let place = try place("postgres://alice@db.example.org/wl", password: "Tr0ub4dor3x")
        #expect(place.redacting("password authentication failed (tried Tr0ub4dor3x)") == "password authentication failed (tried •••)")
        #expect(CloudServerCredentials.isDistinctive("Tr0ub4dor3x"))
        for common in ["sam", "0.0", "password", "12345678", "wonderland", "s3cret"] {
            #expect(!CloudServerCredentials.isDistinctive(common), "\(common)")
            #expect(CloudServerCredentials.redact("user \(common) at 127.0.0.1", passwords: [common]) == "user \(common) at 127.0.0.1")
        }
    }
}
