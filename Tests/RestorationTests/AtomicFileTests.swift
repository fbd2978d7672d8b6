import FileSafety
import Foundation
import Testing
@testable import Restoration

@Suite("Atomic files")
struct AtomicFileTests {
    @Test("temporaries left by a dead process are removed; a live process's and other files stay")
    func staleTemporaries() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-atomic-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let dead = "4194000"  // above any pid_max a Linux kernel allows: no such process
        let names = [".restoration.archive.tmp-\(dead)", ".restoration.log.tmp-\(dead)", ".restoration.archive.tmp-1",
                     ".restoration.archive.tmp-\(getpid())", "restoration.archive", "notes.tmp-\(dead)", ".odd.tmp-x"]
        for name in names { try Data("x".utf8).write(to: folder.appendingPathComponent(name)) }

        let removed = RestorationFiles(folder: folder).removeStaleTemporaries()
        #expect(removed == [".restoration.archive.tmp-\(dead)", ".restoration.log.tmp-\(dead)"])
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(left == [".odd.tmp-x", ".restoration.archive.tmp-1", ".restoration.archive.tmp-\(getpid())", "notes.tmp-\(dead)", "restoration.archive"].sorted())
    }

    @Test("a missing folder has nothing to remove")
    func missingFolder() {
        #expect(AtomicFile.removeStaleTemporaries(in: URL(fileURLWithPath: "/nonexistent/wl-\(UUID().uuidString)")).isEmpty)
    }
}
