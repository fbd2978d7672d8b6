import Foundation
import Testing
@testable import PropertyList

/// Both directions against Python's plistlib.
@Suite struct PythonInteropTests {
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

    /// plistlib writes integers past Int64.max as 16-byte integers; they are refused with a
    /// typed error rather than wrapped.
    @Test func sixteenByteIntegersBeyondInt64AreAnOverflow() throws {
        let data = try pythonBinary("2**64 - 1")
        #expect(throws: PropertyListError.self) { try BinaryPropertyListReader.read(data) }
        do { _ = try BinaryPropertyListReader.read(data) } catch let error as PropertyListError {
            #expect(error.kind == .integerOverflow)
        }
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
