import Foundation
import Testing
import KeyedArchive
import PropertyList

/// Archives other programs wrote print their mutable Foundation kinds as the immutable ones,
/// and a keyed archive kept as a data value prints as its tree when asked.
@Suite struct ArchivedDataPrintingTests {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../shared/interop/archive").standardizedFileURL

    static func printed(_ relativePath: String) throws -> String {
        let data = try Data(contentsOf: corpus.appendingPathComponent(relativePath))
        return try PropertyListPrinter.render(PropertyListReader.read(data).value)
    }

    /// bpylist2 writes NSMutableData's bytes one reference away; it used to print as malformed.
    @Test func mutableDataPrintsAsItsBytes() throws {
        #expect(try Self.printed("bpylist2/nsmutabledata_archive.plist") == "NSKeyedArchiver archive, 4 objects\nroot => <5 bytes 68656c6c6f>\n")
    }

    /// Foundation writes an ordered set's members as NS.object.0, NS.object.1, …
    @Test func orderedSetsPrintTheirMembersInOrder() throws {
        let text = try Self.printed("swift-corelibs-foundation/macOS-10.14/NSMutableOrderedSet-Numbers.archive")
        #expect(text.contains("root => NSMutableOrderedSet #1 [\n  0 => 1\n  1 => 2\n  2 => 3\n  3 => 4\n  4 => 5\n]"))
    }

    @Test func noValidArchiveInTheCorpusPrintsAsMalformed() throws {
        let walker = try #require(FileManager.default.enumerator(at: Self.corpus, includingPropertiesForKeys: nil))
        var printed = 0
        for case let url as URL in walker where !url.path.contains("/invalid/") && url.pathExtension != "md" && !url.hasDirectoryPath {
            guard let value = try? PropertyListReader.read(Data(contentsOf: url)).value else { continue }
            let text = try PropertyListPrinter.render(value)
            #expect(!text.contains("(malformed)"), "\(url.lastPathComponent)")
            printed += 1
        }
        #expect(printed >= 40)
    }

    @Test func archivedDataInAPlainListPrintsAsATreeWhenAsked() throws {
        let inner = try Data(contentsOf: Self.corpus.appendingPathComponent("swift-corelibs-foundation/NSKeyedUnarchiver-ArrayTest.plist"))
        let outer = PropertyListValue.dictionary(["saved": .data(inner)])
        #expect(try PropertyListPrinter.render(outer).contains("\"saved\" => <\(inner.count) bytes"))
        let tree = try PropertyListPrinter.render(outer, decodingArchivedData: true)
        #expect(tree.contains("\"saved\" => NSKeyedArchiver archive,"))
        #expect(tree.contains("    0 => \"baa\""))
    }

    /// Every line of a nested tree is indented under its key, the line feed of a "\r\n" in a
    /// class name too (as NSString's replacement did); the bytes print as two hex digits each.
    @Test func nestedTreeLinesStayUnderTheirKey() throws {
        let className = "Odd\r\nName"
        let archive = PropertyListValue.dictionary([
            "$archiver": .string("NSKeyedArchiver"),
            "$version": .integer(100_000),
            "$top": .dictionary(["root": .uid(1)]),
            "$objects": .array([
                .string("$null"),
                .dictionary(["$class": .uid(2), "bytes": .data(Data([0x00, 0x0a, 0xff]))]),
                .dictionary(["$classname": .string(className), "$classes": .array([.string(className), .string("NSObject")])]),
            ]),
        ])
        let inner = try PropertyListSerializer.data(from: archive, format: .binary)
        let tree = try PropertyListPrinter.render(.dictionary(["saved": .data(inner)]), decodingArchivedData: true)
        #expect(tree == """
            {
              "saved" => NSKeyedArchiver archive, 3 objects
              root => Odd\r
              Name #1 {
                "bytes" => <3 bytes 000aff>
              }
            }

            """)
    }
}
