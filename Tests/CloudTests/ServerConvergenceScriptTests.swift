import Foundation
import TestPrerequisites
import Testing

/// scripts/cloud-convergence --server end to end: a throw-away PostgreSQL server, 8 writer
/// processes with clocks skewed by up to ±1 h on the same keys, then every device's dump and the
/// server's table against the Python reference merge of the writers' journals.
@Suite(.requires(.postgresServer, .openssl, .python3)) struct ServerConvergenceScriptTests {
    /// Runs the script in server mode; its exit status and everything it printed.
    static func runServerConvergence(writers: Int, writes: Int, extraEnvironment: [String: String] = [:]) throws -> (status: Int32, output: String)? {
        guard let bin = ConvergenceScriptTests.binaryFolder() else {
            Issue.record("cloud-hammer not found next to the tests: build with --build-tests, or set CLOUD_HAMMER_BIN_DIR")
            return nil
        }
        let servers = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        guard servers.contains(where: { FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\($0)/bin/postgres") }) else {
            Issue.record("no PostgreSQL server installed: scripts/setup postgresql installs Debian's")
            return nil
        }
        let process = Process()
        process.executableURL = ConvergenceScriptTests.packageRoot.appendingPathComponent("scripts/cloud-convergence")
        process.arguments = ["--server", String(writers), String(writes)]
        var environment = ProcessInfo.processInfo.environment
        environment["BIN"] = bin
        environment["KEYS"] = "8"
        environment["HAMMER_TIMEOUT"] = "120"
        environment.merge(extraEnvironment) { $1 }
        process.environment = environment
        // Output to a file and a bounded poll rather than a pipe and waitUntilExit: a server
        // started underneath may hold a pipe open, and waitUntilExit was seen to hang on
        // scripts/pg-server (see its header).
        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("server-convergence-\(UUID().uuidString).log")
        guard FileManager.default.createFile(atPath: outputFile.path, contents: nil) else {
            Issue.record("cannot create \(outputFile.path)")
            return nil
        }
        defer { try? FileManager.default.removeItem(at: outputFile) }
        let output = try FileHandle(forWritingTo: outputFile)
        defer { try? output.close() }
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let deadline = Date(timeIntervalSinceNow: 300)
        while process.isRunning, Date() < deadline { usleep(50_000) }
        let text = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
        if process.isRunning {
            process.terminate()
            Issue.record("scripts/cloud-convergence --server still running after 300 s:\n\(text)")
            return nil
        }
        return (process.terminationStatus, text)
    }

    @Test func eightSkewedWritersOnTheServerConvergeOnTheReferenceMerge() throws {
        guard let (status, text) = try Self.runServerConvergence(writers: 8, writes: 400) else { return }
        #expect(status == 0, "\(text)")
        #expect(text.contains("8 writers and a reader"), "\(text)")
        #expect(text.contains("all dumps and the server's table identical to the reference merge"), "\(text)")
    }

    /// The same check against a deliberately wrong reference (first writer wins) must fail and
    /// name the keys: the comparison can see a difference.
    @Test func aWrongReferenceIsReportedKeyByKey() throws {
        guard let (status, text) = try Self.runServerConvergence(writers: 8, writes: 100, extraEnvironment: ["REFERENCE_SABOTAGE": "1"]) else { return }
        #expect(status == 1, "\(text)")
        #expect(text.contains("the server's table differs from the reference on"), "\(text)")
        #expect(text.contains("writer-1 differs from the reference on"), "\(text)")
        #expect(text.contains("DIVERGED"), "\(text)")
    }
}
