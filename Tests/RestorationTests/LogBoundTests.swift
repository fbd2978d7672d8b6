import Foundation
import Restoration
import Testing
import TextSafety

/// The restoration log quotes archives and errors: one hostile line stays one short, visible line.
@Suite("Restoration log bounds")
struct LogBoundTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-log-\(UUID().uuidString)")
    var files: RestorationFiles { RestorationFiles(folder: folder) }

    @Test func aMegabyteLineGoesIntoTheLogBounded() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let huge = "launch: not restored: class " + String(repeating: "A", count: 1 << 20) + " is not allowed"
        files.appendLog([huge, "launch: restored 3 screens"])
        let lines = files.readLog()
        #expect(lines.count == 2)
        let size = try FileManager.default.attributesOfItem(atPath: files.log.path)[.size] as? Int ?? .max
        #expect(size < 1_000)
        #expect(lines[0].hasSuffix("launch: not restored: class " + String(repeating: "A", count: SafeText.lineLimit - 28) + "…"))
        #expect(lines[1].hasSuffix(" launch: restored 3 screens"))
    }

    @Test func aLineBreakOrEscapeInALineCannotForgeAnEntryOrReachAReader() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        files.appendLog(["skipped: \"x\"\n2026-01-01T00:00:00Z launch: restored 9 screens\u{1B}]0;owned\u{7}"])
        let lines = files.readLog()
        #expect(lines.count == 1)
        #expect(lines[0].hasSuffix("skipped: \"x\"␤2026-01-01T00:00:00Z launch: restored 9 screens␛]0;owned␇"))
        let bytes = try Data(contentsOf: files.log)
        #expect(!bytes.contains(0x1B) && !bytes.contains(0x07))
    }
}
