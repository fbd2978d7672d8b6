import Foundation
import Testing
@testable import PropertyList

/// The first looks at a file: which reader it goes to, and which element a tag names.
@Suite struct FormatSniffingTests {
    @Test func everyElementIsFoundByItsNameAndOnlyByIt() {
        for tag in XMLTag.allCases {
            let name = Array(tag.name.utf8)
            #expect(name.withUnsafeBytes { XMLTag.named($0) } == tag)
            #expect((name + [UInt8(ascii: "s")]).withUnsafeBytes { XMLTag.named($0) } == nil, "\(tag.name)s")
            #expect(name.dropLast().withUnsafeBytes { XMLTag.named(UnsafeRawBufferPointer($0)) } == nil, "\(tag.name) cut short")
            #expect(Array(tag.name.uppercased().utf8).withUnsafeBytes { XMLTag.named($0) } == nil, "names are case-sensitive")
        }
        #expect([UInt8]().withUnsafeBytes { XMLTag.named($0) } == nil)
    }

    @Test func binaryListsAreKnownByTheirMagic() {
        #expect(BinaryPropertyListReader.hasMagic(Data("bplist00".utf8)))
        #expect(BinaryPropertyListReader.hasMagic(Data("bplist".utf8)))
        #expect(!BinaryPropertyListReader.hasMagic(Data("bplis".utf8)))
        #expect(!BinaryPropertyListReader.hasMagic(Data("<?xml".utf8)))
        #expect(!BinaryPropertyListReader.hasMagic(Data()))
        // A slice that does not start at index 0 is read from its own first byte.
        let padded = Data("xxbplist00".utf8)
        #expect(BinaryPropertyListReader.hasMagic(padded.dropFirst(2)))
    }

    @Test func xmlIsKnownPastAByteOrderMarkAndWhitespace() {
        #expect(XMLPropertyListReader.looksLikeXML(Data("<?xml".utf8)))
        #expect(XMLPropertyListReader.looksLikeXML(Data([0xEF, 0xBB, 0xBF]) + Data(" \n\t<plist>".utf8)))
        #expect(XMLPropertyListReader.looksLikeXML(Data([0xFE, 0xFF, 0, 0x3C])))
        #expect(XMLPropertyListReader.looksLikeXML(Data([0xFF, 0xFE, 0x3C, 0])))
        #expect(!XMLPropertyListReader.looksLikeXML(Data("{ a = b; }".utf8)))
        #expect(!XMLPropertyListReader.looksLikeXML(Data([0xEF, 0xBB, 0xBF])))
        #expect(!XMLPropertyListReader.looksLikeXML(Data()))
        #expect(XMLPropertyListReader.looksLikeXML(Data("xx <plist/>".utf8).dropFirst(2)))
    }
}
