import Cloud
import CloudServer
import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

/// Turns what went wrong talking to the server into a sentence for the status line. It is
/// built from the error's parts, never from the connection settings, so no password can slip
/// into it; PSQLError's own description hides the server's words, which are the useful part.
enum PostgresErrorText {
    static func describe(_ error: any Error, address: PostgresSyncAddress) -> String {
        switch error {
        case let error as BackendUnavailable: return error.reason
        case let error as PostgresSetupError: return error.description
        case let error as PSQLError: return describe(error, address: address)
        case let error as PostgresServerRefused: return error.description
        case is NIOConnectionError, is ChannelError, is IOError:
            return "cannot connect to \(address.host):\(address.port): \(underlyingText(error))"
        case let error as NIOSSLError:
            return "TLS with the server at \(address.host):\(address.port) failed: \(error)"
        default: return "\(error)"
        }
    }

    private static func describe(_ error: PSQLError, address: PostgresSyncAddress) -> String {
        let place = "\(address.host):\(address.port)"
        switch error.code {
        case .server:
            let state = error.serverInfo?[.sqlState] ?? ""
            let message = error.serverInfo?[.message] ?? "an error"
            if state == "28P01" || state == "28000" {
                return "the server at \(place) refused \(address.user)'s password (PGPASSWORD or ~/.pgpass): \(message)"
            }
            // PostgreSQL's "too many clients" and "slots are reserved", and PgBouncer's
            // "no more connections allowed": every connection is taken.
            if state == "53300" || message.hasPrefix("no more connections allowed") {
                // First what the tab bar has room for at 80 columns; the rest for `cloud status`.
                return "the server is full: every connection to \(place) is in use; trying again"
            }
            if state == "57014" {
                return "the server at \(place) stopped a statement that ran too long (statement_timeout)"
            }
            if state == "55P03" {
                return "the server at \(place) gave up waiting for a lock (lock_timeout)"
            }
            return "the server at \(place) said: \(message)"
        case .sslUnsupported:
            return "the server at \(place) does not offer TLS, which sslmode=\(address.tls.rawValue) asks for"
        case .authMechanismRequiresPassword:
            return "the server at \(place) asks for \(address.user)'s password: set PGPASSWORD or add a line to ~/.pgpass"
        case .connectionError where error.underlying is PostgresServerRefused:
            return "\(error.underlying!)"
        case .connectionError, .failedToAddSSLHandler:
            return "cannot connect to \(place): \(error.underlying.map(underlyingText) ?? "connection failed")"
        case .serverClosedConnection, .uncleanShutdown:
            return "the server at \(place) closed the connection"
        case .clientClosedConnection:
            return "the connection to \(place) was closed"
        default:
            return "talking to \(place) failed (\(error.code))"
        }
    }

    private static func underlyingText(_ error: any Error) -> String {
        let text = "\(error)"
        if text.contains("connection reset by peer") || text.contains("Connection refused") || text.contains("connectionRefused") {
            return "connection refused (is the server running?)"
        }
        if case ChannelError.connectTimeout = error { return "no answer to the connection (a firewall, or the host is down?)" }
        if text.contains("No address") || text.contains("resolution") || text.contains("getaddrinfo") { return "the host name is not known" }
        return text
    }
}
