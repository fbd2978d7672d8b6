import Cloud
import CloudPostgres
@testable import CloudServer
import Foundation
import PropertyList
import TestPrerequisites
import Testing

/// `wonderland cloud check`'s queries against a real server: a team member's role and database
/// as an admin makes them, with the grants PostgreSQL gives by default, then as the README says
/// to make them, then with another role's tables, grants and triggers in the way.
@Suite("Checking a database for a team", .requires(.postgresServer, .openssl, .python3))
final class PostgresServerAuditTests {
    let server: TestPostgresServer
    private var roles: [String] = []
    private var databases: [String] = []

    init() throws {
        server = try TestPostgresServer.shared()
    }

    deinit {
        for database in databases { _ = try? server.psql("DROP DATABASE IF EXISTS \(database) WITH (FORCE)", database: "wonderland") }
        for role in roles {
            _ = try? server.psql("DROP OWNED BY \(role)", database: "wonderland")
            _ = try? server.psql("DROP ROLE IF EXISTS \(role)", database: "wonderland")
        }
    }

    struct Member {
        let role: String
        let password: String
        let database: String
        let address: PostgresSyncAddress
    }

    static func suffix() -> String { UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(12).description }

    /// A login role of its own, with a password.
    func role(_ label: String) throws -> (name: String, password: String) {
        let name = "\(label)_\(Self.suffix())"
        let password = UUID().uuidString
        try server.psql("CREATE ROLE \(name) LOGIN PASSWORD '\(password)'", database: "wonderland")
        roles.append(name)
        return (name, password)
    }

    /// One team member: a role and a database it owns, with PostgreSQL's default grants.
    func member() throws -> Member {
        let (name, password) = try role("member")
        let database = "team_\(Self.suffix())"
        try server.psql("CREATE DATABASE \(database) OWNER \(name)", database: "wonderland")
        databases.append(database)
        let address = PostgresSyncAddress(user: name, host: "127.0.0.1", port: server.port, database: database, tls: .disable)
        return Member(role: name, password: password, database: database, address: address)
    }

    /// The README's statements for a member's database.
    func secure(_ member: Member) throws {
        try server.psql("REVOKE CONNECT, TEMPORARY ON DATABASE \(member.database) FROM PUBLIC", database: "wonderland")
        try server.psql("GRANT CONNECT ON DATABASE \(member.database) TO \(member.role)", database: "wonderland")
        try server.psql("REVOKE CREATE ON SCHEMA public FROM PUBLIC", database: member.database)
    }

    func check(_ member: Member) throws -> [ServerCheckFinding] {
        try PostgresServerCheck.run(address: member.address, password: member.password, options: SyncServerOptions())
    }

    func problems(_ findings: [ServerCheckFinding]) -> [String] { findings.filter { $0.severity == .problem }.map(\.text) }

    /// The app's first sync as the member: it makes the store's tables.
    func firstSync(_ member: Member) throws {
        let backend = PostgresBackend(address: member.address, password: member.password, device: DeviceIdentifier("aaaa")!)
        _ = try backend.fetchChanges()
    }

    @Test("a database with the default grants: PUBLIC and every other login role may connect, named; a pre-15 public schema may be written by all")
    func defaultGrantsAreProblems() throws {
        let member = try member()
        // First in name order: a finding names at most eight roles, and other tests make theirs.
        let other = try role("a_intruder")
        var findings = try check(member)
        let found = problems(findings)
        #expect(found.contains { $0.contains("(PUBLIC) may connect to database \(member.database)") && $0.contains("REVOKE CONNECT") }, "\(found)")
        #expect(found.contains { $0.contains("may connect to database \(member.database)") && $0.contains(other.name) }, "\(found)")
        #expect(!found.contains { $0.contains("schema public") }, "PostgreSQL 15's public schema is the owner's: \(found)")
        #expect(findings.contains { $0.severity == .info && $0.text.contains("not made yet") }, "\(findings)")
        #expect(findings.contains { $0.severity == .info && $0.text.contains("room for about") }, "\(findings)")

        // As a cluster upgraded from before PostgreSQL 15 keeps it.
        try server.psql("GRANT CREATE ON SCHEMA public TO PUBLIC", database: member.database)
        findings = try check(member)
        #expect(problems(findings).contains { $0.contains("(PUBLIC) may create objects in schema public") }, "\(problems(findings))")
    }

    @Test("the README's REVOKE and GRANT, then the app's own first sync: no problems, and other roles go unnamed")
    func securedDatabaseHasNoProblems() throws {
        let member = try member()
        let other = try role("bystander")
        try secure(member)
        var findings = try check(member)
        #expect(problems(findings).isEmpty, "\(findings.map(\.description))")
        #expect(!findings.contains { $0.text.contains(other.name) })
        #expect(findings.contains { $0 == .ok("role \(member.role) is an ordinary role (not a superuser, no CREATEROLE or CREATEDB)") })

        try firstSync(member)
        findings = try check(member)
        #expect(problems(findings).isEmpty, "\(findings.map(\.description))")
        #expect(findings.contains { $0 == .ok("the store's tables and sequence belong to \(member.role)") }, "\(findings)")
        #expect(findings.contains { $0 == .ok("no triggers, rules or row security on the store's tables") })
        #expect(findings.contains { $0 == .ok("wonderland_write belongs to \(member.role) and runs with the caller's privileges") })
        #expect(findings.contains { $0 == .info("the store's tables are version 1, the one this app uses") })
        #expect(findings.contains { $0.severity == .warning && $0.text.contains("does not use it (sslmode=disable)") }, "the test server offers TLS")
        // Checking made nothing and left no session behind.
        let deadline = Date(timeIntervalSinceNow: 10)
        while try server.psql("SELECT count(*) FROM pg_stat_activity WHERE datname = '\(member.database)'", database: "wonderland") != "0\n" {
            guard Date() < deadline else { Issue.record("a session stayed open after the check"); break }
            usleep(50_000)
        }
    }

    @Test("a database the admin owns, granted to the member: a warning that it is not the member's, and public's owner is the admin's superuser")
    func databaseOwnedByTheAdmin() throws {
        let (name, password) = try role("member")
        let database = "team_\(Self.suffix())"
        try server.psql("CREATE DATABASE \(database)", database: "wonderland")
        databases.append(database)
        try server.psql("REVOKE CONNECT, TEMPORARY ON DATABASE \(database) FROM PUBLIC", database: "wonderland")
        try server.psql("GRANT CONNECT ON DATABASE \(database) TO \(name)", database: "wonderland")
        try server.psql("GRANT CREATE ON SCHEMA public TO \(name)", database: database)
        let address = PostgresSyncAddress(user: name, host: "127.0.0.1", port: server.port, database: database, tls: .disable)
        let findings = try PostgresServerCheck.run(address: address, password: password, options: SyncServerOptions())
        #expect(problems(findings).isEmpty, "\(findings.map(\.description))")
        #expect(findings.contains { $0.severity == .warning && $0.text.contains("belongs to role wonderland, not \(name)") }, "\(findings)")
    }

    @Test("checking a database the app never synced creates nothing in it")
    func checkingCreatesNothing() throws {
        let member = try member()
        try secure(member)
        _ = try check(member)
        #expect(try server.psql("SELECT count(*) FROM pg_class WHERE relname LIKE 'wonderland%'", database: member.database) == "0\n")
    }

    @Test("another role made the store's tables first, in a public schema all may write, with a grant and a trigger: the owner is named, and stays so after the grants are fixed")
    func tablesMadeByAnotherRole() throws {
        let member = try member()
        let mallory = try role("mallory")
        try server.psql("GRANT CREATE ON SCHEMA public TO PUBLIC", database: member.database)
        try server.psql("""
            SET ROLE \(mallory.name);
            CREATE TABLE wonderland_kv (key text PRIMARY KEY, value bytea, clock bigint, device text, deleted boolean, change bigint);
            CREATE FUNCTION copy_every_change() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
            CREATE TRIGGER copy_every_change AFTER INSERT OR UPDATE ON wonderland_kv FOR EACH ROW EXECUTE FUNCTION copy_every_change();
            GRANT ALL ON wonderland_kv TO \(member.role);
            """, database: member.database)
        var found = problems(try check(member))
        #expect(found.contains { $0.contains("public.wonderland_kv (owned by \(mallory.name))") && $0.contains("Role \(mallory.name) made them first") }, "\(found)")
        #expect(found.contains { $0.contains("copy_every_change on wonderland_kv") && $0.contains(mallory.name) }, "\(found)")
        #expect(found.contains { $0.contains("tables are incomplete") }, "\(found)")

        try secure(member)
        found = problems(try check(member))
        #expect(found.contains { $0.contains("owned by \(mallory.name)") }, "\(found)")
        #expect(!found.contains { $0.contains("(PUBLIC) may") }, "\(found)")
    }

    @Test("the app's own tables, tampered with: a trigger, a rule, a grant to another role, a SECURITY DEFINER function, another wonderland_write")
    func tamperedTables() throws {
        let member = try member()
        let mallory = try role("mallory")
        try secure(member)
        try firstSync(member)
        try server.psql("""
            CREATE FUNCTION public.note_change() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
            CREATE TRIGGER note_change BEFORE UPDATE ON wonderland_kv FOR EACH ROW EXECUTE FUNCTION public.note_change();
            """, database: member.database)
        var found = problems(try check(member))
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.contains("note_change on wonderland_kv") == true, "\(found)")

        try server.psql("""
            DROP TRIGGER note_change ON wonderland_kv;
            CREATE RULE keep_limits AS ON UPDATE TO wonderland_limits DO INSTEAD NOTHING;
            GRANT SELECT ON wonderland_kv TO \(mallory.name);
            ALTER FUNCTION wonderland_write(text[], bytea[], boolean[], bigint[], text[]) SECURITY DEFINER;
            CREATE FUNCTION wonderland_write(keys text[]) RETURNS bigint LANGUAGE sql AS 'SELECT 0::bigint';
            """, database: member.database)
        found = problems(try check(member))
        #expect(found.contains { $0.contains("rule keep_limits on wonderland_limits") }, "\(found)")
        #expect(found.contains { $0.contains("\(mallory.name) has SELECT on wonderland_kv") }, "\(found)")
        #expect(found.contains { $0.contains("public.wonderland_write is SECURITY DEFINER") }, "\(found)")
        #expect(found.contains { $0.contains("2 functions named wonderland_write") }, "\(found)")
        #expect(found.contains { $0.contains("public.wonderland_write belongs to role wonderland") }, "\(found)")
    }

    @Test("a superuser's connection is warned about; another role that may act as this one is a problem")
    func powerfulRoles() throws {
        let member = try member()
        try secure(member)
        let superuser = try PostgresServerCheck.run(address: server.address(database: member.database), password: server.password, options: SyncServerOptions())
        #expect(superuser.contains { $0.severity == .warning && $0.text.contains("role wonderland is a superuser") }, "\(superuser)")

        let mallory = try role("mallory")
        try server.psql("GRANT \(member.role) TO \(mallory.name)", database: "wonderland")
        let found = problems(try check(member))
        #expect(found.contains { $0.contains("may act as \(member.role)") && $0.contains(mallory.name) }, "\(found)")
        #expect(found.contains { $0.contains("may connect to database \(member.database)") && $0.contains(mallory.name) },
                "a member of the role inherits its CONNECT: \(found)")
    }

    @Test("a wrong password or no server is an error saying so, not findings")
    func unreachable() throws {
        let member = try member()
        #expect(throws: BackendUnavailable.self) {
            try PostgresServerCheck.run(address: member.address, password: "wrong", options: SyncServerOptions())
        }
        let nowhere = PostgresSyncAddress(user: member.role, host: "127.0.0.1", port: 1, database: member.database, tls: .disable)
        #expect(throws: BackendUnavailable.self) {
            try PostgresServerCheck.run(address: nowhere, password: member.password, options: SyncServerOptions(connectTimeout: 2, queryTimeout: 2))
        }
    }

    @Test("through the sync helper the findings arrive as the audit makes them")
    func throughTheHelper() throws {
        let member = try member()
        // Secured, so the findings name no role another test makes or drops meanwhile; one
        // problem left to carry.
        try secure(member)
        try server.psql("GRANT CREATE ON SCHEMA public TO PUBLIC", database: member.database)
        let helper = SyncHelperBackend(address: member.address, password: member.password, device: DeviceIdentifier("bbbb")!)
        let findings = try helper.check()
        // The connection counts move as other tests run; every other line is the same.
        let steady = { (all: [ServerCheckFinding]) in all.filter { !$0.text.contains("room for about") } }
        #expect(steady(findings) == steady(try check(member)), "the same checks, in the same order")
        #expect(findings.contains { $0.severity == .problem && $0.text.contains("(PUBLIC) may create objects in schema public") }, "\(findings)")

        let stopped = SyncHelperBackend(address: PostgresSyncAddress(user: member.role, host: "127.0.0.1", port: 1, database: member.database),
                                        password: member.password, device: DeviceIdentifier("cccc")!,
                                        options: .init(server: SyncServerOptions(connectTimeout: 2, queryTimeout: 2)))
        #expect(throws: BackendUnavailable.self) { try stopped.check() }
    }

    @Test("check and findings round-trip through the helper's messages")
    func messagesRoundTrip() throws {
        #expect(try SyncHelperRequest(propertyList: SyncHelperRequest.check.propertyList) == .check)
        let reply = SyncHelperReply.findings([.problem("p"), .warning("w"), .ok("o"), .info("i")])
        #expect(try SyncHelperReply(propertyList: reply.propertyList) == reply)
        #expect(throws: SyncHelperFailure.self) {
            try SyncHelperReply(propertyList: .dictionary(["reply": .string("findings"),
                                                           "findings": .array([.dictionary(["severity": .string("fatal"), "text": .string("x")])])]))
        }
        #expect(SyncHelperRequest.protocolVersion == 2)
    }
}
