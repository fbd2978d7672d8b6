import Foundation
import FuzzSupport
import KeyedArchive
import PropertyList

/// The printer on keyed archives: the same check as FuzzPlistPrint, started from archives (this
/// target's seeds and dictionary hold `$objects`, `$top`, class tables and UIDs), so the time goes
/// to resolving objects, classes and shared references rather than to plist syntax.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes else { return 0 }
    PrintCheck.check(Data(bytes: bytes, count: count))
    return 0
}

exit(runLibFuzzer(testOneInput))
