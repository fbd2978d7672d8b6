import FoundationEssentials
import Platform

/// Where the synced store's server is: a `postgres://user@host:port/database?sslmode=…` URL, as
/// libpq writes them. The password never belongs here (it would end up in the defaults file);
/// one given in the URL anyway is kept apart, in `inlinePassword`, and never printed.
public struct PostgresSyncAddress: Sendable, Equatable, CustomStringConvertible {
    /// libpq's sslmode values that this client honours.
    public enum TLSMode: String, Sendable, CaseIterable {
        /// Plain TCP, asked for by name (a loopback, a private network).
        case disable
        /// Encrypted, the server's certificate not checked (libpq's `require`): the default, so
        /// no address sends anything in clear text unless its user wrote `sslmode=disable`.
        case require
        /// Encrypted, the certificate checked against the trusted roots (`sslrootcert`).
        case verifyCA = "verify-ca"
        /// As verify-ca, and the host name must match the certificate.
        case verifyFull = "verify-full"
    }

    /// How the device hears of other devices' changes.
    public enum NewsWait: String, Sendable, CaseIterable {
        /// LISTEN on the device's own connection: news at once, one server connection held per
        /// device all the time.
        case listen
        /// Ask after the last change read every `SyncServerOptions.pollInterval`: for a pooler
        /// in transaction mode (PgBouncer), which shares a few server connections among
        /// thousands of devices and cannot carry LISTEN.
        case poll
    }

    /// The ways of proving who the user is that a server may ask for, by libpq's `require_auth`
    /// names. A server that asks for another is left at once, before anything is sent.
    public enum PasswordMethod: String, Sendable, CaseIterable, Comparable {
        /// SCRAM-SHA-256: the password never leaves the machine.
        case scram = "scram-sha-256"
        /// The server asks for nothing (trust, peer, a certificate).
        case none
        /// MD5: a salted hash the server chooses the salt of, which a server can try to guess
        /// the password from.
        case md5
        /// The password itself, as it is.
        case password

        public static func < (lhs: Self, rhs: Self) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }

        /// What an address allows unless it names others.
        public static let safe: Set<PasswordMethod> = [.scram, .none]
    }

    public var user: String
    public var host: String
    public var port: Int
    public var database: String
    public var tls: TLSMode
    /// A certificate file (PEM) to trust instead of the system's roots.
    public var rootCertificate: String?
    /// A password written into the URL itself; a password file or PGPASSWORD is the safe place.
    public var inlinePassword: String?
    public var newsWait: NewsWait
    /// The ways the server may ask for the password (`require_auth`); SCRAM or none unless the
    /// address names more.
    public var passwordMethods: Set<PasswordMethod>

    public init(user: String, host: String, port: Int = 5432, database: String, tls: TLSMode = .require,
                rootCertificate: String? = nil, inlinePassword: String? = nil, newsWait: NewsWait = .listen,
                passwordMethods: Set<PasswordMethod> = PasswordMethod.safe) {
        self.user = user
        self.host = host
        self.port = port
        self.database = database
        self.tls = tls
        self.rootCertificate = rootCertificate
        self.inlinePassword = inlinePassword
        self.newsWait = newsWait
        self.passwordMethods = passwordMethods
    }

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// Whether `text` is meant as a server address (rather than a folder path).
    public static func looksLikeAddress(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://")
    }

    public init(parsing text: String) throws(ParseError) {
        let trimmed = text.trimmingSpaces()
        guard Self.looksLikeAddress(trimmed) else {
            throw ParseError(description: "a server address starts with postgres://, as in postgres://alice@db.example.org:5432/wonderland")
        }
        guard let components = URLComponents(string: trimmed) else {
            throw ParseError(description: "the server address is not a valid URL")
        }
        guard let host = components.host, !host.isEmpty else {
            throw ParseError(description: "the server address names no host (postgres://user@host/database)")
        }
        guard let user = components.user, !user.isEmpty else {
            throw ParseError(description: "the server address names no user (postgres://user@host/database)")
        }
        if let port = components.port, !(1...65_535).contains(port) {
            throw ParseError(description: "the port \(port) is not between 1 and 65535")
        }
        var database = String(components.path.drop(while: { $0 == "/" }))
        if database.isEmpty { database = user }  // libpq's default
        if database.contains("/") { throw ParseError(description: "the database name may not contain \"/\"") }

        var tls = TLSMode.require
        var rootCertificate: String?
        var newsWait = NewsWait.listen
        var passwordMethods = PasswordMethod.safe
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                switch item.value ?? "" {
                case "disable", "allow": tls = .disable
                // "prefer" would fall back to plain text silently; asking for TLS means getting it.
                case "prefer", "require": tls = .require
                case "verify-ca": tls = .verifyCA
                case "verify-full": tls = .verifyFull
                case let other: throw ParseError(description: "sslmode=\(other) is not one of disable, require, verify-ca, verify-full")
                }
            case "sslrootcert":
                rootCertificate = item.value
            case "wait":
                guard let chosen = NewsWait(rawValue: item.value ?? "") else {
                    throw ParseError(description: "wait=\(item.value ?? "") is not one of listen, poll")
                }
                newsWait = chosen
            case "require_auth":
                passwordMethods = try Self.passwordMethods(item.value ?? "")
            case "application_name", "connect_timeout":
                continue
            default:
                throw ParseError(description: "the server address has an option this app does not know: \(item.name)")
            }
        }
        self.init(user: user.percentDecoded ?? user, host: host, port: components.port ?? 5432,
                  database: database.percentDecoded ?? database, tls: tls, rootCertificate: rootCertificate,
                  inlinePassword: components.password.map { $0.percentDecoded ?? $0 },
                  newsWait: newsWait, passwordMethods: passwordMethods)
    }

    /// libpq's `require_auth` list ("scram-sha-256,md5"); its negations are not taken.
    private static func passwordMethods(_ list: String) throws(ParseError) -> Set<PasswordMethod> {
        var methods: Set<PasswordMethod> = []
        for name in list.split(separator: ",", omittingEmptySubsequences: false) {
            guard let method = PasswordMethod(rawValue: String(name).trimmingSpaces()) else {
                throw ParseError(description: "require_auth=\(list) is not a list of scram-sha-256, md5, password and none")
            }
            methods.insert(method)
        }
        return methods
    }

    /// The address as the user sees it: never with a password.
    public var description: String {
        var text = "postgres://\(user)@\(hostForURL):\(port)/\(database)"
        var options: [String] = []
        if tls != .require { options.append("sslmode=\(tls.rawValue)") }
        if let rootCertificate { options.append("sslrootcert=\(rootCertificate)") }
        if newsWait != .listen { options.append("wait=\(newsWait.rawValue)") }
        if passwordMethods != PasswordMethod.safe {
            options.append("require_auth=" + passwordMethods.sorted().map(\.rawValue).joined(separator: ","))
        }
        if !options.isEmpty { text += "?" + options.joined(separator: "&") }
        return text
    }

    /// The same server and database whatever the user or options: what the local copy is keyed
    /// by (another server is another account).
    public var storeIdentity: String { "postgres://\(hostForURL):\(port)/\(database)" }

    private var hostForURL: String { host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host }
}
