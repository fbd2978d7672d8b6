import Foundation
import Testing
@testable import BookFront

/// Books in the encodings older and Windows-made files use, converted to UTF-8 with a note
/// naming the encoding; CRLF line ends read as lines.
@Suite struct LoadingEncodingTests {
    static let book = "ALICE\r\n\r\nCHAPTER I. Down the Rabbit-Hole\r\n\r\nCafé, “quoted” — and so on.\r\n"

    private func load(_ bytes: [UInt8], name: String = "book.txt") throws -> BookDocument {
        let path = try BookFixture.write(bytes, name: name)
        defer { BookFixture.remove(path) }
        return try BookLoader.load(path: path)
    }

    private func shown(_ document: BookDocument) -> String { document.text.string(0..<document.text.count) }

    @Test func plainUTF8StaysAsItIsWithoutANote() throws {
        let document = try load(Array(Self.book.utf8))
        #expect(shown(document) == Self.book)
        #expect(document.notes.isEmpty)
        #expect(document.chapters.map(\.title).first?.contains("Down the Rabbit-Hole") == true)
    }

    @Test func utf8WithAByteOrderMarkLosesTheMark() throws {
        let document = try load([0xEF, 0xBB, 0xBF] + Array(Self.book.utf8))
        #expect(shown(document) == Self.book)
        #expect(document.notes.first == "Read as UTF-8 (the byte-order mark is left out).")
        #expect(document.title == (try load(Array(Self.book.utf8))).title)
    }

    @Test(arguments: [true, false])
    func utf16ByItsByteOrderMarkIsConverted(littleEndian: Bool) throws {
        let units = Array(Self.book.utf16)
        let bytes: [UInt8] = (littleEndian ? [0xFF, 0xFE] : [0xFE, 0xFF])
            + units.flatMap { littleEndian ? [UInt8($0 & 0xFF), UInt8($0 >> 8)] : [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let document = try load(bytes)
        #expect(shown(document) == Self.book)
        #expect(document.notes.first == "Read as UTF-16 \(littleEndian ? "LE" : "BE") (from its byte-order mark).")
        #expect(document.chapters.count == 1)
    }

    @Test func bytesThatAreNotUTF8AreReadAsWindows1252() throws {
        // "Café" in Latin-1, then Windows-1252's curly quotes, euro sign and em dash.
        let bytes = Array("Caf".utf8) + [0xE9] + Array(" \r\n".utf8) + [0x93] + Array("hi".utf8) + [0x94, 0x20, 0x80, 0x20, 0x97] + Array("\r\n".utf8)
        let document = try load(bytes)
        #expect(shown(document) == "Café \r\n“hi” € —\r\n")
        #expect(document.notes.first == "Not valid UTF-8: read as Windows-1252.")
        #expect(!document.notes.contains { $0.contains("\u{FFFD}") })
    }

    @Test func undefinedWindows1252BytesAndUnpairedSurrogatesNeverTrap() throws {
        let undefined: [UInt8] = [0x81, 0x8D, 0xFF]
        #expect(undefined.withUnsafeBytes { BookEncoding.utf8(fromWindows1252: $0) } == Data("\u{81}\u{8D}ÿ".utf8))
        let lone: [UInt8] = [0xFF, 0xFE, 0x00, 0xD8, 0x41, 0x00, 0x42]
        let converted = lone.withUnsafeBytes { BookEncoding.utf8(fromUTF16: $0, littleEndian: true) }
        #expect(String(decoding: converted, as: UTF8.self) == "\u{FFFD}A")
    }
}
