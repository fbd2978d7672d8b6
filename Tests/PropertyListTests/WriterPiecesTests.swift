import Foundation
import PropertyListTestSupport
import Testing
@testable import PropertyList

/// The pieces the writers and the binary reader are made of, each at its edges: key order where
/// the first eight bytes decide nothing, the output buffer as it grows, numbers and dates
/// written as bytes, and UTF-16 of every encoded length.
@Suite struct WriterPiecesTests {
    /// Keys that tie on their first eight bytes, hold NUL bytes, are empty or are not ASCII, in
    /// the UTF-8 byte order plistlib and Apple's writers use.
    static let keysInOrder = [
        "", "\u{0}", "\u{0}\u{0}", "a", "a\u{0}", "ab", "abcdefgh", "abcdefgh\u{0}", "abcdefghA", "abcdefgha",
        "abcdefghab", "abcdefgi", "record-000001", "record-000002", "record-0000010", "Z", "é", "éa", "東京", "🎉",
    ].sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }

    @Test func dictionaryKeysComeInUTF8ByteOrder() {
        let dictionary = Dictionary(uniqueKeysWithValues: Self.keysInOrder.enumerated().map { ($1, PropertyListValue.integer(Int64($0))) })
        #expect(sortedEntries(dictionary).map(\.key) == Self.keysInOrder)
        // A nested dictionary takes the space after its parent's and gives it back.
        let parent: [String: PropertyListValue] = ["b": .boolean(true), "a": .boolean(false)]
        var order = DictionaryKeyOrder()
        let outer = order.sort(parent)
        let inner = order.sort(dictionary)
        #expect(inner.map { dictionary.keys[order[$0]] } == Self.keysInOrder)
        order.release(inner)
        #expect(outer.map { parent.keys[order[$0]] } == ["a", "b"])
    }

    @Test func xmlKeysAreWrittenInThatOrder() throws {
        let dictionary = Dictionary(uniqueKeysWithValues: Self.keysInOrder.map { ($0, PropertyListValue.boolean(true)) })
        let xml = String(decoding: try XMLPropertyListWriter.data(from: .dictionary(dictionary)), as: UTF8.self)
        let written = xml.components(separatedBy: "\n").filter { $0.hasPrefix("\t<key>") }
            .map { String($0.dropFirst("\t<key>".count).dropLast("</key>".count)) }
        #expect(written == Self.keysInOrder)
    }

    /// Past its first allocation several times over, with pieces of every kind between.
    @Test func outputBufferKeepsEveryByteAsItGrows() {
        let buffer = XMLOutputBuffer(capacity: 64)
        var expected: [UInt8] = []
        for round in 0..<2_000 {
            buffer.append(UInt8(truncatingIfNeeded: round))
            expected.append(UInt8(truncatingIfNeeded: round))
            buffer.append("<key>")
            expected += Array("<key>".utf8)
            buffer.append(repeating: 0x09, count: round % 7)
            expected += [UInt8](repeating: 0x09, count: round % 7)
            buffer.appendDecimal(Int64(round) - 1_000)
            expected += Array(String(round - 1_000).utf8)
            let text = String(repeating: "é", count: round % 40)
            buffer.append(contentsOf: text)
            expected += Array(text.utf8)
        }
        #expect(buffer.count == expected.count)
        #expect(Array(buffer.takeData()) == expected)
        #expect(buffer.count == 0)
    }

    @Test(arguments: [Int64.min, Int64.min + 1, -10, -9, -1, 0, 1, 9, 10, 99, 100, Int64.max])
    func decimalsAreWrittenAsSwiftPrintsThem(_ value: Int64) {
        let buffer = XMLOutputBuffer()
        buffer.appendDecimal(value)
        #expect(String(decoding: buffer.takeData(), as: UTF8.self) == String(value))
    }

    @Test func unsignedDecimalsReachUInt64Max() {
        let buffer = XMLOutputBuffer()
        buffer.appendDecimal(UInt64.max)
        #expect(String(decoding: buffer.takeData(), as: UTF8.self) == "18446744073709551615")
    }

    /// The first and last second of the years the format holds, and the epochs around them.
    @Test func datesAreWrittenInTwentyBytesOrRefused() {
        let cases: [(Double, String?)] = [
            (0, "2001-01-01T00:00:00Z"), (-0.5, "2000-12-31T23:59:59Z"), (86_399.999, "2001-01-01T23:59:59Z"),
            (-978_307_200, "1970-01-01T00:00:00Z"), (-63_145_526_400, "0000-01-01T00:00:00Z"),
            (252_423_993_599, "9999-12-31T23:59:59Z"), (252_423_993_600, nil), (-63_145_526_401, nil), (.nan, nil),
        ]
        for (seconds, text) in cases {
            #expect(ISO8601Date.format(Date(timeIntervalSinceReferenceDate: seconds)) == text, "\(seconds)")
        }
    }

    /// One to four UTF-8 bytes per character, from UTF-16 units in a binary file.
    @Test func utf16StringsOfEveryEncodedLengthRead() throws {
        let text = "A\u{7F}\u{80}é\u{7FF}\u{800}東\u{FFFD}\u{FFFF}\u{10000}🎉\u{10FFFF}\u{0}z"
        let units = Array(text.utf16)
        var object: [UInt8] = [0x6F, 0x10, UInt8(units.count)]
        for unit in units { object += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        #expect(try BinaryPropertyListReader.read(CraftedBinary.file([object])) == .string(text))
    }
}
