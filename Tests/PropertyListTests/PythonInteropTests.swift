import Foundation
import TestPrerequisites
import Testing
@testable import PropertyList

/// Both directions against Python's plistlib.
@Suite(.requires(.python3)) struct PythonInteropTests {
    /// plistlib's XML writer has no UID form, so UIDs go through the binary format only.
    static func fixture(_ format: PropertyListFormat) -> PropertyListValue {
        format == .binary ? Fixtures.withUID(Fixtures.mixed) : Fixtures.mixed
    }

    @Test(arguments: RoundTripTests.formats)
    func plistlibReadsWhatWeWrite(format: PropertyListFormat) throws {
        let value = Self.fixture(format)
        #expect(try Python.describe(PropertyListSerializer.data(from: value, format: format)) == value)
    }

    @Test(arguments: RoundTripTests.formats)
    func weReadWhatPlistlibWrites(format: PropertyListFormat) throws {
        let value = Self.fixture(format)
        let (read, detected) = try PropertyListReader.read(Python.write(value, format: format))
        #expect(detected == format)
        #expect(read == value)
    }

    /// plistlib writes integers past Int64.max as 16-byte integers, as Apple does, and negatives
    /// in 8 bytes; both ends of Int64.min...UInt64.max read exactly (beyond, which plistlib will
    /// not write, keeps its low 64 bits as CF does: see WideIntegerTests).
    @Test func sixteenByteIntegersReadAcrossTheWholeRange() throws {
        #expect(try BinaryPropertyListReader.read(pythonBinary("2**64 - 1")) == .unsignedInteger(UInt64.max))
        #expect(try BinaryPropertyListReader.read(pythonBinary("2**63")) == .unsignedInteger(1 << 63))
        #expect(try BinaryPropertyListReader.read(pythonBinary("-2**63")) == .integer(Int64.min))
    }

    /// What we write above Int64.max, plistlib reads as the same number, in both formats.
    @Test(arguments: RoundTripTests.formats)
    func plistlibReadsOurLargeIntegers(format: PropertyListFormat) throws {
        let value = PropertyListValue.array([.unsignedInteger(UInt64.max), .integer(Int64.min), .unsignedInteger(1 << 63)])
        #expect(try Python.describe(PropertyListSerializer.data(from: value, format: format)) == value)
    }

    private func pythonBinary(_ expression: String) throws -> Data {
        let file = try TemporaryFile(Data())
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c",
                             "import plistlib,sys; open(sys.argv[1],'wb').write(plistlib.dumps(\(expression), fmt=plistlib.FMT_BINARY))",
                             file.path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return try Data(contentsOf: URL(fileURLWithPath: file.path))
    }
}
