import FileSafety
import FoundationEssentials
import Platform
#if canImport(Glibc)
import Glibc
#endif

/// Finds the password for a server address the way libpq does, so a user's existing set-up
/// works: one written in the address itself (only WONDERLAND_SYNC_URL may carry one), then
/// PGPASSWORD, then the password file (PGPASSFILE, or ~/.pgpass), whose lines are
/// `host:port:database:user:password` with `*` matching anything and `\:` / `\\` escaped.
/// The password is only ever held in memory; nothing here writes or prints it.
public enum PostgresPassword {
    public struct Lookup: Sendable, Equatable {
        public var password: String?
        /// Where it came from, for `cloud status` ("PGPASSWORD", "~/.pgpass line 3"); never the
        /// password.
        public var source: String?
        /// Something the user should hear (a password file anyone may read is ignored, as libpq
        /// does).
        public var warning: String?
    }

    public static func lookup(for address: PostgresSyncAddress,
                              environment: [String: String] = ProcessInfo.processInfo.environment) -> Lookup {
        if let inline = address.inlinePassword, !inline.isEmpty {
            return Lookup(password: inline, source: "the address")
        }
        if let password = environment["PGPASSWORD"], !password.isEmpty {
            return Lookup(password: password, source: "PGPASSWORD")
        }
        let path: String
        if let file = environment["PGPASSFILE"], !file.isEmpty {
            path = file
        } else {
            path = UserFolders(environment: environment).home + "/.pgpass"
        }
        var lookup = Lookup()
        var status = stat()
        guard stat(path, &status) == 0 else { return lookup }
        if status.st_mode & 0o077 != 0 {
            lookup.warning = "\(path) may be read by others, so it is ignored (chmod 600 \(path))"
            return lookup
        }
        do {
            let text = String(decoding: try BoundedFile.read(path: path, limit: .passwordFile), as: UTF8.self)
            if let (password, line) = match(in: text, address: address) {
                return Lookup(password: password, source: "\(path) line \(line)")
            }
        } catch {
            // A FIFO in its place would hang every start; a huge file is no password file.
            lookup.warning = "\(path) \(error.predicate), so it is ignored"
        }
        return lookup
    }

    /// The first matching line's password and its line number.
    static func match(in text: String, address: PostgresSyncAddress) -> (String, Int)? {
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.hasSuffix("\r") ? line.dropLast() : line
            if trimmed.hasPrefix("#") || trimmed.isEmpty { continue }
            let fields = splitFields(trimmed)
            guard fields.count == 5 else { continue }
            let wanted = [address.host, String(address.port), address.database, address.user]
            let hostMatches = fields[0] == "*" || fields[0] == address.host
                || (fields[0] == "localhost" && ["127.0.0.1", "::1"].contains(address.host))
            guard hostMatches else { continue }
            if zip(fields[1...3], wanted[1...3]).allSatisfy({ $0 == "*" || $0 == $1 }) {
                return (fields[4], index + 1)
            }
        }
        return nil
    }

    private static func splitFields(_ line: Substring) -> [String] {
        var fields: [String] = []
        var current = ""
        var escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ":", fields.count < 4 {
                fields.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        fields.append(current)
        return fields
    }
}
