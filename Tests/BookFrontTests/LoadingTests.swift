import Testing
import Foundation
@testable import BookFront

@Suite struct LoadingTests {
    private func reason(loading path: String) -> String? {
        do {
            _ = try BookLoader.load(path: path)
            return nil
        } catch let error as BookLoadError {
            return error.reason
        } catch {
            return "unexpected error \(error)"
        }
    }

    @Test func theFixtureOpensWithTitleChaptersAndItsCRLFKept() throws {
        let document = try BookFixture.document()
        defer { BookFixture.remove(document.path!) }
        #expect(document.format == .plainText)
        #expect(document.title == "The Lamplighter's Niece")
        #expect(document.chapters.map(\.title) == BookFixture.chapterTitles)
        #expect(document.text.count == BookFixture.bytes.count)
        #expect(document.text.string(0..<document.text.count).contains("Tallow Lane,\r\nwhere"))
        #expect(document.notes.isEmpty)
        #expect(!document.text.isMapped)
    }

    @Test func aMissingFileIsNotFound() {
        #expect(reason(loading: "/nonexistent/folder/book.txt") == "not found")
    }

    @Test func anEmptyFileSaysSo() throws {
        let path = try BookFixture.write([], name: "empty.txt")
        defer { BookFixture.remove(path) }
        #expect(reason(loading: path) == "is empty")
        let blank = try BookFixture.write("\r\n  \r\n\t\n", name: "blank.txt")
        defer { BookFixture.remove(blank) }
        #expect(reason(loading: blank) == "is empty (only blank lines)")
    }

    @Test func aFolderIsNotABook() throws {
        let folder = try BookFixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(reason(loading: folder.path) == "is a folder, not a book")
    }

    @Test func binaryFilesAreRefused() throws {
        // A PNG's signature and header: NUL bytes early on.
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52]
        png += Array("just enough text after the header to look wordy".utf8)
        let path = try BookFixture.write(png, name: "picture.txt")
        defer { BookFixture.remove(path) }
        #expect(reason(loading: path) == "looks like a binary file, not a book")

        // No NUL at all, but mostly control bytes and invalid UTF-8.
        let noise = (0..<4096).map { UInt8(truncatingIfNeeded: ($0 &* 167) % 251 + 1) }.map { $0 == 0x0A ? 0x01 : $0 }
        let noisy = try BookFixture.write(noise, name: "noise.txt")
        defer { BookFixture.remove(noisy) }
        #expect(reason(loading: noisy) == "looks like a binary file, not a book")
    }

    @Test func aFileWithoutAKnownExtensionIsReadAsText() throws {
        let path = try BookFixture.write(BookFixture.bytes, name: "LAMPLIGHTER")
        defer { BookFixture.remove(path) }
        let document = try BookLoader.load(path: path)
        #expect(document.chapters.count == 4)
        #expect(document.format == .plainText)
    }

    @Test func aBookWithoutATitleLineIsNamedAfterItsFile() throws {
        let path = try BookFixture.write("It was late, and the lamps were lit one by one along\nthe river.\n", name: "river-notes.txt")
        defer { BookFixture.remove(path) }
        let document = try BookLoader.load(path: path)
        #expect(document.title == "river-notes")
        #expect(document.chapters.isEmpty)
        #expect(document.notes.contains { $0.contains("No chapter headings") })
    }

    @Test func projectGutenbergHeadersGiveTheTitle() throws {
        let text = "The Project Gutenberg eBook of The Lamplighter's Niece, by Somebody\r\n\r\nThis eBook is for the use of anyone.\r\n"
        let path = try BookFixture.write(text, name: "pg.txt")
        defer { BookFixture.remove(path) }
        #expect(try BookLoader.load(path: path).title == "The Lamplighter's Niece")
    }

    @Test func shoutedTitlesAreShownInTitleCase() {
        #expect(TitleDetector.displayed("ALICE'S ADVENTURES IN WONDERLAND") == "Alice's Adventures in Wonderland")
        #expect(TitleDetector.displayed("THE RABBIT-HOLE AND THE SEA") == "The Rabbit-Hole and the Sea")
        #expect(TitleDetector.displayed("Through the Looking-Glass") == "Through the Looking-Glass")
        #expect(TitleDetector.displayed("PART II OF THE TALE") == "Part II of the Tale")
    }

    @Test func controlBytesAreCountedAsOneByOneWouldBe() {
        var seed: UInt64 = 11
        for length in [0, 1, 7, 8, 9, 63, 64, 65, 1000] {
            for _ in 0..<20 {
                let bytes: [UInt8] = (0..<length).map { _ in
                    seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    let pick = seed >> 58  // mostly printable, some controls, some high bytes
                    return pick < 40 ? UInt8(0x20 + (seed >> 40) % 0x5F) : pick < 52 ? UInt8((seed >> 40) % 0x20) : UInt8(0x80 + (seed >> 40) % 0x80)
                }
                let expected = bytes.filter { $0 < 0x20 && ![0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x1B].contains($0) }.count
                #expect(bytes.withUnsafeBytes { TextSniff.controlBytes(in: $0) } == expected, "\(bytes)")
            }
        }
    }
}
