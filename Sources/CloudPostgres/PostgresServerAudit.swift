import Cloud
import CloudServer
import Foundation
import PostgresNIO

/// What `wonderland cloud check` asks of the server: whether this database is safe to keep a
/// team member's synced store in, when other people have roles on the same server. Each check
/// is a query on the catalogs, run on a connection of its own in a read-only transaction, so
/// checking creates nothing (not even the store's tables) and changes nothing.
///
/// What it guards against: another role connecting to this database (it could LISTEN to the
/// devices' notifications, wake them with its own, take the connections they need, and see
/// the database's activity);
/// another role creating the store's tables here first, where it may create in a schema on the
/// search path, with grants, triggers or rules that read or rewrite every change; a role with
/// more power than a device needs; and passwords and data in clear text.
///
/// The catalogs are read with the search path set to pg_catalog alone: a function another role
/// made in `public` with a better-matching signature must not answer in place of the catalog's
/// own. The store's objects are looked up along the session's own search path, as the app
/// finds them.
struct PostgresServerAudit {
    let session: PostgresSession
    let address: PostgresSyncAddress

    /// The store's tables and sequence, as `PostgresSchema` makes them, and the relkind each
    /// must have.
    static let relations: [(name: String, kind: String)] = [
        ("wonderland_kv", "r"), ("wonderland_limits", "r"), ("wonderland_identity", "r"),
        ("wonderland_schema_version", "r"), ("wonderland_kv_changes", "S"),
    ]
    static let function = "wonderland_write"

    /// At most this many role names in one finding; the rest are counted.
    static let namesShown = 8

    /// Connects to `address`, runs every check, and closes; throws `BackendUnavailable` (in the
    /// user's words) when the server cannot be reached or refuses the login.
    static func check(address: PostgresSyncAddress, password: String?, options: SyncServerOptions) throws -> [ServerCheckFinding] {
        let session: PostgresSession
        do {
            session = try PostgresSession.connect(to: address, password: password,
                                                  connectTimeout: options.connectTimeout, queryTimeout: options.queryTimeout)
        } catch {
            throw BackendUnavailable(reason: PostgresErrorText.describe(error, address: address))
        }
        defer { session.close() }
        do {
            return try PostgresServerAudit(session: session, address: address).findings()
        } catch {
            throw BackendUnavailable(reason: PostgresErrorText.describe(error, address: address))
        }
    }

    /// Every finding, in the order the checks run.
    func findings() throws -> [ServerCheckFinding] {
        try session.query("BEGIN READ ONLY")
        do {
            // The schemas the app's unqualified names resolve in, before the path is narrowed.
            let path = try session.query("SELECT pg_catalog.current_schemas(false)::text[], pg_catalog.current_setting('search_path')").first
            let (schemas, pathText) = try path?.decode(([String], String).self) ?? ([], "")
            try session.query("SET LOCAL search_path = pg_catalog, pg_temp")
            var found: [ServerCheckFinding] = []
            let me = try role()
            found += roleFindings(me)
            found += try databaseFindings(me)
            found += try otherRoleFindings(me)
            found += try schemaFindings(schemas: schemas, pathText: pathText, me: me)
            let objects = try storeObjects(schemas: schemas)
            found += objectFindings(objects, me: me)
            let ids = objects.map(\.id)
            if !ids.isEmpty {
                found += try grantFindings(ids)
                found += try triggerAndRuleFindings(ids)
            }
            found += try functionFindings(schemas: schemas, me: me)
            found += try versionFindings(objects, me: me)
            found += try transportFindings()
            found += try connectionFindings(me)
            try session.query("COMMIT")
            return found
        } catch {
            _ = try? session.query("ROLLBACK")
            throw error
        }
    }

    // MARK: the role this device connects as

    struct Role {
        let name: String
        let database: String
        let superuser: Bool
        let createRole: Bool
        let createDatabase: Bool
        let replication: Bool
        let bypassRLS: Bool
        let connectionLimit: Int
    }

    func role() throws -> Role {
        let row = try session.query("""
            SELECT current_user::text, current_database()::text, r.rolsuper, r.rolcreaterole, r.rolcreatedb,
                   r.rolreplication, r.rolbypassrls, r.rolconnlimit
            FROM pg_roles r WHERE r.rolname = current_user
            """).first
        guard let row else { throw PostgresSetupError(description: "the server does not know the role this connection uses") }
        let (name, database, superuser, createRole, createDatabase, replication, bypass, limit) =
            try row.decode((String, String, Bool, Bool, Bool, Bool, Bool, Int32).self)
        return Role(name: name, database: database, superuser: superuser, createRole: createRole, createDatabase: createDatabase,
                    replication: replication, bypassRLS: bypass, connectionLimit: Int(limit))
    }

    func roleFindings(_ me: Role) -> [ServerCheckFinding] {
        var powers: [String] = []
        // A superuser's other attributes change nothing: it may do everything already.
        if me.superuser { powers.append("a superuser") }
        if !me.superuser && me.createRole { powers.append("may create roles (CREATEROLE)") }
        if !me.superuser && me.createDatabase { powers.append("may create databases (CREATEDB)") }
        if !me.superuser && me.replication { powers.append("may replicate the whole server (REPLICATION)") }
        if !me.superuser && me.bypassRLS { powers.append("bypasses row security (BYPASSRLS)") }
        guard !powers.isEmpty else {
            return [.ok("role \(me.name) is an ordinary role (not a superuser, no CREATEROLE or CREATEDB)")]
        }
        return [.warning("role \(me.name) is \(list(powers)): a device's role should be an ordinary one, so a stolen password opens only its own database (ALTER ROLE \(identifier(me.name)) NOSUPERUSER NOCREATEROLE NOCREATEDB)")]
    }

    // MARK: who may connect

    func databaseFindings(_ me: Role) throws -> [ServerCheckFinding] {
        let row = try session.query("""
            SELECT d.datacl IS NULL,
                   EXISTS (SELECT 1 FROM aclexplode(d.datacl) a WHERE a.grantee = 0 AND a.privilege_type = 'CONNECT'),
                   EXISTS (SELECT 1 FROM aclexplode(d.datacl) a WHERE a.grantee = 0 AND a.privilege_type = 'CREATE'),
                   pg_get_userbyid(d.datdba)::text, d.datconnlimit
            FROM pg_database d WHERE d.datname = current_database()
            """).first
        guard let (isDefault, publicConnects, publicCreates, owner, _) = try row?.decode((Bool, Bool, Bool, String, Int32).self) else {
            throw PostgresSetupError(description: "the server does not list the database this connection uses")
        }
        let database = identifier(me.database)
        var found: [ServerCheckFinding] = []
        if isDefault || publicConnects {
            let why = isDefault ? " (its privileges are the default, which lets PUBLIC connect)" : ""
            found.append(.problem("every role on this server (PUBLIC) may connect to database \(me.database)\(why): another user could take the connections your devices need, hear when they write, wake them with notifications of its own, and create temporary tables. Fix: REVOKE CONNECT, TEMPORARY ON DATABASE \(database) FROM PUBLIC; GRANT CONNECT ON DATABASE \(database) TO \(identifier(me.name))"))
        } else {
            found.append(.ok("PUBLIC may not connect to database \(me.database)"))
        }
        if publicCreates {
            found.append(.problem("every role (PUBLIC) may create schemas in database \(me.database), and so put objects ahead of yours on the search path. Fix: REVOKE CREATE ON DATABASE \(database) FROM PUBLIC"))
        }
        if owner != me.name {
            found.append(.warning("database \(me.database) belongs to role \(owner), not \(me.name): its owner may change who connects. Fix: ALTER DATABASE \(database) OWNER TO \(identifier(me.name))"))
        }
        return found
    }

    func otherRoleFindings(_ me: Role) throws -> [ServerCheckFinding] {
        // Login roles only: a role that cannot log in connects through one that can, which is
        // listed itself. Superusers may do anything anyway, and are the admin's.
        let rows = try session.query("""
            SELECT r.rolname::text, has_database_privilege(r.oid, current_database(), 'CONNECT'),
                   pg_has_role(r.oid, (SELECT oid FROM pg_roles WHERE rolname = current_user), 'MEMBER')
            FROM pg_roles r
            WHERE r.rolcanlogin AND NOT r.rolsuper AND r.rolname <> current_user
            ORDER BY r.rolname
            """)
        var connecting: [String] = [], members: [String] = []
        for row in rows {
            let (name, connects, member) = try row.decode((String, Bool, Bool).self)
            if connects { connecting.append(name) }
            if member { members.append(name) }
        }
        var found: [ServerCheckFinding] = []
        if connecting.isEmpty {
            found.append(.ok("no other login role may connect to database \(me.database) (superusers aside)"))
        } else {
            found.append(.problem("\(count(connecting.count, "other role")) may connect to database \(me.database): \(names(connecting)). Each should have a database of its own; REVOKE CONNECT ON DATABASE \(identifier(me.database)) FROM PUBLIC, and from any role granted it"))
        }
        if !members.isEmpty {
            found.append(.problem("\(count(members.count, "other role")) may act as \(me.name) (members of it): \(names(members)). Fix: REVOKE \(identifier(me.name)) FROM each"))
        }
        return found
    }

    // MARK: where objects can be made

    func schemaFindings(schemas: [String], pathText: String, me: Role) throws -> [ServerCheckFinding] {
        let rows = try session.query("""
            SELECT n.nspname::text,
                   EXISTS (SELECT 1 FROM aclexplode(n.nspacl) a WHERE a.grantee = 0 AND a.privilege_type = 'CREATE'),
                   coalesce((SELECT string_agg(r.rolname::text, ',' ORDER BY r.rolname) FROM pg_roles r
                             WHERE r.rolcanlogin AND NOT r.rolsuper AND r.rolname <> current_user
                               AND has_schema_privilege(r.oid, n.oid, 'CREATE')), ''),
                   pg_get_userbyid(o.owner)::text,
                   pg_has_role(current_user, o.owner, 'USAGE') OR (SELECT rolsuper FROM pg_roles WHERE oid = o.owner)
            FROM pg_namespace n,
                 -- PostgreSQL 15's public schema belongs to pg_database_owner: the database's owner.
                 LATERAL (SELECT CASE WHEN n.nspowner = (SELECT oid FROM pg_roles WHERE rolname = 'pg_database_owner')
                                      THEN (SELECT datdba FROM pg_database WHERE datname = current_database())
                                      ELSE n.nspowner END AS owner) o
            WHERE n.nspname::text = ANY (\(schemas)::text[]) OR n.nspname = 'public'
            ORDER BY array_position(\(schemas)::text[], n.nspname::text) NULLS LAST
            """)
        var found: [ServerCheckFinding] = []
        for row in rows {
            let (schema, publicCreates, creators, owner, ownerTrusted) = try row.decode((String, Bool, String, String, Bool).self)
            let onPath = schemas.contains(schema)
            let place = onPath ? "schema \(schema) (on the search path, \(pathText))" : "schema \(schema)"
            if publicCreates {
                found.append(.problem("every role (PUBLIC) may create objects in \(place): another user could make the store's tables there before your first sync, with triggers or grants of their own. PostgreSQL before 15 allowed it, and upgraded clusters keep it. Fix: REVOKE CREATE ON SCHEMA \(identifier(schema)) FROM PUBLIC"))
            } else if !creators.isEmpty {
                let list = creators.split(separator: ",").map(String.init)
                found.append(.problem("\(count(list.count, "other role")) may create objects in \(place): \(names(list)). Fix: REVOKE CREATE ON SCHEMA \(identifier(schema)) FROM each"))
            } else {
                found.append(.ok("only \(me.name) (and superusers) may create objects in \(place)"))
            }
            if !ownerTrusted {
                found.append(.problem("\(place) belongs to role \(owner), who may drop or rename what is in it. Fix: ALTER SCHEMA \(identifier(schema)) OWNER TO \(identifier(me.name))"))
            }
        }
        return found
    }

    // MARK: the store's own objects

    struct StoreObject {
        let id: Int64
        let name: String
        let schema: String
        let kind: String
        let owner: String
        var qualifiedName: String { "\(schema).\(name)" }
    }

    /// The store's tables and sequence as the app's names resolve: the first schema on the
    /// search path that holds each.
    func storeObjects(schemas: [String]) throws -> [StoreObject] {
        let names = Self.relations.map(\.name)
        let rows = try session.query("""
            SELECT DISTINCT ON (c.relname) c.oid::bigint, c.relname::text, n.nspname::text, c.relkind::text,
                   pg_get_userbyid(c.relowner)::text
            FROM unnest(\(schemas)::text[]) WITH ORDINALITY AS s(name, position)
            JOIN pg_namespace n ON n.nspname::text = s.name
            JOIN pg_class c ON c.relnamespace = n.oid
            WHERE c.relname::text = ANY (\(names)::text[])
            ORDER BY c.relname, s.position
            """)
        return try rows.map { row in
            let (id, name, schema, kind, owner) = try row.decode((Int64, String, String, String, String).self)
            return StoreObject(id: id, name: name, schema: schema, kind: kind, owner: owner)
        }
    }

    func objectFindings(_ objects: [StoreObject], me: Role) -> [ServerCheckFinding] {
        guard !objects.isEmpty else {
            return [.info("the store's tables are not made yet: the first sync makes them, owned by \(me.name)")]
        }
        var found: [ServerCheckFinding] = []
        let missing = Self.relations.map(\.name).filter { name in !objects.contains { $0.name == name } }
        if !missing.isEmpty {
            found.append(.problem("the store's tables are incomplete: \(list(missing)) missing, so the app cannot set them up or use them. Someone made the others by hand, or dropped these"))
        }
        var strangers: [String] = []
        for object in objects {
            let expected = Self.relations.first { $0.name == object.name }?.kind
            if object.kind != expected {
                found.append(.problem("\(object.qualifiedName) is \(kindName(object.kind)), not \(kindName(expected ?? "r")) as the app makes it"))
            }
            if object.owner != me.name {
                strangers.append("\(object.qualifiedName) (owned by \(object.owner))")
            }
        }
        if strangers.isEmpty {
            found.append(.ok("the store's tables and sequence belong to \(me.name)"))
        } else {
            let owners = Set(objects.filter { $0.owner != me.name }.map(\.owner)).sorted()
            found.append(.problem("the store's tables are not \(me.name)'s: \(list(strangers)). Role \(list(owners)) made them first and can read, change or watch every change. Drop them (as their owner or a superuser) and let the app make them again"))
        }
        return found
    }

    func grantFindings(_ ids: [Int64]) throws -> [ServerCheckFinding] {
        let rows = try session.query("""
            SELECT c.relname::text,
                   CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE pg_get_userbyid(a.grantee)::text END,
                   string_agg(DISTINCT a.privilege_type, ', ')
            FROM pg_class c, aclexplode(c.relacl) a
            WHERE c.oid::bigint = ANY (\(ids)::bigint[]) AND a.grantee <> c.relowner
              AND a.grantee <> (SELECT oid FROM pg_roles WHERE rolname = current_user)
            GROUP BY 1, 2 ORDER BY 1, 2
            """)
        var grants: [String] = []
        for row in rows {
            let (table, grantee, privileges) = try row.decode((String, String, String).self)
            grants.append("\(grantee) has \(privileges) on \(table)")
        }
        let columns = try session.query("""
            SELECT count(*) FROM pg_attribute t, aclexplode(t.attacl) a
            WHERE t.attrelid::bigint = ANY (\(ids)::bigint[]) AND a.grantee <> (SELECT relowner FROM pg_class WHERE oid = t.attrelid)
              AND a.grantee <> (SELECT oid FROM pg_roles WHERE rolname = current_user)
            """).first.map { try $0.decode(Int64.self) } ?? 0
        if columns > 0 { grants.append("\(count(Int(columns), "column privilege")) granted to others") }
        guard !grants.isEmpty else { return [.ok("no other role holds privileges on the store's tables")] }
        return [.problem("other roles hold privileges on the store's tables: \(list(grants)). Fix: REVOKE ALL ON wonderland_kv, wonderland_limits, wonderland_identity, wonderland_schema_version, wonderland_kv_changes FROM each")]
    }

    func triggerAndRuleFindings(_ ids: [Int64]) throws -> [ServerCheckFinding] {
        var found: [ServerCheckFinding] = []
        let triggers = try session.query("""
            SELECT c.relname::text, t.tgname::text, pg_get_userbyid(p.proowner)::text
            FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid
            WHERE NOT t.tgisinternal AND c.oid::bigint = ANY (\(ids)::bigint[])
            ORDER BY 1, 2
            """).map { row -> String in
                let (table, trigger, owner) = try row.decode((String, String, String).self)
                return "\(trigger) on \(table) (its function owned by \(owner))"
            }
        let rules = try session.query("""
            SELECT c.relname::text, r.rulename::text
            FROM pg_rewrite r JOIN pg_class c ON c.oid = r.ev_class
            WHERE r.rulename <> '_RETURN' AND c.oid::bigint = ANY (\(ids)::bigint[])
            ORDER BY 1, 2
            """).map { row -> String in
                let (table, rule) = try row.decode((String, String).self)
                return "rule \(rule) on \(table)"
            }
        let policies = try session.query("""
            SELECT c.relname::text FROM pg_class c
            WHERE (c.relrowsecurity OR EXISTS (SELECT 1 FROM pg_policy p WHERE p.polrelid = c.oid)) AND c.oid::bigint = ANY (\(ids)::bigint[])
            ORDER BY 1
            """).map { try $0.decode(String.self) }
        if !triggers.isEmpty {
            found.append(.problem("the app makes no triggers, but the store's tables have \(count(triggers.count, "trigger")): \(list(triggers)). A trigger runs with every write and can copy or change it. Drop them"))
        }
        if !rules.isEmpty {
            found.append(.problem("the app makes no rules, but the store's tables have \(count(rules.count, "rule")): \(list(rules)). A rule can rewrite or copy every write. Drop them"))
        }
        if !policies.isEmpty {
            found.append(.problem("row security is set up on \(list(policies)), which the app never does; its policies run with every read. Drop them (ALTER TABLE ... DISABLE ROW LEVEL SECURITY)"))
        }
        if found.isEmpty { found.append(.ok("no triggers, rules or row security on the store's tables")) }
        return found
    }

    func functionFindings(schemas: [String], me: Role) throws -> [ServerCheckFinding] {
        let rows = try session.query("""
            SELECT n.nspname::text, pg_get_userbyid(p.proowner)::text, p.prosecdef, pg_get_function_identity_arguments(p.oid)
            FROM unnest(\(schemas)::text[]) WITH ORDINALITY AS s(name, position)
            JOIN pg_namespace n ON n.nspname::text = s.name
            JOIN pg_proc p ON p.pronamespace = n.oid
            WHERE p.proname::text = \(Self.function)
            ORDER BY s.position, p.oid
            """)
        var found: [ServerCheckFinding] = []
        var functions: [(schema: String, owner: String, definer: Bool, arguments: String)] = []
        for row in rows {
            let (schema, owner, definer, arguments) = try row.decode((String, String, Bool, String).self)
            functions.append((schema, owner, definer, arguments))
        }
        guard !functions.isEmpty else { return [] }
        if functions.count > 1 {
            let shown = functions.map { "\($0.schema).\(Self.function)(\($0.arguments))" }
            found.append(.problem("there are \(functions.count) functions named \(Self.function) on the search path, where the app makes one: \(list(shown)). Another could answer the app's writes in place of its own"))
        }
        for function in functions {
            let name = "\(function.schema).\(Self.function)"
            if function.owner != me.name {
                found.append(.problem("\(name) belongs to role \(function.owner), not \(me.name): its owner can change what every write does"))
            }
            if function.definer {
                found.append(.problem("\(name) is SECURITY DEFINER: it runs with its owner's (\(function.owner)'s) privileges, not the caller's, as the app never makes it. Fix: ALTER FUNCTION \(name)(\(function.arguments)) SECURITY INVOKER"))
            }
        }
        if found.isEmpty { found.append(.ok("\(Self.function) belongs to \(me.name) and runs with the caller's privileges")) }
        return found
    }

    func versionFindings(_ objects: [StoreObject], me: Role) throws -> [ServerCheckFinding] {
        guard let table = objects.first(where: { $0.name == "wonderland_schema_version" }) else { return [] }
        // Only a plain table of this role's is read: another role's could be a view, or carry a
        // policy, whose functions would run here as this role.
        guard table.owner == me.name, table.kind == "r" else {
            return [.info("the schema version is not read: \(table.qualifiedName) is not \(me.name)'s own table")]
        }
        let sql = "SELECT coalesce(max(version), 0) FROM \(identifier(table.schema)).\(identifier(table.name))"
        let version = try session.query(PostgresQuery(unsafeSQL: sql)).first.map { try $0.decode(Int.self) } ?? 0
        if version > PostgresSchema.currentVersion {
            return [.warning("the store's tables are version \(version), newer than this app knows (\(PostgresSchema.currentVersion)): this machine will not sync until wonderland is updated")]
        }
        if version < PostgresSchema.currentVersion {
            return [.info("the store's tables are version \(version); this app brings them to version \(PostgresSchema.currentVersion) at its next sync")]
        }
        return [.info("the store's tables are version \(version), the one this app uses")]
    }

    // MARK: the server's settings

    func transportFindings() throws -> [ServerCheckFinding] {
        let row = try session.query("""
            SELECT current_setting('ssl'), current_setting('password_encryption'),
                   coalesce((SELECT s.ssl FROM pg_stat_ssl s WHERE s.pid = pg_backend_pid()), false)
            """).first
        guard let (ssl, encryption, encrypted) = try row?.decode((String, String, Bool).self) else { return [] }
        var found: [ServerCheckFinding] = []
        if ssl != "on" {
            found.append(.warning("the server does not offer TLS (ssl is \(ssl)): passwords and data travel in clear text. Turn on ssl in postgresql.conf with a certificate, then connect with sslmode=verify-full"))
        } else if !encrypted {
            found.append(.warning("the server offers TLS, but this connection does not use it (sslmode=\(address.tls.rawValue)): passwords and data travel in clear text. Add ?sslmode=verify-full&sslrootcert=PATH to the address"))
        } else if address.tls == .require {
            found.append(.warning("this connection is encrypted, but sslmode=require does not check whose certificate it is; verify-full with sslrootcert does"))
        } else {
            found.append(.ok("this connection is encrypted and the server's certificate checked (sslmode=\(address.tls.rawValue))"))
        }
        if encryption == "md5" {
            found.append(.warning("new passwords are stored as MD5 (password_encryption = md5), which is weak and deprecated. Set password_encryption = 'scram-sha-256', then set each password again"))
        } else {
            found.append(.ok("new passwords are stored as \(encryption)"))
        }
        return found
    }

    func connectionFindings(_ me: Role) throws -> [ServerCheckFinding] {
        let row = try session.query("""
            SELECT current_setting('max_connections')::int,
                   current_setting('superuser_reserved_connections')::int + coalesce(current_setting('reserved_connections', true)::int, 0),
                   (SELECT count(*)::int FROM pg_stat_activity WHERE backend_type = 'client backend'),
                   (SELECT count(*)::int FROM pg_stat_activity WHERE backend_type = 'client backend' AND usename = current_user),
                   (SELECT datconnlimit FROM pg_database WHERE datname = current_database())
            """).first
        guard let (maximum, reserved, inUse, mine, databaseLimit) = try row?.decode((Int32, Int32, Int32, Int32, Int32).self) else { return [] }
        let room = Int(maximum) - Int(reserved) - Int(inUse)
        var text = "the server takes \(maximum) connections (\(reserved) kept for superusers), \(inUse) in use (\(mine) of them \(me.name)'s, this check's included): room for about \(max(room, 0)) more devices, each holding one connection while it runs"
        var limits: [String] = []
        if me.connectionLimit >= 0 { limits.append("role \(me.name) may hold \(me.connectionLimit)") }
        if databaseLimit >= 0 { limits.append("database \(me.database) takes \(databaseLimit)") }
        let limit = [me.connectionLimit, Int(databaseLimit)].filter { $0 >= 0 }.min()
        if let limit { text += "; \(list(limits)), so at most \(limit) of your devices at once" }
        if room < 2 {
            return [.warning(text + ". Raise max_connections, or put a pooler (PgBouncer in transaction mode) in front and add ?wait=poll to the address")]
        }
        return [.info(text)]
    }

    // MARK: words

    func identifier(_ name: String) -> String {
        let plain = name.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") } && !(name.first?.isNumber ?? true)
        return plain ? name : "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    func names(_ roles: [String]) -> String {
        let shown = roles.prefix(Self.namesShown).joined(separator: ", ")
        return roles.count > Self.namesShown ? shown + " and \(roles.count - Self.namesShown) more" : shown
    }

    func list(_ items: [String]) -> String {
        switch items.count {
        case 0: return ""
        case 1: return items[0]
        default: return items.dropLast().joined(separator: ", ") + " and " + items.last!
        }
    }

    func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }

    func kindName(_ kind: String) -> String {
        switch kind {
        case "r": "a table"
        case "S": "a sequence"
        case "v": "a view"
        case "m": "a materialized view"
        case "f": "a foreign table"
        case "p": "a partitioned table"
        default: "an object of kind \(kind)"
        }
    }
}

/// The check as the helper runs it: the one entry point outside this module.
public enum PostgresServerCheck {
    public static func run(address: PostgresSyncAddress, password: String?, options: SyncServerOptions) throws -> [ServerCheckFinding] {
        try PostgresServerAudit.check(address: address, password: password, options: options)
    }
}
