import Testing
import Foundation
@testable import BookFront

/// A 1 GB book: a few chapters of text, then a sparse tail made by ftruncate (it takes no disk).
/// Loading maps it and scans it (UTF-8 check, chapters) window by window, giving pages back as
/// it goes, so resident memory stays far below the file's size.
@Suite(.serialized) struct LoadingBigFileTests {
    static let size: Int64 = 1 << 30

    /// VmRSS or VmHWM (the peak) from /proc/self/status, in bytes.
    private func status(_ field: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
              let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") else { return nil }
        return kilobytes * 1024
    }

    @Test func aOneGigabyteTextOpensMappedWithBoundedMemory() throws {
        // More than the 64 KB the binary sniff reads is text; the NULs of the sparse tail come after.
        let filler = Array(String(repeating: "  The lamps were lit one by one along the river.\r\n", count: 1600).utf8)
        let path = try BookFixture.write(BookFixture.bytes + filler, name: "huge.txt")
        defer { BookFixture.remove(path) }
        #expect(truncate(path, off_t(Self.size)) == 0)

        let handle = try #require(FileHandle(forWritingAtPath: "/proc/self/clear_refs"), "the peak resident size cannot be reset here")
        try handle.write(contentsOf: Data("5".utf8))
        try handle.close()
        let before = try #require(status("VmRSS"))
        let document = try BookLoader.load(path: path)
        let peak = try #require(status("VmHWM"))

        #expect(document.text.isMapped)
        #expect(document.text.count == Int(Self.size))
        #expect(document.chapters.map(\.title) == BookFixture.chapterTitles)
        #expect(document.title == "The Lamplighter's Niece")
        #expect(document.id.count == 16)
        // The whole file would be 1024 MB; one scan window is 8 MB.
        // Peak, not end state: the scans must not have had the whole file resident at any time.
        #expect(peak - before < 64 << 20, "resident memory peaked \((peak - before) >> 20) MB above the start")
        // The text is there to read: the last byte of the sparse tail is a NUL.
        #expect(document.text.byte(at: Int(Self.size) - 1) == 0)
        #expect(document.text.string(0..<200).contains("LAMPLIGHTER"))
    }
}
