import Testing
import Foundation
@testable import BookFront

/// A 1 GB book: a few chapters of text, then a sparse tail made by ftruncate (it takes no disk).
/// Loading maps it and scans it (UTF-8 check, chapters) window by window, giving pages back as
/// it goes, so resident memory stays far below the file's size.
@Suite(.serialized) struct LoadingBigFileTests {
    static let size: Int64 = 1 << 30

    /// Runs bench-book-load on `path` and reads the peak resident memory it reports.
    static func peakResidentMB(loading path: String) throws -> Double {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let candidates = [folder, folder.deletingLastPathComponent()].map { $0.appendingPathComponent("bench-book-load") }
        guard let binary = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw LoaderProbeError("bench-book-load is not built beside the tests (looked in \(candidates.map(\.path)))")
        }
        let process = Process()
        process.executableURL = binary
        process.arguments = [path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0, let line = output.split(separator: "\n").first(where: { $0.contains("peak resident: ") }),
              let megabytes = Double(line.split(separator: " ").dropLast().last ?? "") else {
            throw LoaderProbeError("bench-book-load said: \(output)")
        }
        return megabytes
    }

    struct LoaderProbeError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    @Test func aOneGigabyteTextOpensMappedWithBoundedMemory() throws {
        // More than the 64 KB the binary sniff reads is text; the NULs of the sparse tail come after.
        let filler = Array(String(repeating: "  The lamps were lit one by one along the river.\r\n", count: 1600).utf8)
        let path = try BookFixture.write(BookFixture.bytes + filler, name: "huge.txt")
        defer { BookFixture.remove(path) }
        #expect(truncate(path, off_t(Self.size)) == 0)

        let document = try BookLoader.load(path: path)
        #expect(document.text.isMapped)
        #expect(document.text.count == Int(Self.size))
        #expect(document.chapters.map(\.title) == BookFixture.chapterTitles)
        #expect(document.title == "The Lamplighter's Niece")
        #expect(document.id.count == 16)
        // Peak memory, not the end state: the scans must never have had the whole file
        // resident. Measured in a process of its own (the loader's own command-line front,
        // bench-book-load, built beside this test binary), because this process runs every
        // other test of the target at the same time and its peak is theirs too.
        let peak = try Self.peakResidentMB(loading: path)
        #expect(peak < 128, "loading the 1 GB file peaked at \(peak) MB resident (the file is 1024 MB; a scan window is 8 MB)")
        // The text is there to read: the last byte of the sparse tail is a NUL.
        #expect(document.text.byte(at: Int(Self.size) - 1) == 0)
        #expect(document.text.string(0..<200).contains("LAMPLIGHTER"))
    }
}
