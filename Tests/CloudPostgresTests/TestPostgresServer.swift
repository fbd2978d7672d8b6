import CloudServer
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A throw-away PostgreSQL server for the tests, through scripts/pg-server: the one the test
/// command started (WONDERLAND_TEST_PG_DIR), or one started here for this test process and
/// stopped when it exits. Tests that kill their server start a `dedicated()` one.
final class TestPostgresServer: @unchecked Sendable {
    let folder: String
    let password: String
    let port: Int
    private let ownsServer: Bool

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let script = repository.appendingPathComponent("scripts/pg-server").path

    struct Failure: Error, CustomStringConvertible { let description: String }

    private init(folder: String, ownsServer: Bool) throws {
        self.folder = folder
        self.ownsServer = ownsServer
        let url = try Self.run(["start", folder]).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let port = URLComponents(string: url)?.port else { throw Failure(description: "pg-server printed no URL: \(url)") }
        self.port = port
        password = try Self.run(["password", folder]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The server shared by every test in this process.
    static func shared() throws -> TestPostgresServer {
        // Not a `static let`: starting it runs a Process, and waiting for a child inside a
        // lazy global's initialiser never returned here.
        try sharedLock.withLock {
            if sharedServer == nil { sharedServer = Result { try startShared() } }
            return try sharedServer!.get()
        }
    }

    private static let sharedLock = NSLock()
    nonisolated(unsafe) private static var sharedServer: Result<TestPostgresServer, any Error>?

    private static func startShared() throws -> TestPostgresServer {
        if let folder = ProcessInfo.processInfo.environment["WONDERLAND_TEST_PG_DIR"], !folder.isEmpty {
            return try TestPostgresServer(folder: folder, ownsServer: false)
        }
        let server = try TestPostgresServer(folder: temporaryFolder("shared"), ownsServer: true)
        atexit { TestPostgresServer.stopShared() }
        return server
    }

    private static func stopShared() {
        if case .success(let server) = sharedServer, server.ownsServer { server.remove() }
    }

    /// A server of its own, for a test that stops and starts it; `remove()` it at the end.
    static func dedicated() throws -> TestPostgresServer {
        try TestPostgresServer(folder: temporaryFolder("own"), ownsServer: true)
    }

    private static func temporaryFolder(_ label: String) -> String {
        NSTemporaryDirectory() + "wl-pg-tests-\(getpid())-\(label)-\(UUID().uuidString.prefix(8))"
    }

    /// A new, empty database on this server, and its address.
    func freshDatabase() throws -> PostgresSyncAddress {
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        try psql("CREATE DATABASE \(name)", database: "wonderland")
        return address(database: String(name))
    }

    func address(database: String, tls: PostgresSyncAddress.TLSMode = .disable) -> PostgresSyncAddress {
        PostgresSyncAddress(user: "wonderland", host: "127.0.0.1", port: port, database: database, tls: tls)
    }

    /// Runs SQL as the server's owner, over its own socket; returns psql's unaligned output.
    @discardableResult
    func psql(_ sql: String, database: String) throws -> String {
        try Self.run(["psql", folder, "-d", database, "-qAt", "-v", "ON_ERROR_STOP=1", "-c", sql])
    }

    func kill() throws { try Self.run(["kill", folder]) }
    func start() throws { try Self.run(["start", folder]) }

    func remove() {
        _ = try? Self.run(["stop", folder])
        try? FileManager.default.removeItem(atPath: folder)
    }

    @discardableResult
    static func run(_ arguments: [String]) throws -> String {
        // Files, not pipes: the server that `start` leaves running inherits the descriptors,
        // and a pipe would then never reach its end.
        let outputFile = NSTemporaryDirectory() + "pg-server-\(UUID().uuidString).out"
        let errorFile = outputFile + ".err"
        FileManager.default.createFile(atPath: outputFile, contents: nil)
        FileManager.default.createFile(atPath: errorFile, contents: nil)
        defer {
            try? FileManager.default.removeItem(atPath: outputFile)
            try? FileManager.default.removeItem(atPath: errorFile)
        }
        // posix_spawn and waitpid rather than Process: Process.waitUntilExit never saw this
        // script end here (its child left a zombie), perhaps as the server it starts daemonises.
        let argv = ["/bin/bash", script] + arguments
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputFile, O_WRONLY | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorFile, O_WRONLY | O_TRUNC, 0o600)
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, "/bin/bash", &actions, nil, &cArguments, environ)
        guard spawned == 0 else { throw Failure(description: "cannot run \(script): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(child, &status, 0) == -1 && errno == EINTR {}
        let exitedCleanly = (status & 0x7f) == 0 && (status >> 8) & 0xff == 0
        let text = FileManager.default.contents(atPath: outputFile) ?? Data()
        let problem = FileManager.default.contents(atPath: errorFile) ?? Data()
        guard exitedCleanly else {
            throw Failure(description: "pg-server \(arguments.joined(separator: " ")) failed: \(String(decoding: problem, as: UTF8.self))")
        }
        return String(decoding: text, as: UTF8.self)
    }
}
