import Foundation
import FuzzSupport
import FuzzBookSupport

/// Feeds arbitrary bytes to the book loader as a .epub file: the zip container, its entry
/// paths and sizes, then container.xml, the OPF, the XHTML and the table of contents. The
/// answer must be a sane book or a BookLoadError (see BookCheck); nothing may trap.
/// Mutated zips mostly fail their CRCs; FuzzEPUBContents reaches the XML behind them.

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes else { return 0 }
    BookCheck.loadEPUB(Data(bytes: bytes, count: count))
    return 0
}

exit(runLibFuzzer(testOneInput))
