import Cloud
@testable import CloudPostgres
import CloudServer
import Foundation
import Testing

/// Servers that are not what they seem: one that asks for the password in a way the address
/// does not allow, one that takes the connection and never answers. Each is a few lines of
/// socket code here, so what the device sends can be read back byte by byte.
@Suite("PostgreSQL backend: a server that is not what it seems")
struct PostgresFakeServerTests {
    static let password = "sam-the-secret"

    /// A fake server that answers the startup with `reply` and records everything it receives.
    final class Fake: @unchecked Sendable {
        let received = ThreadSafeRecords()
        var listener: LoopbackListener!

        init(tlsAnswer: UInt8? = nil, reply: [UInt8]) throws {
            listener = try LoopbackListener { [received] client in
                var bytes: [UInt8] = []
                if let tlsAnswer {
                    bytes += LoopbackListener.read(client, count: 8)
                    LoopbackListener.write(client, [tlsAnswer])
                }
                let head = LoopbackListener.read(client, count: 4)
                bytes += head
                if head.count == 4 {
                    let length = Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3])
                    bytes += LoopbackListener.read(client, count: max(0, min(length, 10_000) - 4))
                    LoopbackListener.write(client, reply)
                    bytes += LoopbackListener.read(client, seconds: 1.5)
                }
                received.fail(String(decoding: bytes, as: Unicode.ASCII.self))
            }
        }

        var everything: String {
            let deadline = Date(timeIntervalSinceNow: 10)
            while received.failures.isEmpty, Date() < deadline { usleep(10_000) }
            return received.failures.joined()
        }
    }

    /// AuthenticationRequest with `code` and `extra` bytes (an MD5 salt).
    static func authentication(_ code: UInt8, extra: [UInt8] = []) -> [UInt8] {
        let length = 8 + extra.count
        return [UInt8(ascii: "R"), 0, 0, 0, UInt8(length), 0, 0, 0, code] + extra
    }

    func failure(connectingTo port: Int, tls: PostgresSyncAddress.TLSMode = .disable,
                 methods: Set<PostgresSyncAddress.PasswordMethod> = PostgresSyncAddress.PasswordMethod.safe) -> String {
        let address = PostgresSyncAddress(user: "bob", host: "127.0.0.1", port: port, database: "bob", tls: tls, passwordMethods: methods)
        let backend = PostgresBackend(address: address, password: Self.password, device: DeviceIdentifier("aaaa")!,
                                      options: .init(connectTimeout: 1, queryTimeout: 1))
        do {
            _ = try backend.fetchChanges()
            return "connected"
        } catch {
            return "\(error)"
        }
    }

    @Test("a server asking for the password in clear text, or for an MD5 hash, gets nothing, and the user is told how to allow it",
          arguments: [(UInt8(3), "password"), (UInt8(5), "md5")])
    func weakPasswordRequestsGetNothing(code: UInt8, method: String) throws {
        let fake = try Fake(reply: Self.authentication(code, extra: code == 5 ? [1, 2, 3, 4] : []))
        defer { fake.listener.close() }
        let reason = failure(connectingTo: fake.listener.port)
        #expect(reason.contains("require_auth=\(method)"), "\(reason)")
        #expect(reason.contains("sent nothing"))
        let seen = fake.everything
        #expect(seen.contains("bob"))  // the startup message came
        #expect(!seen.contains(Self.password))
        #expect(!seen.contains("md5"))
    }

    @Test("asked for by name, the clear-text password is sent (the user chose it)")
    func cleartextByName() throws {
        let fake = try Fake(reply: Self.authentication(3))
        defer { fake.listener.close() }
        _ = failure(connectingTo: fake.listener.port, methods: [.password])
        #expect(fake.everything.contains(Self.password))
    }

    @Test("a server that does not offer TLS, which the address asks for by default, is told nothing but the request for it")
    func noTLSNoStartup() throws {
        let fake = try Fake(tlsAnswer: UInt8(ascii: "N"), reply: Self.authentication(3))
        defer { fake.listener.close() }
        let reason = failure(connectingTo: fake.listener.port, tls: .require)
        #expect(reason.contains("does not offer TLS"), "\(reason)")
        #expect(!fake.everything.contains("bob"))
    }

    @Test("a server that takes the connection and never answers is told apart from one that cannot be reached")
    func silentServerIsNotUnreachable() throws {
        let silent = try LoopbackListener { client in
            _ = LoopbackListener.read(client, seconds: 5)
        }
        defer { silent.close() }
        let reason = failure(connectingTo: silent.port)
        #expect(reason.contains("took the connection but did not answer"), "\(reason)")

        let closedPort = silent.port
        silent.close()
        usleep(100_000)
        let refused = failure(connectingTo: closedPort)
        #expect(refused.contains("cannot connect to 127.0.0.1:\(closedPort)"), "\(refused)")
    }
}
