import Foundation
import Testing
@testable import BookFront

/// The real EPUBs of ../shared/interop/epub (read in place, never copied into the project), read
/// through `EPUBArchive`: the same files and the same bytes as Python's zipfile gives, which
/// the archive reader used before ours (ZIPFoundation) gave too.
@Suite("EPUB archive (interop corpus)")
struct EPUBArchiveInteropTests {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../shared/interop/epub").standardizedFileURL

    /// Each book: its files, their bytes in all, and FNV-1a 64 over every file's path, a NUL and
    /// its bytes, in path order.
    static let books: [(name: String, files: Int, bytes: Int, digest: UInt64)] = [
        ("epubjs-alice.epub", 45, 583_693, 0xEA81_CD76_6206_87AE),
        ("epubjs-alice_without_cover.epub", 6, 5_054, 0x0885_50CC_3B7D_196B),
        ("childrens-literature.epub", 10, 413_448, 0x04D7_60DF_49C9_8BB4),
        ("regime-anticancer-arabic.epub", 11, 181_347, 0x9C8C_65F9_492D_9D34),
    ]

    static func fnv1a(_ bytes: some Sequence<UInt8>, _ start: UInt64 = 0xCBF2_9CE4_8422_2325) -> UInt64 {
        var hash = start
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }

    @Test(arguments: books.map(\.name))
    func everyFileReadsBackAsZipfileReadsIt(name: String) throws {
        let expected = try #require(Self.books.first { $0.name == name })
        let archive = try EPUBArchive(path: Self.corpus.appendingPathComponent(name).path)
        let paths = archive.paths.sorted()
        #expect(paths.count == expected.files)
        #expect(paths.contains("META-INF/container.xml"))
        var digest = Self.fnv1a([])
        var total = 0
        for path in paths {
            let data = try #require(try archive.read(path), "\(path) listed but not read")
            total += data.count
            digest = Self.fnv1a(Array(path.utf8) + [0] + Array(data), digest)
        }
        #expect(total == expected.bytes)
        #expect(digest == expected.digest)
        #expect(try archive.read("mimetype").map { String(decoding: $0, as: UTF8.self) } == "application/epub+zip")
        #expect(try archive.read("no/such/file.xhtml") == nil)
    }
}
