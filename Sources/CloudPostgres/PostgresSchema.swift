import Cloud
import Foundation
import PostgresNIO

/// The tables the synced store keeps on the server, created and migrated by the app itself:
/// `wonderland_schema_version` records which migrations ran, one row each. A server whose
/// schema is newer than this app knows is refused (an older app must not write a layout it
/// does not understand).
///
/// `wonderland_kv` holds one row per key: the winning change (the value as a binary property
/// list, null when deleted), its hybrid clock and device, and `change`, the server's order of
/// changes, which each device reads onwards from to catch up.
enum PostgresSchema {
    static let channel = "wonderland_kv"

    /// Each migration's statements (one per string: the extended protocol takes one at a
    /// time), version 1 first. Never edit a shipped one; add another.
    static let migrations: [[String]] = [[
        #"""
        CREATE TABLE wonderland_kv (
            key text COLLATE "C" PRIMARY KEY,
            value bytea,
            clock bigint NOT NULL,
            device text COLLATE "C" NOT NULL,
            deleted boolean NOT NULL,
            change bigint NOT NULL,
            CONSTRAINT wonderland_kv_removal_has_no_value CHECK (deleted = (value IS NULL))
        )
        """#,
        "CREATE INDEX wonderland_kv_by_change ON wonderland_kv (change)",
        "CREATE SEQUENCE wonderland_kv_changes",
        // Apple's limits for NSUbiquitousKeyValueStore; one row.
        #"""
        CREATE TABLE wonderland_limits (
            only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
            max_total_bytes bigint NOT NULL,
            max_keys bigint NOT NULL,
            max_key_bytes integer NOT NULL
        )
        """#,
        "INSERT INTO wonderland_limits VALUES (true, 1048576, 1024, 64)",
        // Which database this is: a device that read up to change N of another database (one
        // restored or made anew at the same address) must read this one from the start.
        "CREATE TABLE wonderland_identity (only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row), id uuid NOT NULL)",
        "INSERT INTO wonderland_identity VALUES (true, gen_random_uuid())",
        #"""
        -- One device's batch, in one transaction: each change is kept only where it wins last
        -- writer wins (the clock, then the device, then for equal stamps a value over a removal
        -- and the larger bytes), exactly as the app's own merge decides; then the limits are
        -- checked on the result, and a batch that breaks one is refused whole.
        CREATE FUNCTION wonderland_write(keys text[], payloads bytea[], removals boolean[], clocks bigint[], devices text[])
        RETURNS bigint LANGUAGE plpgsql AS $$
        DECLARE
            limits wonderland_limits%ROWTYPE;
            keys_before bigint; bytes_before bigint; keys_after bigint; bytes_after bigint;
            changed bigint;
            long_key text;
        BEGIN
            -- Writers take turns: change numbers then follow commit order, so a reader that has
            -- seen change N has seen every change before it, and the limits see a settled table.
            PERFORM pg_advisory_xact_lock(hashtext('wonderland_kv'));
            SELECT * INTO limits FROM wonderland_limits;
            SELECT k INTO long_key FROM unnest(keys) AS k
                WHERE octet_length(k) = 0 OR octet_length(k) > limits.max_key_bytes LIMIT 1;
            IF long_key IS NOT NULL THEN
                RAISE EXCEPTION USING ERRCODE = 'WLK01', MESSAGE = 'key too long',
                    DETAIL = octet_length(long_key) || ' ' || limits.max_key_bytes || ' ' || long_key;
            END IF;
            SELECT count(*), coalesce(sum(octet_length(key) + octet_length(value)), 0)
                INTO keys_before, bytes_before FROM wonderland_kv WHERE NOT deleted;

            INSERT INTO wonderland_kv AS kv (key, value, clock, device, deleted, change)
            SELECT k, CASE WHEN r THEN NULL ELSE p END, c, d, r, nextval('wonderland_kv_changes')
                FROM unnest(keys, payloads, removals, clocks, devices) AS batch(k, p, r, c, d)
            ON CONFLICT (key) DO UPDATE
                SET value = excluded.value, clock = excluded.clock, device = excluded.device,
                    deleted = excluded.deleted, change = excluded.change
                WHERE (excluded.clock, excluded.device) > (kv.clock, kv.device)
                   OR ((excluded.clock, excluded.device) = (kv.clock, kv.device)
                       AND NOT excluded.deleted AND (kv.deleted OR excluded.value > kv.value));
            GET DIAGNOSTICS changed = ROW_COUNT;

            SELECT count(*), coalesce(sum(octet_length(key) + octet_length(value)), 0)
                INTO keys_after, bytes_after FROM wonderland_kv WHERE NOT deleted;
            -- As on the device: changes from others may have pushed the store over already; a
            -- batch that does not make it worse is still taken.
            IF keys_after > limits.max_keys AND keys_after > keys_before THEN
                RAISE EXCEPTION USING ERRCODE = 'WLQ01', MESSAGE = 'too many keys',
                    DETAIL = keys_after || ' ' || limits.max_keys;
            END IF;
            IF bytes_after > limits.max_total_bytes AND bytes_after > bytes_before THEN
                RAISE EXCEPTION USING ERRCODE = 'WLQ02', MESSAGE = 'too large',
                    DETAIL = bytes_after || ' ' || limits.max_total_bytes;
            END IF;
            IF changed > 0 THEN
                PERFORM pg_notify('wonderland_kv', devices[1]);
            END IF;
            RETURN changed;
        END $$
        """#,
    ]]

    /// The write function as this app writes it. Replacing a function changes no table, so it is
    /// not a migration: the layout version stays, and a device of an older version goes on
    /// syncing (it calls the same function by the same name, and gets the safer one). A
    /// database whose function is not exactly this one gets it, with the grants.
    ///
    /// Writers take turns on the limits row, which only roles with rights on the table can lock
    /// (any role can take an advisory lock, and so stall every writer); the lock wait is bounded
    /// here as well as by the session, since a pooler passes no session settings. The
    /// notification says only that something changed: listeners learn nothing of who.
    static let writeFunctionBody = #"""

        DECLARE
            limits wonderland_limits%ROWTYPE;
            keys_before bigint; bytes_before bigint; keys_after bigint; bytes_after bigint;
            changed bigint;
            long_key text;
        BEGIN
            SELECT * INTO limits FROM wonderland_limits FOR UPDATE;
            SELECT k INTO long_key FROM unnest(keys) AS k
                WHERE octet_length(k) = 0 OR octet_length(k) > limits.max_key_bytes LIMIT 1;
            IF long_key IS NOT NULL THEN
                RAISE EXCEPTION USING ERRCODE = 'WLK01', MESSAGE = 'key too long',
                    DETAIL = octet_length(long_key) || ' ' || limits.max_key_bytes || ' ' || long_key;
            END IF;
            SELECT count(*), coalesce(sum(octet_length(key) + octet_length(value)), 0)
                INTO keys_before, bytes_before FROM wonderland_kv WHERE NOT deleted;

            INSERT INTO wonderland_kv AS kv (key, value, clock, device, deleted, change)
            SELECT k, CASE WHEN r THEN NULL ELSE p END, c, d, r, nextval('wonderland_kv_changes')
                FROM unnest(keys, payloads, removals, clocks, devices) AS batch(k, p, r, c, d)
            ON CONFLICT (key) DO UPDATE
                SET value = excluded.value, clock = excluded.clock, device = excluded.device,
                    deleted = excluded.deleted, change = excluded.change
                WHERE (excluded.clock, excluded.device) > (kv.clock, kv.device)
                   OR ((excluded.clock, excluded.device) = (kv.clock, kv.device)
                       AND NOT excluded.deleted AND (kv.deleted OR excluded.value > kv.value));
            GET DIAGNOSTICS changed = ROW_COUNT;

            SELECT count(*), coalesce(sum(octet_length(key) + octet_length(value)), 0)
                INTO keys_after, bytes_after FROM wonderland_kv WHERE NOT deleted;
            IF keys_after > limits.max_keys AND keys_after > keys_before THEN
                RAISE EXCEPTION USING ERRCODE = 'WLQ01', MESSAGE = 'too many keys',
                    DETAIL = keys_after || ' ' || limits.max_keys;
            END IF;
            IF bytes_after > limits.max_total_bytes AND bytes_after > bytes_before THEN
                RAISE EXCEPTION USING ERRCODE = 'WLQ02', MESSAGE = 'too large',
                    DETAIL = bytes_after || ' ' || limits.max_total_bytes;
            END IF;
            IF changed > 0 THEN
                PERFORM pg_notify('wonderland_kv', '');
            END IF;
            RETURN changed;
        END
        """#

    static var writeFunctionStatements: [String] {
        ["CREATE OR REPLACE FUNCTION wonderland_write(keys text[], payloads bytea[], removals boolean[], clocks bigint[], devices text[]) "
            + "RETURNS bigint LANGUAGE plpgsql SET lock_timeout = '4s' AS $wonderland$" + writeFunctionBody + "$wonderland$",
         // Nobody else gets to call it, whatever the schema's defaults.
         "REVOKE ALL ON FUNCTION \(writeFunction) FROM PUBLIC"]
    }

    static var currentVersion: Int { migrations.count }

    /// What the store's objects are called, as `to_regclass` finds them on the search path.
    static let relations = ["wonderland_schema_version", "wonderland_kv", "wonderland_kv_changes", "wonderland_limits", "wonderland_identity"]
    static let writeFunction = "wonderland_write(text[], bytea[], boolean[], bigint[], text[])"

    /// Brings the database up to `currentVersion`, after checking that what is there is this
    /// user's. A database already up to date costs two reads and takes no lock. Otherwise one
    /// transaction migrates it, holding the version table (which only its owner can lock: any
    /// role can take an advisory lock, and would so block every device's connect). Two devices
    /// making the tables at once collide on the catalog; the loser finds them made and retries.
    static func migrate(_ session: PostgresSession) throws {
        try PostgresOwnership.check(session)
        if try installedVersion(session) == currentVersion, try writeFunctionIsCurrent(session) { return }
        do {
            try migrateLocked(session)
        } catch let error as PSQLError where ["23505", "42P07", "42710"].contains(error.serverInfo?[.sqlState] ?? "") {
            try PostgresOwnership.check(session)
            try migrateLocked(session)
        }
    }

    /// The version recorded, 0 when there is no version table; throws for one newer than this
    /// app knows.
    private static func installedVersion(_ session: PostgresSession) throws -> Int {
        let present = try session.query("SELECT to_regclass('wonderland_schema_version') IS NOT NULL").first?.decode(Bool.self) ?? false
        guard present else { return 0 }
        let version = try session.query("SELECT coalesce(max(version), 0) FROM wonderland_schema_version").first?.decode(Int.self) ?? 0
        guard version <= currentVersion else {
            throw PostgresSetupError(description: "the server's tables are version \(version), newer than this app knows (\(currentVersion)); update wonderland on this machine")
        }
        return version
    }

    private static func writeFunctionIsCurrent(_ session: PostgresSession) throws -> Bool {
        let rows = try session.query("SELECT prosrc = \(writeFunctionBody) FROM pg_proc WHERE oid = to_regprocedure(\(writeFunction))")
        return try rows.first?.decode(Bool.self) ?? false
    }

    private static func migrateLocked(_ session: PostgresSession) throws {
        try session.query("BEGIN")
        do {
            try session.query("""
                CREATE TABLE IF NOT EXISTS wonderland_schema_version (
                    version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())
                """)
            try session.query("LOCK TABLE wonderland_schema_version IN EXCLUSIVE MODE")
            let version = try installedVersion(session)
            for next in version ..< currentVersion {
                for statement in migrations[next] { try session.query(PostgresQuery(unsafeSQL: statement)) }
                try session.query("INSERT INTO wonderland_schema_version (version) VALUES (\(next + 1))")
            }
            if try !writeFunctionIsCurrent(session) {
                for statement in writeFunctionStatements { try session.query(PostgresQuery(unsafeSQL: statement)) }
            }
            try session.query("COMMIT")
        } catch {
            _ = try? session.query("ROLLBACK")
            throw error
        }
    }
}
