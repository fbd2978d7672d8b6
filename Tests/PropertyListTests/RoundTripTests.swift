import Foundation
import Testing
@testable import PropertyList

@Suite struct RoundTripTests {
    static let formats: [PropertyListFormat] = [.xml, .binary]

    @Test(arguments: formats)
    func mixedValueSurvives(format: PropertyListFormat) throws {
        let value = Fixtures.withUID(Fixtures.mixed)
        let data = try PropertyListSerializer.data(from: value, format: format)
        let (read, detected) = try PropertyListReader.read(data)
        #expect(detected == format)
        #expect(read == value)
    }

    @Test(arguments: formats)
    func everyScalarIsATopLevelValue(format: PropertyListFormat) throws {
        let scalars: [PropertyListValue] = [.string("x"), .integer(-7), .real(0.5), .boolean(true),
                                            .date(Date(timeIntervalSinceReferenceDate: 86_400)), .data(Data([9])), .uid(3)]
        for scalar in scalars {
            #expect(try PropertyListReader.value(from: PropertyListSerializer.data(from: scalar, format: format)) == scalar)
        }
    }

    @Test(arguments: formats)
    func outputIsDeterministic(format: PropertyListFormat) throws {
        let keys = (0..<200).map { "key\($0)" }
        let a = PropertyListValue.dictionary(Dictionary(uniqueKeysWithValues: keys.map { ($0, .string($0)) }))
        let b = PropertyListValue.dictionary(Dictionary(uniqueKeysWithValues: keys.reversed().map { ($0, .string($0)) }))
        #expect(try PropertyListSerializer.data(from: a, format: format) == PropertyListSerializer.data(from: b, format: format))
    }

    @Test func nanSurvivesBothFormats() throws {
        for format in Self.formats {
            let read = try PropertyListReader.value(from: PropertyListSerializer.data(from: .real(.nan), format: format))
            guard case .real(let r) = read else { Issue.record("not a real: \(read)"); continue }
            #expect(r.isNaN)
        }
    }

    @Test func xmlHasApplesHeaderAndSortedKeys() throws {
        let data = try PropertyListSerializer.data(from: .dictionary(["b": .integer(1), "a": .uid(2)]), format: .xml)
        #expect(String(decoding: data, as: UTF8.self) == """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>a</key>
            \t<dict>
            \t\t<key>CF$UID</key>
            \t\t<integer>2</integer>
            \t</dict>
            \t<key>b</key>
            \t<integer>1</integer>
            </dict>
            </plist>

            """)
    }

    @Test func binaryStoresEqualScalarsOnce() throws {
        let repeated = PropertyListValue.array(Array(repeating: .string("the same long string, many times"), count: 100))
        let data = try PropertyListSerializer.data(from: repeated, format: .binary)
        #expect(data.count < 200)
        #expect(try BinaryPropertyListReader.read(data) == repeated)
    }

    @Test func binaryKeepsCanonicallyEquivalentStringsApart() throws {
        let value = PropertyListValue.array([.string("caf\u{E9}"), .string("cafe\u{301}"), .real(0.0), .real(-0.0)])
        let read = try BinaryPropertyListReader.read(PropertyListSerializer.data(from: value, format: .binary))
        guard case .array(let a) = read, a.count == 4, case .string(let s1) = a[0], case .string(let s2) = a[1],
              case .real(let zero) = a[2], case .real(let negativeZero) = a[3] else {
            Issue.record("unexpected \(read)")
            return
        }
        #expect(Array(s1.utf8) == Array("caf\u{E9}".utf8))
        #expect(Array(s2.utf8) == Array("cafe\u{301}".utf8))
        #expect(zero.sign == .plus && negativeZero.sign == .minus)
    }

    @Test func xmlDatesKeepWholeSecondsOnly() throws {
        let data = try PropertyListSerializer.data(from: .date(Date(timeIntervalSinceReferenceDate: 10.75)), format: .xml)
        #expect(try XMLPropertyListReader.read(data) == .date(Date(timeIntervalSinceReferenceDate: 10)))
    }

    @Test func xmlRefusesDatesOutsideFourDigitYears() {
        #expect(throws: PropertyListError.self) {
            try PropertyListSerializer.data(from: .date(Date(timeIntervalSinceReferenceDate: 1e12)), format: .xml)
        }
    }

    /// Found by fuzzing: a binary UID past Int64.max was written as an XML <integer> that no
    /// reader can read back.
    @Test func xmlRefusesUIDsPastInt64() throws {
        #expect(throws: PropertyListError.self) {
            try PropertyListSerializer.data(from: .uid(UInt64(Int64.max) + 1), format: .xml)
        }
        let largest = PropertyListValue.uid(UInt64(Int64.max))
        #expect(try XMLPropertyListReader.read(PropertyListSerializer.data(from: largest, format: .xml)) == largest)
    }

    @Test(arguments: formats)
    func writersRefuseNestingPastTheLimit(format: PropertyListFormat) {
        var value = PropertyListValue.array([])
        for _ in 0..<PropertyListLimits.deepestNesting { value = .array([value]) }
        do {
            _ = try PropertyListSerializer.data(from: value, format: format)
            Issue.record("expected tooDeep")
        } catch let error as PropertyListError {
            #expect(error.kind == .tooDeep)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test(arguments: formats)
    func nestingAtTheLimitIsRead(format: PropertyListFormat) throws {
        var value = PropertyListValue.array([])
        for _ in 1..<PropertyListLimits.deepestNesting { value = .array([value]) }
        #expect(try PropertyListReader.value(from: PropertyListSerializer.data(from: value, format: format)) == value)
    }
}
