import Foundation
import Testing
@testable import PropertyList
import PropertyListTestSupport

/// Damage that is easier to generate than to commit: every truncation and many corruptions of
/// valid files must end in a typed error or a value, never a trap.
@Suite struct HardeningTests {
    @Test(arguments: RoundTripTests.formats)
    func everyTruncationIsATypedError(format: PropertyListFormat) throws {
        let data = try PropertyListSerializer.data(from: .dictionary(["a": .array([.string("é"), .integer(300)])]),
                                                   format: format)
        // XML stays valid without its final newline.
        for length in 0..<data.count - (format == .xml ? 1 : 0) {
            #expect(throws: PropertyListError.self) { try PropertyListReader.read(data.prefix(length)) }
        }
    }

    @Test(arguments: RoundTripTests.formats)
    func corruptedBytesNeverTrap(format: PropertyListFormat) throws {
        let data = try PropertyListSerializer.data(from: Fixtures.withUID(Fixtures.mixed), format: format)
        var generator = SplitMix(seed: 42)
        for _ in 0..<2_000 {
            var damaged = data
            for _ in 0..<1 + Int(generator.next() % 4) {
                let index = Int(generator.next() % UInt64(damaged.count))
                damaged[index] = UInt8(truncatingIfNeeded: generator.next())
            }
            do { _ = try PropertyListReader.read(damaged) } catch is PropertyListError {}
        }
    }

    /// Ten levels of arrays that each hold the next level twice: 2^11 - 1 nodes from 11 objects.
    /// The reader decodes each object once and shares it.
    @Test func sharedReferencesAreDecodedOnce() throws {
        guard case .array(let top) = try BinaryPropertyListReader.read(CraftedBinary.sharedReferenceBomb(levels: 10)) else {
            Issue.record("top object is not an array")
            return
        }
        #expect(top.count == 2)
        #expect(top[0] == top[1])
    }

    @Test func xmlErrorsNameTheLine() {
        let xml = "<?xml version=\"1.0\"?>\n<plist>\n<array>\n<integer>x</integer>\n</array>\n</plist>\n"
        #expect(throws: PropertyListError(.malformedNumber, "\"x\" is not an integer", position: 4, unit: .line)) {
            try XMLPropertyListReader.read(Data(xml.utf8))
        }
    }

    @Test func binaryErrorsNameTheByteOffset() {
        // An array (offset 8) holding a reference to object 5 of 1: the bad reference is at byte 9.
        var file = Array("bplist00".utf8) + [0xA1, 0x05, 0x08, 0, 0, 0, 0, 0, 0, 1, 1]
        for field: UInt64 in [1, 0, 10] {
            file += (0..<8).reversed().map { UInt8(truncatingIfNeeded: field >> (8 * UInt64($0))) }
        }
        do {
            _ = try BinaryPropertyListReader.read(Data(file))
            Issue.record("expected an error")
        } catch let error as PropertyListError {
            #expect(error.kind == .referenceOutOfRange)
            #expect(error.position == 9 && error.unit == .byteOffset)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func xmlAcceptsCommentsCDATAEntitiesAndLineEnds() throws {
        let xml = "<?xml version=\"1.0\"?>\r\n<!-- c -->\n<plist version=\"1.0\"><dict><!-- c --><key>a&amp;b</key>"
            + "<string>x<![CDATA[<&>]]>&#x1F407;&#65;\r\ny<!-- c --></string><key>n</key><integer> 0x1F </integer>"
            + "<key>e</key><string/><key>t</key><true></true></dict></plist>"
        #expect(try XMLPropertyListReader.read(Data(xml.utf8)) == .dictionary([
            "a&b": .string("x<&>🐇A\ny"), "n": .integer(31), "e": .string(""), "t": .boolean(true),
        ]))
    }
}

/// Deterministic pseudo-random numbers, so a failure reproduces.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Test func errorDescriptionsNameKindAndPlace() {
    #expect(PropertyListError(.truncated, "short", position: 12, unit: .byteOffset).description
        == "truncated at byte offset 12: short")
    #expect(PropertyListError(.unknownTag, "<set>", position: 3, unit: .line).description == "unknownTag at line 3: <set>")
}

/// The declaration's "encoding" is found as Characters, as NSString's search found it: a
/// combining mark after the word makes it another word; one before it joins the space.
@Test func encodingIsFoundAsCharacters() throws {
    let declaredAfterMark = Data("<?xml version=\"1.0\" \u{301}encoding=\"UTF-16\"?>\n<plist><true/></plist>\n".utf8)
    let refused = #expect(throws: PropertyListError.self) { try PropertyListReader.read(declaredAfterMark) }
    #expect(refused?.kind == .unsupportedEncoding)
    let anotherWord = Data("<?xml version=\"1.0\" encoding\u{301}=\"UTF-16\"?>\n<plist><true/></plist>\n".utf8)
    #expect(try PropertyListReader.read(anotherWord).value == .boolean(true))
}
