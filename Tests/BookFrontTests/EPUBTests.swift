import Testing
import Foundation
@testable import BookFront

@Suite struct EPUBTests {
    private func load(_ zip: ZipWriter, name: String = "book.epub") throws -> BookDocument {
        let path = try zip.write(name: name)
        defer { BookFixture.remove(path) }
        return try BookLoader.load(path: path)
    }

    private func reason(_ zip: ZipWriter, name: String = "book.epub") throws -> String? {
        let path = try zip.write(name: name)
        defer { BookFixture.remove(path) }
        do {
            _ = try BookLoader.load(path: path)
            return nil
        } catch let error as BookLoadError {
            return error.reason
        }
    }

    private func whole(_ document: BookDocument) -> String { document.text.string(0..<document.text.count) }

    @Test func anEPUB3ReadsTheSpineInOrderWithItsNavContents() throws {
        let document = try load(EPUBFixture.epub3())
        #expect(document.format == .epub)
        #expect(document.title == "The Lamplighter's Niece")
        #expect(whole(document) == """
        The Lamp

        Nell lived above the chandler's shop at the end of Tallow Lane.

        She set a lamp in the window,
        every evening, for her uncle.

        The Night

        Caf\u{E9} & tea\u{A0}at nine \u{2014} said the note.

        The Letter

        A letter with no stamp lay at the foot of the stairs.

        """)
        #expect(document.chapters.map(\.title) == ["One: The Lamp", "The Night", "Two: The Letter"])
        #expect(document.chapters.map(\.level) == [0, 1, 0])
        #expect(document.chapters.map { document.text.string($0.offset..<($0.offset + 9)) } == ["The Lamp\n", "The Night", "The Lette"])
        #expect(document.notes.isEmpty)
    }

    @Test func emphasisAndHeadingsBecomeRanges() throws {
        let document = try load(EPUBFixture.epub3())
        let ranges = document.emphasis.map { (document.text.string($0.range), $0.kind) }
        #expect(ranges.filter { $0.1 == .emphasis }.map(\.0) == ["chandler's", "no stamp"])
        #expect(ranges.filter { $0.1 == .strong }.map(\.0) == ["uncle"])
        #expect(ranges.filter { $0.1 == .heading }.map(\.0) == ["The Lamp", "The Night", "The Letter"])
    }

    @Test func anEPUB2ReadsItsNCXAndTheDTDsNamedEntities() throws {
        let document = try load(EPUBFixture.epub2())
        #expect(document.chapters.map(\.title) == ["I. The Lamp", "The Night", "II. The Letter"])
        #expect(document.chapters.map(\.level) == [0, 1, 0])
        #expect(whole(document).contains("no stamp\u{2014}none"))
        #expect(whole(document).contains("tea\u{A0}at nine"))
    }

    @Test func withoutATableOfContentsTheHeadingsAreTheChapters() throws {
        var zip = EPUBFixture.epub3()
        zip.replace("OEBPS/content.opf", with: EPUBFixture.opf())
        let document = try load(zip)
        #expect(document.chapters.map(\.title) == ["The Lamp", "The Night", "The Letter"])
        #expect(document.chapters.map(\.level) == [0, 1, 0])
    }

    @Test func theSameBookGetsTheSameIdAndAnotherBookAnother() throws {
        let first = try load(EPUBFixture.epub3(), name: "a.epub")
        let second = try load(EPUBFixture.epub3(), name: "b.epub")
        let other = try load(EPUBFixture.epub2())
        #expect(first.id == second.id)
        #expect(first.id != other.id)
    }

    @Test func anEPUBNamedLikeTextIsStillOpenedAsEPUB() throws {
        #expect(try load(EPUBFixture.epub3(), name: "book.txt").format == .epub)
    }

    @Test func entriesLeavingTheArchiveAreRefused() throws {
        for bad in ["../escape.txt", "OEBPS/../../escape.txt", "/etc/passwd", "..\\windows.txt", "C:/boot.ini"] {
            var zip = EPUBFixture.epub3()
            zip.add(bad, "gotcha")
            #expect(try reason(zip) == "refused: the archive holds a file whose path leaves it (\(bad))")
        }
    }

    @Test func anEntryClaimingAHugeSizeIsRefused() throws {
        var zip = EPUBFixture.epub3()
        zip.entries.removeAll { $0.path == "OEBPS/text/two.xhtml" }
        zip.add("OEBPS/text/two.xhtml", EPUBFixture.chapterTwo, claimedSize: 300 << 20)
        #expect(try reason(zip) == "refused: OEBPS/text/two.xhtml is too big once unpacked (the limit is 64 MB a file, 200 MB in all)")
    }

    @Test func anEntryBiggerThanItClaimsIsRefused() throws {
        var zip = EPUBFixture.epub3()
        zip.entries.removeAll { $0.path == "OEBPS/text/two.xhtml" }
        zip.add("OEBPS/text/two.xhtml", EPUBFixture.chapterTwo, claimedSize: 10, deflated: true)
        let refused = try reason(zip)
        #expect(refused == "refused: OEBPS/text/two.xhtml is too big once unpacked (the limit is 64 MB a file, 200 MB in all)")

        // The same entry, honest about its size, opens: the deflate stream itself is fine.
        var honest = EPUBFixture.epub3()
        honest.entries.removeAll { $0.path == "OEBPS/text/two.xhtml" }
        honest.add("OEBPS/text/two.xhtml", EPUBFixture.chapterTwo, deflated: true)
        #expect(try load(honest).chapters.count == 3)
    }

    @Test func drmProtectedBooksSaySo() throws {
        var encrypted = EPUBFixture.epub3()
        encrypted.add("META-INF/encryption.xml", """
        <encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#">
          <enc:EncryptedData><enc:EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes128-cbc"/>
            <enc:CipherData><enc:CipherReference URI="OEBPS/text/one.xhtml"/></enc:CipherData></enc:EncryptedData>
        </encryption>
        """)
        #expect(try reason(encrypted) == "is DRM-protected: cannot be opened")

        var adobe = EPUBFixture.epub3()
        adobe.add("META-INF/rights.xml", "<rights/>")
        #expect(try reason(adobe) == "is DRM-protected: cannot be opened")

        // Obfuscated fonts are not DRM: the book opens.
        var fonts = EPUBFixture.epub3()
        fonts.add("META-INF/encryption.xml", """
        <encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#">
          <enc:EncryptedData><enc:EncryptionMethod Algorithm="http://www.idpf.org/2008/embedding"/>
            <enc:CipherData><enc:CipherReference URI="OEBPS/font.otf"/></enc:CipherData></enc:EncryptedData>
        </encryption>
        """)
        #expect(try load(fonts).chapters.count == 3)
    }

    @Test func entityDeclarationsAreNeverExpanded() throws {
        let laughs = (1...9).map { level in
            "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">"
        }.joined(separator: "\n")
        let bomb = """
        <?xml version="1.0"?>
        <!DOCTYPE html [
          <!ENTITY lol0 "lol">
        \(laughs)
        ]>
        <html xmlns="http://www.w3.org/1999/xhtml"><body><h1>Laughs</h1><p>&lol9;</p></body></html>
        """
        var zip = EPUBFixture.epub3()
        zip.replace("OEBPS/text/two.xhtml", with: bomb)
        let document = try load(zip)
        #expect(!whole(document).contains("lollol"))
        #expect(whole(document).contains("&lol9;"))
        #expect(document.notes.contains("two.xhtml declares XML entities; they were not expanded."))

        // In the package file too: the book still opens, without expansion.
        var package = EPUBFixture.epub3()
        package.replace("OEBPS/content.opf", with: EPUBFixture.opf(title: "&lol9;").replacingOccurrences(
            of: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>", with: "<?xml version=\"1.0\"?>\n<!DOCTYPE package [ <!ENTITY lol0 \"lol\">\n\(laughs) ]>"))
        #expect(try load(package).title == "&lol9;")
    }

    @Test func malformedBooksGetAClearMessage() throws {
        var noContainer = EPUBFixture.epub3()
        noContainer.remove("META-INF/container.xml")
        #expect(try reason(noContainer) == "is not a valid EPUB (META-INF/container.xml is missing)")

        var brokenPackage = EPUBFixture.epub3()
        brokenPackage.replace("OEBPS/content.opf", with: "<package><metadata></package>")
        let brokenReason = try reason(brokenPackage)
        #expect(brokenReason == "is not a valid EPUB (OEBPS/content.opf is malformed XML at line 1)")

        var noPackage = EPUBFixture.epub3()
        noPackage.remove("OEBPS/content.opf")
        #expect(try reason(noPackage) == "is not a valid EPUB (its package file OEBPS/content.opf is missing)")

        var emptySpine = EPUBFixture.epub3()
        emptySpine.remove("OEBPS/text/one.xhtml")
        emptySpine.remove("OEBPS/text/two.xhtml")
        #expect(try reason(emptySpine) == "has no readable text")

        let notZip = try BookFixture.write("Just some text.\n", name: "fake.epub")
        defer { BookFixture.remove(notZip) }
        #expect(throws: BookLoadError.self) { try BookLoader.load(path: notZip) }
        do { _ = try BookLoader.load(path: notZip) } catch let error as BookLoadError {
            #expect(error.reason == "is not a valid EPUB (it is not a zip archive)")
        }

        var truncated = EPUBFixture.epub3().data()
        truncated.removeLast(40)  // the end-of-central-directory record
        let cut = try BookFixture.write(Array(truncated), name: "cut.epub")
        defer { BookFixture.remove(cut) }
        do { _ = try BookLoader.load(path: cut); Issue.record("a truncated archive opened") } catch let error as BookLoadError {
            #expect(error.reason == "is not a valid EPUB (the zip archive cannot be read)")
        }
    }

    @Test func aMalformedChapterKeepsItsTextUpToTheErrorAndSaysSo() throws {
        var zip = EPUBFixture.epub3()
        zip.replace("OEBPS/text/two.xhtml", with: "<html><body><p>Half a letter <em>then</p></body></html>")
        let document = try load(zip)
        #expect(whole(document).contains("Half a letter then"))
        #expect(document.notes.contains { $0.hasPrefix("two.xhtml is malformed at line 1") }, "\(document.notes)")
    }

    @Test func hrefsResolveInsideTheArchiveOnly() {
        #expect(EPUBArchive.resolve("text/one.xhtml#night", relativeTo: "OEBPS/nav.xhtml")! == ("OEBPS/text/one.xhtml", "night"))
        #expect(EPUBArchive.resolve("../Text/Chapter%201.xhtml", relativeTo: "OEBPS/nav/nav.xhtml")! == ("OEBPS/Text/Chapter 1.xhtml", nil))
        #expect(EPUBArchive.resolve("#top", relativeTo: "OEBPS/one.xhtml")! == ("OEBPS/one.xhtml", "top"))
        #expect(EPUBArchive.resolve("../../../etc/passwd", relativeTo: "OEBPS/nav.xhtml") == nil)
        #expect(EPUBArchive.resolve("https://example.org/x.xhtml", relativeTo: "OEBPS/nav.xhtml") == nil)
    }
}
