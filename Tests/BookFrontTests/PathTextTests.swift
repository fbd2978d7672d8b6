import Foundation
import Testing
@testable import BookFront

/// The path, title and completion helpers that stand in for Foundation's NSString and
/// directory enumerator give what those gave; the tests ask Foundation itself.
@Suite struct PathTextTests {
    static let paths = [
        "", "/", "//", "///", "a", "a/", "a//", "/a", "//a//b//", "book.txt", "/books/alice.TXT", "/books/alice.txt/",
        "archive.tar.gz", ".profile", "/home/.profile", "a.", "a..", "..", ".", "/..", "x/..", "x/.", "...", ".a.b",
        "dir.d/file", "dir.d/", "OEBPS/chapter 1.xhtml", "Ünïcödé/Straße.epub", "名前/本.md", "e\u{301}.t\u{301}xt", "/a.b/c",
    ]

    @Test func componentsAndExtensionsAsNSString() {
        for path in Self.paths {
            #expect(PathText.lastComponent(path) == (path as NSString).lastPathComponent, "lastPathComponent of \(path.debugDescription)")
            #expect(PathText.pathExtension(path) == (path as NSString).pathExtension, "pathExtension of \(path.debugDescription)")
            #expect(PathText.deletingExtension(path) == (path as NSString).deletingPathExtension, "deletingPathExtension of \(path.debugDescription)")
        }
    }

    @Test func gutenbergHeaderFoundInAnyCase() throws {
        let line = "The PROJECT gutenberg EBOOK OF Alice"
        let range = try #require(TitleDetector.rangeIgnoringCase(of: "Project Gutenberg eBook of ", in: line))
        #expect(line[range.upperBound...] == "Alice")
        #expect(TitleDetector.rangeIgnoringCase(of: "Project Gutenberg eBook of ", in: "Project Gutenberg eBook") == nil)
        #expect(TitleDetector.rangeIgnoringCase(of: "ab", in: "aab") == "aab".index(after: "aab".startIndex)..<"aab".endIndex)
    }

    @Test func titleLinesLoseBlanksAndByteOrderMarks() {
        let text = BookText("\u{FEFF}\u{3000} ALICE'S ADVENTURES \t\r\n\r\nDown the rabbit-hole.\n")
        #expect(TitleDetector.title(of: text, before: nil) == "Alice's Adventures")
        #expect(TitleDetector.title(of: BookText("Title:\u{A0} The Hunting of the Snark \n"), before: nil) == "The Hunting of the Snark")
    }

    @Test func completionListsAFolderAsFoundationsEnumeratorDid() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-names-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        for name in ["a.txt", ".hidden", "b c.md"] { try Data("x".utf8).write(to: folder.appendingPathComponent(name)) }
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/link", withDestinationPath: folder.path)
        for path in [folder.path, folder.path + "/", folder.path + "/sub/", folder.path + "/link", folder.path + "/link/",
                     folder.path + "/a.txt", folder.path + "/missing/"] {
            var expected: [String] = []
            if let enumerator = FileManager.default.enumerator(at: URL(fileURLWithPath: path), includingPropertiesForKeys: nil,
                                                               options: [.skipsSubdirectoryDescendants]) {
                while let url = enumerator.nextObject() as? URL { expected.append(url.lastPathComponent) }
            }
            #expect(PathCompletion.names(in: path).sorted() == expected.sorted(), "names in \(path)")
        }
        #expect(PathCompletion.names(in: folder.path).sorted() == [".hidden", "a.txt", "b c.md", "link", "sub"])
    }
}
