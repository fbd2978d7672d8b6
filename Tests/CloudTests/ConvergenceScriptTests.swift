import Foundation
import TestPrerequisites
import Testing

/// scripts/cloud-convergence end to end: writer processes with skewed clocks on one folder, then
/// every device's dump against the Python reference merge (about 10 s).
@Suite(.requires(.python3)) struct ConvergenceScriptTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The folder holding cloud-hammer: CLOUD_HAMMER_BIN_DIR, else next to the test bundle.
    static func binaryFolder() -> String? {
        if let folder = ProcessInfo.processInfo.environment["CLOUD_HAMMER_BIN_DIR"] { return folder }
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0 ..< 4 {
            if FileManager.default.isExecutableFile(atPath: url.appendingPathComponent("cloud-hammer").path) { return url.path }
            url = url.deletingLastPathComponent()
        }
        return nil
    }

    @Test func fourSkewedWritersConvergeOnTheReferenceMerge() throws {
        guard let bin = Self.binaryFolder() else {
            Issue.record("cloud-hammer not found next to the tests: build with --build-tests, or set CLOUD_HAMMER_BIN_DIR")
            return
        }
        let process = Process()
        process.executableURL = Self.packageRoot.appendingPathComponent("scripts/cloud-convergence")
        process.arguments = ["4", "1000"]
        var environment = ProcessInfo.processInfo.environment
        environment["BIN"] = bin
        environment["KEYS"] = "8"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("all dumps identical and equal to the reference merge"), "\(text)")
    }
}
