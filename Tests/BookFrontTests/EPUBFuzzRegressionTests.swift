import Foundation
import Testing
@testable import BookFront

/// Inputs the EPUB fuzz targets (Fuzz/FuzzEPUB, Fuzz/FuzzEPUBContents) crashed on, kept as they
/// were minimized. Each must now give a book or a BookLoadError.
@Suite struct EPUBFuzzRegressionTests {
    private func outcome(_ zip: ZipWriter) throws -> Result<BookDocument, BookLoadError> {
        let path = try zip.write(name: "fuzz.epub")
        defer { BookFixture.remove(path) }
        do {
            return .success(try BookLoader.load(path: path))
        } catch let error as BookLoadError {
            return .failure(error)
        }
    }

    /// Minimized FuzzEPUBContents crash: container.xml is `<\xF4ip/`, an element name with a
    /// broken UTF-8 sequence, which libxml2 passed on and Foundation's XMLParser trapped on.
    @Test func anElementNameWithInvalidUTF8InContainerXMLIsRefusedNotACrash() throws {
        var zip = EPUBFixture.epub3()
        zip.remove("META-INF/container.xml")
        zip.entries.append(ZipWriter.Entry(path: "META-INF/container.xml", bytes: [0x3C, 0xF4, 0x69, 0x70, 0x2F]))
        guard case .failure(let error) = try outcome(zip) else {
            Issue.record("a container.xml with no rootfile was accepted")
            return
        }
        #expect(error.reason.contains("container.xml"), "\(error)")
    }

    /// The same broken name inside a chapter: the book still opens, with the rest of its text.
    @Test func anElementNameWithInvalidUTF8InAChapterKeepsTheBook() throws {
        var zip = EPUBFixture.epub3()
        zip.remove("OEBPS/text/two.xhtml")
        let parts = EPUBFixture.chapter("The Letter", "<p>A letter <BROKEN/> arrived.</p>").components(separatedBy: "BROKEN")
        let bytes = Array(parts[0].utf8) + [0xF4, 0x78] + Array(parts[1].utf8)
        zip.entries.append(ZipWriter.Entry(path: "OEBPS/text/two.xhtml", bytes: bytes))
        let document = try outcome(zip).get()
        let text = document.text.string(0..<document.text.count)
        #expect(text.contains("Tallow Lane"))
        #expect(text.contains("arrived."))
    }

    /// Minimized FuzzEPUBContents crash: container.xml is `<?x?>`, a processing instruction
    /// without data, on which Foundation's XMLParser calls strlen(NULL).
    @Test func aProcessingInstructionWithoutDataIsDroppedNotACrash() throws {
        var zip = EPUBFixture.epub3()
        zip.replace("META-INF/container.xml", with: "<?x?>")
        guard case .failure(let error) = try outcome(zip) else {
            Issue.record("a container.xml without elements was accepted")
            return
        }
        #expect(error.reason.contains("container.xml"), "\(error)")
        var book = EPUBFixture.epub3()
        book.replace("OEBPS/text/two.xhtml", with: EPUBFixture.chapterTwo.replacingOccurrences(of: "<p>", with: "<?x?><?page 4?><p>"))
        let text = try outcome(book).get().text
        #expect(text.string(0..<text.count).contains("no stamp"))
    }

    /// FuzzEPUBContents found a chapter pointing past the end of the text: the contents named a
    /// last spine part with no text, whose start lay beyond the trimmed text's end.
    @Test func aChapterOnAnEmptyLastPartPointsAtTheEndOfTheText() throws {
        var zip = EPUBFixture.epub3()
        zip.replace("OEBPS/text/two.xhtml", with: #"<html xmlns="http://www.w3.org/1999/xhtml"><body><p> </p></body></html>"#)
        let document = try outcome(zip).get()
        #expect(document.chapters.map(\.title) == ["One: The Lamp", "The Night", "Two: The Letter"])
        for chapter in document.chapters {
            #expect(chapter.offset <= document.text.count, "\(chapter.title) at \(chapter.offset) of \(document.text.count)")
        }
        #expect(document.chapters.last?.offset == document.text.count)
    }

    /// Minimized FuzzEPUBContents crash: an emphasis left open around a <pre> at the end of the
    /// book ran past the end of the text once its trailing line breaks were trimmed.
    @Test func anEmphasisOpenAtTheEndStaysInsideTheText() throws {
        var zip = EPUBFixture.epub3()
        zip.replace("OEBPS/text/two.xhtml", with: """
            <mlns="http://wo sis<pre>What is the use of a book,&#82t Alice, &#x201C;withorties="nav"mp;nbsp;<br/>or
            <strong>covd>
            <body>t
              as is</pre>
            </body></html>

            """)
        let document = try outcome(zip).get()
        #expect(!document.emphasis.isEmpty)
        for span in document.emphasis {
            #expect(span.range.upperBound <= document.text.count, "\(span.kind) \(span.range) of \(document.text.count)")
        }
    }

    @Test func sanitizingRepairsInvalidUTF8OnlyInUTF8Documents() {
        let undeclared: [UInt8] = Array("<a>".utf8) + [0xF4] + Array("</a>".utf8)
        #expect(XMLSafety.repairingUTF8(undeclared) == Array("<a>\u{FFFD}</a>".utf8))
        let declaredUTF8 = Array(#"<?xml version="1.0" encoding="UTF-8"?><a>"#.utf8) + [0xE9] + Array("</a>".utf8)
        #expect(XMLSafety.repairingUTF8(declaredUTF8) == Array(#"<?xml version="1.0" encoding="UTF-8"?><a>"#.utf8) + Array("\u{FFFD}</a>".utf8))
        // Latin-1 is converted, its declaration dropped: é is 0xE9 there, not a broken sequence.
        let latin1 = Array(#"<?xml version="1.0" encoding='ISO-8859-1'?><a>caf"#.utf8) + [0xE9] + Array("</a>".utf8)
        #expect(XMLSafety.repairingUTF8(latin1) == Array("<a>café</a>".utf8))
        // Minimized FuzzEPUBContents crash: a broken declaration that only looks like Latin-1.
        let broken: [UInt8] = Array("<?xml ers><d".utf8) + [0xFF] + Array(#"<encodingISO-8859-1"gU?>"#.utf8)
        #expect(String(validating: XMLSafety.repairingUTF8(broken), as: UTF8.self) != nil)
        // An encoding libxml2 does not know left the bytes raw, and XMLParser trapped again.
        let unknown = Array(#"<?xml version="1.0" encoding=""U-8TF?><a>"#.utf8) + [0xCA] + Array("</a>".utf8)
        #expect(XMLSafety.repairingUTF8(unknown) == Array(#"<?xml version="1.0" encoding=""U-8TF?><a>"#.utf8) + Array("\u{FFFD}</a>".utf8))
        let valid = Array("<a>café \u{1F407}</a>".utf8)
        #expect(XMLSafety.repairingUTF8(valid) == valid)
    }
}
