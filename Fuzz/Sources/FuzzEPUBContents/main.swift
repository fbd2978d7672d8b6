import Foundation
import FuzzSupport
import FuzzBookSupport

/// Feeds arbitrary bytes to the EPUB loader as the files inside a well-formed zip, so mutations
/// reach container.xml, the OPF, the XHTML and the nav/NCX rather than failing at the zip's CRC.
/// Input layout: files separated by `EPUBFiles.marker`, each "path\ncontents"; the harness puts
/// the "mimetype" entry first and zips them with StoredZip. Oracle as FuzzEPUB (BookCheck).

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes else { return 0 }
    let files = EPUBFiles.split(Data(bytes: bytes, count: count))
    BookCheck.loadEPUB(StoredZip.archive([("mimetype", Data("application/epub+zip".utf8))] + files))
    return 0
}

exit(runLibFuzzer(testOneInput))
