import Foundation
import FuzzSupport
import KeyedArchive
import PropertyList

/// Feeds arbitrary bytes, XML or binary, to what `wonderland plist print` does: read under a user
/// file's limits, then render the tree. Whatever the file, the text must stay within the
/// printer's budget (it ends with a line saying where it stopped) and nothing may trap.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes else { return 0 }
    PrintCheck.check(Data(bytes: bytes, count: count))
    return 0
}

exit(runLibFuzzer(testOneInput))
