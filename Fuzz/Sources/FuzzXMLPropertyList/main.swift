import Foundation
import FuzzSupport
import PropertyList

/// Feeds arbitrary bytes to the XML reader. Anything it accepts must survive a round trip
/// through both writers, which also exercises them on odd values (NaN, control characters).
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes else { return 0 }
    guard let value = try? XMLPropertyListReader.read(Data(bytes: bytes, count: count)) else { return 0 }
    RoundTrip.check(value)
    return 0
}

exit(runLibFuzzer(testOneInput))
