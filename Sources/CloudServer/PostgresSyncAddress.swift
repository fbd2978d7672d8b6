import FoundationEssentials
import Platform

/// Where the synced store's server is: a `postgres://user@host:port/database?sslmode=…` URL, as
/// libpq writes them. The password never belongs here (it would end up in the defaults file);
/// one given in the URL anyway is kept apart, in `inlinePassword`, and never printed.
public struct PostgresSyncAddress: Sendable, Equatable, CustomStringConvertible {
    /// libpq's sslmode values that this client honours.
    public enum TLSMode: String, Sendable, CaseIterable {
        /// Plain TCP (the default, as on a loopback or a private network).
        case disable
        /// Encrypted, the server's certificate not checked (libpq's `require`).
        case require
        /// Encrypted, the certificate checked against the trusted roots (`sslrootcert`).
        case verifyCA = "verify-ca"
        /// As verify-ca, and the host name must match the certificate.
        case verifyFull = "verify-full"
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

    public init(user: String, host: String, port: Int = 5432, database: String, tls: TLSMode = .disable,
                rootCertificate: String? = nil, inlinePassword: String? = nil) {
        self.user = user
        self.host = host
        self.port = port
        self.database = database
        self.tls = tls
        self.rootCertificate = rootCertificate
        self.inlinePassword = inlinePassword
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

        var tls = TLSMode.disable
        var rootCertificate: String?
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
            case "application_name", "connect_timeout":
                continue
            default:
                throw ParseError(description: "the server address has an option this app does not know: \(item.name)")
            }
        }
        self.init(user: user.percentDecoded ?? user, host: host, port: components.port ?? 5432,
                  database: database.percentDecoded ?? database, tls: tls, rootCertificate: rootCertificate,
                  inlinePassword: components.password.map { $0.percentDecoded ?? $0 })
    }

    /// The address as the user sees it: never with a password.
    public var description: String {
        var text = "postgres://\(user)@\(hostForURL):\(port)/\(database)"
        var options: [String] = []
        if tls != .disable { options.append("sslmode=\(tls.rawValue)") }
        if let rootCertificate { options.append("sslrootcert=\(rootCertificate)") }
        if !options.isEmpty { text += "?" + options.joined(separator: "&") }
        return text
    }

    /// The same server and database whatever the user or options: what the local copy is keyed
    /// by (another server is another account).
    public var storeIdentity: String { "postgres://\(hostForURL):\(port)/\(database)" }

    private var hostForURL: String { host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host }
}
