import Foundation
import PropertyListTestSupport
import Testing
@testable import PropertyList

/// Integers across Int64.min...UInt64.max, as Apple reads and writes them.
@Suite struct WideIntegerTests {
    static let edges: [PropertyListValue] = [
        .integer(Int64.min), .integer(-1), .integer(0), .integer(Int64.max),
        .unsignedInteger(UInt64(Int64.max) + 1), .unsignedInteger(UInt64.max),
    ]

    @Test(arguments: RoundTripTests.formats)
    func everyEdgeRoundTripsExactly(format: PropertyListFormat) throws {
        let value = PropertyListValue.array(Self.edges)
        #expect(try PropertyListReader.read(PropertyListSerializer.data(from: value, format: format)).value == value)
    }

    /// Apple writes a value above Int64.max as marker 0x14 and sixteen big-endian bytes, high half zero.
    @Test func binaryWritesSixteenBytesAboveInt64Only() throws {
        let big = try BinaryPropertyListWriter.data(from: .unsignedInteger(UInt64.max))
        #expect(Array(big[8..<25]) == [0x14] + [UInt8](repeating: 0, count: 8) + [UInt8](repeating: 0xFF, count: 8))
        let largestSigned = try BinaryPropertyListWriter.data(from: .integer(Int64.max))
        #expect(largestSigned[8] == 0x13)
    }

    /// A 16-byte integer (marker 0x14) as its high and low halves, with the value CF's reader
    /// gives: the low half, unsigned, whatever the high half holds.
    struct SixteenBytes: Sendable, CustomTestStringConvertible {
        let high: UInt64
        let low: UInt64
        let read: PropertyListValue

        var file: Data {
            CraftedBinary.file([[0x14] + CraftedBinary.bigEndian(high, size: 8) + CraftedBinary.bigEndian(low, size: 8)])
        }

        var testDescription: String { "high \(high) low \(low)" }
    }

    static let sixteenByteIntegers: [SixteenBytes] = [
        SixteenBytes(high: 0, low: 5, read: .integer(5)),
        SixteenBytes(high: 0, low: UInt64(Int64.max) + 44, read: .unsignedInteger(UInt64(Int64.max) + 44)),
        SixteenBytes(high: 0, low: UInt64.max, read: .unsignedInteger(UInt64.max)),
        // 2^64: the low half is zero.
        SixteenBytes(high: 1, low: 0, read: .integer(0)),
        // The halves of go-plist's int128.bplist.
        SixteenBytes(high: 0x0102_0304_0506_0708, low: 0x090A_0B0C_0D0E_0F10, read: .integer(0x090A_0B0C_0D0E_0F10)),
        // -1, -(2^63) - 1 and -(2^63) in 128 bits: CF does not sign-extend, so these are unsigned.
        SixteenBytes(high: UInt64.max, low: UInt64.max, read: .unsignedInteger(UInt64.max)),
        SixteenBytes(high: UInt64.max, low: UInt64(Int64.max), read: .integer(Int64.max)),
        SixteenBytes(high: UInt64.max, low: 1 << 63, read: .unsignedInteger(1 << 63)),
    ]

    @Test(arguments: sixteenByteIntegers)
    func sixteenByteIntegersKeepTheirLow64BitsAsCFDoes(_ integer: SixteenBytes) throws {
        #expect(try BinaryPropertyListReader.read(integer.file) == integer.read)
    }

    /// Written back, in either format, the number is the one CF would write: XML shows CF's
    /// decimal of the low half, and binary reads back to it.
    @Test(arguments: sixteenByteIntegers)
    func sixteenByteIntegersWriteBackTheValueCFReads(_ integer: SixteenBytes) throws {
        let value = try BinaryPropertyListReader.read(integer.file)
        let xml = String(decoding: try XMLPropertyListWriter.data(from: value), as: UTF8.self)
        #expect(xml.contains("<integer>\(integer.low)</integer>\n"))
        #expect(try XMLPropertyListReader.read(Data(xml.utf8)) == integer.read)
        #expect(try BinaryPropertyListReader.read(BinaryPropertyListWriter.data(from: value)) == integer.read)
    }

    @Test func xmlReadsTheWholeRangeAndNoFurther() throws {
        func read(_ digits: String) throws -> PropertyListValue {
            try XMLPropertyListReader.read(Data("<plist><integer>\(digits)</integer></plist>".utf8))
        }
        #expect(try read("18446744073709551615") == .unsignedInteger(UInt64.max))
        #expect(try read("9223372036854775808") == .unsignedInteger(1 << 63))
        #expect(try read("9223372036854775807") == .integer(Int64.max))
        #expect(try read("-9223372036854775808") == .integer(Int64.min))
        #expect(try read("0xFFFFFFFFFFFFFFFF") == .unsignedInteger(UInt64.max))
        #expect(throws: PropertyListError.self) { try read("18446744073709551616") }
        #expect(throws: PropertyListError.self) { try read("-9223372036854775809") }
    }

    @Test func smallUnsignedValuesTakeTheSignedForm() {
        #expect(PropertyListValue.integer(unsigned: 5) == .integer(5))
        #expect(PropertyListValue.integer(unsigned: UInt64.max) == .unsignedInteger(UInt64.max))
        #expect(PropertyListValue.unsignedInteger(UInt64.max).integerText == "18446744073709551615")
        #expect(PropertyListValue.unsignedInteger(UInt64.max).kindName == "integer")
    }
}

/// A key given twice in one dictionary: CF, plistlib and go-plist keep the last; so do we, with a warning.
@Suite struct DuplicateKeyTests {
    @Test func xmlKeepsTheLastAndWarns() throws {
        let xml = "<plist>\n<dict>\n<key>a</key><true/>\n<key>a</key><false/>\n<key>b</key><true/>\n</dict>\n</plist>"
        let result = try PropertyListReader.lint(Data(xml.utf8))
        #expect(result.value == .dictionary(["a": .boolean(false), "b": .boolean(true)]))
        #expect(result.warnings.count == 1)
        #expect(result.warnings.kept.first?.kind == .duplicateKey)
        #expect(result.warnings.kept.first?.position == 4)
        #expect(try XMLPropertyListReader.read(Data(xml.utf8)) == result.value)
    }

    /// Built by hand: a dictionary whose two keys reference the same string object.
    @Test func binaryKeepsTheLastAndWarns() throws {
        // objects: 0 dict {1: 2, 1: 3}, 1 "k", 2 true, 3 false
        var bytes: [UInt8] = Array("bplist00".utf8)
        let offsets = [bytes.count]
        bytes += [0xD2, 1, 1, 2, 3]
        let more = [bytes.count, bytes.count + 2, bytes.count + 3]
        bytes += [0x51, UInt8(ascii: "k"), 0x09, 0x08]
        let table = bytes.count
        bytes += (offsets + more).map(UInt8.init)
        bytes += [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 4] + [UInt8](repeating: 0, count: 8)
            + [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
        let result = try PropertyListReader.lint(Data(bytes))
        #expect(result.value == .dictionary(["k": .boolean(false)]))
        #expect(result.warnings.kept.map(\.kind) == [.duplicateKey])
    }

    @Test func warningsAreBoundedButCounted() throws {
        let entries = String(repeating: "<key>a</key><true/>", count: PropertyListWarnings.keptLimit + 50)
        let result = try PropertyListReader.lint(Data("<plist><dict>\(entries)</dict></plist>".utf8))
        #expect(result.warnings.kept.count == PropertyListWarnings.keptLimit)
        #expect(result.warnings.count == PropertyListWarnings.keptLimit + 49)
    }
}
