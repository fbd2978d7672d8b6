import Foundation
import Testing
@testable import PropertyList

/// Both directions against swift-corelibs-foundation's `PropertyListSerialization`.
@Suite struct FoundationInteropTests {
    @Test(arguments: RoundTripTests.formats)
    func foundationReadsWhatWeWrite(format: PropertyListFormat) throws {
        let data = try PropertyListSerializer.data(from: Fixtures.mixed, format: format)
        #expect(try FoundationBridge.read(data) == Fixtures.mixed)
    }

    @Test(arguments: RoundTripTests.formats)
    func weReadWhatFoundationWrites(format: PropertyListFormat) throws {
        let data = try FoundationBridge.write(Fixtures.mixed, format: format)
        let (value, detected) = try PropertyListReader.read(data)
        #expect(detected == format)
        #expect(value == Fixtures.mixed)
    }

    @Test(arguments: RoundTripTests.formats)
    func foundationReadsOurUIDs(format: PropertyListFormat) throws {
        let value = PropertyListValue.array([.uid(0), .uid(7), .uid(300), .uid(70_000)])
        #expect(try FoundationBridge.read(PropertyListSerializer.data(from: value, format: format)) == value)
    }

    /// Foundation writes UIDs only inside keyed archives, in either format.
    @Test(arguments: RoundTripTests.formats)
    func weReadFoundationsUIDs(format: PropertyListFormat) throws {
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        archiver.outputFormat = format == .xml ? .xml : .binary
        archiver.encode("Alice" as NSString, forKey: "root")
        archiver.finishEncoding()
        let (value, detected) = try PropertyListReader.read(archiver.encodedData)
        #expect(detected == format)
        guard case .dictionary(let archive) = value, case .dictionary(let top)? = archive["$top"],
              case .uid(let root)? = top["root"], case .array(let objects)? = archive["$objects"],
              Int(root) < objects.count else {
            Issue.record("no UID for root in \(value)")
            return
        }
        #expect(objects[Int(root)] == .string("Alice"))
    }
}
