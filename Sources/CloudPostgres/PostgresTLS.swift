import CloudServer
import Foundation
import NIOSSL
import Platform
import PostgresNIO

/// What the address's sslmode asks for, as libpq reads it: `require` encrypts without checking
/// the certificate, `verify-ca` checks it against the trusted roots (`sslrootcert`, or the
/// system's), `verify-full` also checks the host name.
enum PostgresTLS {
    static func configuration(for address: PostgresSyncAddress) throws -> PostgresConnection.Configuration.TLS {
        guard address.tls != .disable else { return .disable }
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
            return .require(try NIOSSLContext(configuration: tls))
        } catch {
            throw PostgresSetupError(description: "TLS could not be set up: \(error)")
        }
    }
}

/// A mistake in how the server is set up here (not the server being down).
struct PostgresSetupError: Error, CustomStringConvertible {
    let description: String
}
