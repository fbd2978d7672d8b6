import CloudServer
import Foundation
import NIOSSL
import Platform
import PostgresNIO

/// What the address's sslmode asks for, as libpq reads it: `require` encrypts without checking
/// the certificate, `verify-ca` checks it against the trusted roots (`sslrootcert`, or the
/// system's), `verify-full` also checks the host name.
enum PostgresTLS {
    /// The context to encrypt with; nil for `sslmode=disable`.
    static func context(for address: PostgresSyncAddress) throws -> NIOSSLContext? {
        guard address.tls != .disable else { return nil }
        var tls = TLSConfiguration.makeClientConfiguration()
        switch address.tls {
        case .disable: break
        case .require: tls.certificateVerification = .none
        case .verifyCA: tls.certificateVerification = .noHostnameVerification
        case .verifyFull: tls.certificateVerification = .fullVerification
        }
        if let root = address.rootCertificate {
            let path = UserFolders(environment: ProcessInfo.processInfo.environment).expandingTilde(root, otherUsers: true)
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw PostgresSetupError(description: "the certificate \(path) (sslrootcert) cannot be read")
            }
            tls.trustRoots = .file(path)
        }
        do {
            return try NIOSSLContext(configuration: tls)
        } catch {
            throw PostgresSetupError(description: "TLS could not be set up: \(error)")
        }
    }

    /// The name sent to the server and checked against its certificate; none for an IP
    /// address, which is checked against the certificate's IP entries instead.
    static func serverName(for host: String) -> String? {
        var v4 = in_addr(), v6 = in6_addr()
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if inet_pton(AF_INET, bare, &v4) == 1 || inet_pton(AF_INET6, bare, &v6) == 1 { return nil }
        return host
    }
}

/// A mistake in how the server is set up here (not the server being down).
struct PostgresSetupError: Error, CustomStringConvertible {
    let description: String
}
