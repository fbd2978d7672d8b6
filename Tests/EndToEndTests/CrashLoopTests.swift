import Foundation
import Testing

/// A short run of scripts/crash-loop (the full one is 500 rounds, by hand): kill -9 at random
/// moments, and every next launch must start on a readable archive, with no torn files left.
@Suite("Crash loop (short)", .whenEndToEndIsAskedFor)
struct CrashLoopTests {
    @Test("20 rounds of random keys and kill -9: every relaunch starts, the archive stays readable")
    func twentyRounds() throws {
        let binary = try TmuxSession.locateBinary()
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let script = repository.appendingPathComponent("scripts/crash-loop").path
        let result = try Subprocess.run(["/usr/bin/env", "WONDERLAND_BIN=\(binary)", script, "20"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("crash-loop: 20 rounds"), "\(result.output)")
        #expect(result.output.contains("failures 0"), "\(result.output)")
    }
}
