import CloudServer
import Foundation
import PostgresNIO

/// Whether the store's tables in this database are this user's own. Where other roles may
/// create in the schema (PostgreSQL before 15, and clusters upgraded from it), someone else can
/// make them first: then their owner reads every change, can add a trigger that runs as
/// whoever writes, or grant themselves what they like. A device finding tables it does not
/// own, with rights another role holds, or with a trigger or rule on them, uses none of it.
enum PostgresOwnership {
    static func check(_ session: PostgresSession) throws {
        let me = "(SELECT oid FROM pg_roles WHERE rolname = current_user)"
        let relations = try session.query(PostgresQuery(unsafeSQL: """
            SELECT n.name, pg_get_userbyid(c.relowner), c.relowner = \(me),
                   coalesce((SELECT string_agg(DISTINCT CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE pg_get_userbyid(a.grantee) END, ', ')
                             FROM aclexplode(c.relacl) a WHERE a.grantee <> c.relowner), ''),
                   EXISTS (SELECT 1 FROM pg_trigger t WHERE t.tgrelid = c.oid AND NOT t.tgisinternal)
                       OR EXISTS (SELECT 1 FROM pg_rewrite r WHERE r.ev_class = c.oid),
                   current_user, current_database()
            FROM unnest(ARRAY['\(PostgresSchema.relations.joined(separator: "','"))']) AS n(name)
            JOIN pg_class c ON c.oid = to_regclass(n.name)
            """))
        for row in relations {
            let (name, owner, mine, others, hooked, user, database) = try row.decode((String, String, Bool, String, Bool, String, String).self)
            if !mine {
                throw refusal("\(name) in database \(database) was made by \(owner), not \(user)", database: database)
            }
            if !others.isEmpty {
                throw refusal("\(others) hold\(others.contains(",") ? "" : "s") rights on \(name) in database \(database)", database: database)
            }
            if hooked {
                throw refusal("\(name) in database \(database) has a trigger or rule wonderland did not make", database: database)
            }
        }
        let function = try session.query(PostgresQuery(unsafeSQL: """
            SELECT pg_get_userbyid(p.proowner), p.proowner = \(me), p.prosecdef, current_user, current_database()
            FROM pg_proc p WHERE p.oid = to_regprocedure('\(PostgresSchema.writeFunction)')
            """)).first
        if let function {
            let (owner, mine, definer, user, database) = try function.decode((String, Bool, Bool, String, String).self)
            if !mine { throw refusal("wonderland_write in database \(database) was made by \(owner), not \(user)", database: database) }
            if definer { throw refusal("wonderland_write in database \(database) runs as its maker (SECURITY DEFINER)", database: database) }
        }
    }

    private static func refusal(_ finding: String, database: String) -> PostgresSetupError {
        PostgresSetupError(description: "\(finding): wonderland will not sync through it, as another role could read or change what is synced; `wonderland cloud check` tells the server's admin what to change")
    }
}
