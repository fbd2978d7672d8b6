import Foundation
import Testing
@testable import BookFront

/// The XML reader under the EPUB loader: `XMLSafety` then `XMLScanner` and `XMLWalker`, on
/// every construct an EPUB uses, every way a document can be malformed, and hostile input.
@Suite struct XMLWalkerTests {
    struct Walk {
        var events: [String] = []
        var failure: XMLWalker.Failure?
    }

    /// Events as `<name key=value …>`, `</name>` and quoted text (adjacent text joined).
    private func walk(_ bytes: [UInt8]) -> Walk {
        var result = Walk()
        result.failure = XMLWalker.walk(Data(bytes), onStart: { name, attributes in
            let pairs = attributes.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
            result.events.append("<\(name)\(pairs)>")
        }, onEnd: { name in
            result.events.append("</\(name)>")
        }, onText: { text in
            if let last = result.events.last, last.hasPrefix("\"") {
                result.events[result.events.count - 1] = String(last.dropLast()) + text + "\""
            } else {
                result.events.append("\"\(text)\"")
            }
        })
        return result
    }

    private func walk(_ xml: String) -> Walk { walk(Array(xml.utf8)) }

    private func text(_ xml: String) -> String? {
        let result = walk(xml)
        guard result.failure == nil else { return nil }
        return result.events.filter { $0.hasPrefix("\"") }.map { String($0.dropFirst().dropLast()) }.joined()
    }

    // MARK: Constructs

    @Test func elementsAndAttributesLoseTheirPrefixAndCase() {
        let result = walk(##"<opf:Package xmlns:opf="u"><dc:Title xml:Lang="en" id='t1'>Alice</dc:Title><Meta Refines="#t1"/></opf:Package>"##)
        #expect(result.failure == nil)
        #expect(result.events == [
            "<package opf=u xmlns:opf=u>",
            "<title id=t1 lang=en xml:lang=en>", "\"Alice\"", "</title>",
            "<meta refines=#t1>", "</meta>",
            "</package>",
        ])
    }

    @Test func quotesOfTheOtherKindAndBlanksAroundTheEqualsSignAreAllowed() {
        #expect(walk(#"<a x = 'say "hi"' y= "it's" />"#).events == [#"<a x=say "hi" y=it's>"#, "</a>"])
    }

    @Test func thePredefinedEntitiesAndCharacterReferencesAreResolved() {
        #expect(text("<a>&amp;&lt;&gt;&quot;&apos; &#65;&#x42;&#x1f407;&#x1F407; &#9;&#xA0;</a>") == "&<>\"' AB\u{1F407}\u{1F407} \t\u{A0}")
        #expect(walk(#"<a t="&lt;b&gt; &amp; &#x41;"/>"#).events.first == "<a t=<b> & A>")
    }

    @Test func namedHTMLReferencesComeFromTheTableAndOthersShowAsWritten() {
        #expect(text("<a>&nbsp;&mdash;&eacute; &bogus; AT&T &amp</a>") == "\u{A0}\u{2014}\u{E9} &bogus; AT&T &amp")
    }

    @Test(arguments: ["&#0;", "&#1;", "&#xD800;", "&#xDFFF;", "&#xFFFE;", "&#xFFFF;", "&#x110000;", "&#;", "&#x;",
                      "&#xZZ;", "&#12a;", "&#X41;", "&#99999999999999999999;", "&#-1;"])
    func invalidCharacterReferencesAreRefusedWithTheirLine(reference: String) {
        let result = walk("<a>\nfine\n\(reference)</a>")
        #expect(result.failure?.line == 3, "\(reference): \(String(describing: result.failure))")
        #expect(result.events == ["<a>"] || result.events == ["<a>", "\"\nfine\n\""], "\(result.events)")
    }

    @Test func cdataSectionsAreTextAsWritten() {
        #expect(text("<a>x<![CDATA[<b>&amp; ]] >]]>y</a>") == "x<b>&amp; ]] >y")
        #expect(text("<a><![CDATA[]]></a>") == "")
    }

    @Test func commentsProcessingInstructionsAndTheDeclarationAreSkipped() {
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- before -->\n<a>x<?pi data?>y<!-- inside - with a dash -->z<?x?></a>\n<!-- after --><?after?>\n"
        #expect(walk(xml).events == ["<a>", "\"xyz\"", "</a>"])
        #expect(walk(xml).failure == nil)
    }

    @Test func aDOCTYPEIsSkippedAndItsEntitiesNeverDeclared() {
        let xml = """
        <?xml version="1.0"?>
        <!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN"
          "http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd" [
          <!ENTITY x "expanded">
        ]>
        <html><p>&x; &nbsp;</p></html>
        """
        let sanitized = XMLSafety.sanitize(Data(xml.utf8))
        #expect(sanitized.declaredEntities)
        var texts: [String] = []
        #expect(XMLWalker.walk(sanitized: sanitized, onText: { texts.append($0) }) == nil)
        #expect(texts.joined() == "&x; \u{A0}")
        #expect(!XMLSafety.sanitize(Data("<!DOCTYPE html><html/>".utf8)).declaredEntities)
    }

    @Test func linesAfterACutDOCTYPEAreTheFilesLines() {
        let xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE html PUBLIC \"a\"\n  \"b\">\n<html>\n<body>\n</html>"
        #expect(walk(xml).failure?.line == 6)
    }

    @Test func lineEndsAreNormalisedAsXMLDoes() {
        #expect(text("<a>t\r\nm\rx<![CDATA[\r\n]]></a>") == "t\nm\nx\n")
        #expect(walk("<a v=\"a\tb\nc\r\nd&#10;e\"/>").events.first == "<a v=a b c d\ne>")
    }

    @Test func blanksBetweenElementsAreTextButNotOutsideTheRoot() {
        #expect(walk("\n <a> <b/>\n</a> \n").events == ["<a>", "\" \"", "<b>", "</b>", "\"\n\"", "</a>"])
    }

    @Test func aByteOrderMarkAndUTF16AreRead() {
        #expect(text("\u{FEFF}<a>caf\u{E9}</a>") == "caf\u{E9}")
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-16\"?><a x=\"\u{1F407}\">caf\u{E9} &amp; th\u{E9}</a>"
        let little: [UInt8] = [0xFF, 0xFE] + xml.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let big: [UInt8] = xml.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        for bytes in [little, big] {
            #expect(walk(bytes).events == ["<a x=\u{1F407}>", "\"caf\u{E9} & th\u{E9}\"", "</a>"])
        }
    }

    // MARK: Malformed documents

    @Test(arguments: [
        ("<a>\n<b>\n</c>", 3),                      // mismatched end tag
        ("<a>\n<b>\n</b>\n", 4),                   // unclosed element, noticed at the end
        ("<a/>\njunk", 2),                        // text after the root
        ("<a/>\n\n<b/>", 3),                      // a second root
        ("<a/>\n<![CDATA[x]]>", 2),               // a CDATA section after the root
        ("x\n<a/>", 1),                           // text before the root
        ("<a\n x=\"1<2\"/>", 2),                  // < in an attribute value
        ("<a\n\n x=1/>", 3),                      // an attribute without quotes
        ("<a x/>", 1),                            // an attribute without a value
        ("<a x=\"1\"\n x=\"2\"/>", 2),            // the same attribute twice
        ("<a x=\"1\"y=\"2\"/>", 1),               // attributes not separated
        ("<a>\n]]></a>", 2),                      // ]]> in text
        ("<a>\n\u{1}</a>", 2),                    // a control character
        ("<a>\n\u{FFFE}</a>", 2),                 // a non-character
        ("<a>\n</ a>", 2),                        // a blank before the end tag's name
        ("< a/>", 1),                             // a blank before the start tag's name
        ("<1a/>", 1),                             // a name starting with a digit
        ("<a>\n<!-- a -- b --></a>", 2),          // -- inside a comment
        ("<a>\n<!-- never closed</a>", 2),        // an unclosed comment
        ("<a>\n<![CDATA[ never closed</a>", 2),   // an unclosed CDATA section
        ("<a>\n<?pi never closed</a>", 2),        // an unclosed processing instruction
        ("<a>\n<!ELEMENT a ANY></a>", 2),         // a declaration inside the document
        ("<a>\n<b x=\"never closed/></a>", 2),    // an unclosed attribute value
        ("<a>\n<b", 2),                           // the document ends inside a tag
        ("<a></a\n", 1),                          // an end tag without >
        ("", 1),                                  // nothing at all
        ("  \n <!-- only a comment -->\n", 3),    // no root element
        ("</a>", 1),                              // an end tag before any start
    ])
    func malformedDocumentsFailWithTheLineWhereTheyBroke(xml: String, line: Int) {
        let result = walk(xml)
        #expect(result.failure?.line == line, "\(xml.debugDescription): \(String(describing: result.failure))")
        #expect(result.failure?.message.isEmpty == false)
    }

    @Test func theClosuresSeeEverythingBeforeTheErrorAndNothingAfter() {
        let result = walk("<a>one<b>two</a>three<c/></a>")
        #expect(result.events == ["<a>", "\"one\"", "<b>", "\"two\""])
        #expect(result.failure == XMLWalker.Failure(line: 1, message: "</a> does not close <b>"))
    }

    // MARK: Hostile input

    @Test func nestingIsBoundedAt256Levels() {
        let deepest = String(repeating: "<a>", count: 256) + String(repeating: "</a>", count: 256)
        #expect(walk(deepest).failure == nil)
        let tooDeep = String(repeating: "<a>\n", count: 257) + String(repeating: "</a>", count: 257)
        var starts = 0
        let failure = XMLWalker.walk(Data(tooDeep.utf8), onStart: { _, _ in starts += 1 })
        #expect(failure == XMLWalker.Failure(line: 257, message: "elements nest deeper than 256 levels"))
        #expect(starts == 256)
    }

    @Test func aMegabyteOfUnclosedElementsStopsAtTheDepthLimit() {
        var starts = 0
        let failure = XMLWalker.walk(Data(String(repeating: "<a>", count: 350_000).utf8), onStart: { _, _ in starts += 1 })
        #expect(failure?.message == "elements nest deeper than 256 levels")
        #expect(starts == 256)
    }

    @Test func namesAndAttributeListsAreBounded() {
        let longest = String(repeating: "n", count: XMLScanner.maxNameLength)
        #expect(walk("<\(longest)/>").failure == nil)
        #expect(walk("<\(longest)n/>").failure?.message == "a name is longer than 1024 bytes")
        #expect(walk("<a \(longest)n=\"1\"/>").failure?.message == "a name is longer than 1024 bytes")
        let attributes = { (count: Int) in (0..<count).map { " a\($0)=\"\($0)\"" }.joined() }
        #expect(walk("<a\(attributes(XMLScanner.maxAttributes))/>").failure == nil)
        #expect(walk("<a\(attributes(XMLScanner.maxAttributes + 1))/>").failure?.message == "<a> has more than 512 attributes")
    }

    /// `XMLSafety` shows a reference it does not know as written; given to the walker as it is,
    /// one is refused, however long.
    @Test func unknownAndOverlongReferencesAreShownBySanitizingAndRefusedWithout() {
        let long = "&#" + String(repeating: "1", count: 100_000) + ";"
        #expect(text("<a>\(long)</a>") == long)
        for reference in [long, "&bogus;", "&nbsp;", "& x;"] {
            let raw = XMLSafety.Sanitized(bytes: Array("<a>\n\(reference)</a>".utf8), declaredEntities: false)
            #expect(XMLWalker.walk(sanitized: raw)?.line == 2, "\(reference.prefix(10))")
        }
    }

    /// Byte-level mutations of a small book page, from a fixed seed: every one ends, and a
    /// document that passes has its elements balanced.
    @Test func mutatedDocumentsNeverTrapAndPassOnlyWhenBalanced() {
        let page = Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE html>
        <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">
        <head><title>One</title></head>
        <body><h1 id="c1">The Lamp</h1><p class='x'>Caf&#xE9; &amp; tea&nbsp;at <em>nine</em><br/>
        <![CDATA[raw <b>]]><!-- note --></p><nav epub:type="toc"><ol><li><a href="#c1">1</a></li></ol></nav></body>
        </html>
        """.utf8)
        let alphabet = Array("<>/&;#x=\"' !-[]?:aZ\r\n".utf8) + [0x00, 0x80, 0xC3, 0xEF, 0xBF, 0xFE, 0xFF]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func random(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        var failures = 0
        for _ in 0..<3000 {
            var bytes = page
            for _ in 0...random(4) {
                let index = random(bytes.count)
                switch random(4) {
                case 0: bytes[index] = alphabet[random(alphabet.count)]
                case 1: bytes.insert(alphabet[random(alphabet.count)], at: index)
                case 2: bytes.remove(at: index)
                default: bytes.insert(contentsOf: bytes[index..<min(bytes.count, index + random(40))], at: random(bytes.count))
                }
            }
            var depth = 0
            var lowest = 0
            let failure = XMLWalker.walk(Data(bytes), onStart: { _, _ in depth += 1 }, onEnd: { _ in depth -= 1; lowest = min(lowest, depth) })
            #expect(lowest == 0)
            if let failure {
                failures += 1
                #expect(failure.line >= 1 && failure.line <= bytes.count(where: { $0 == 0x0A || $0 == 0x0D }) + 1)
            } else {
                #expect(depth == 0)
            }
        }
        #expect(failures > 0 && failures < 3000)
    }

    // MARK: Real books

    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../shared/interop/epub").standardizedFileURL

    struct Book: Sendable, CustomTestStringConvertible {
        var file: String
        var title: String
        var bytes: Int
        var hash: UInt64
        var emphasis: Int
        var chapterCount: Int
        var chapters: [String]
        var start: String
        var testDescription: String { file }
    }

    /// What each book of ../shared/interop/epub read as through Foundation's XMLParser (libxml2),
    /// before this reader replaced it: the same text byte for byte (FNV-1a of its UTF-8), the same
    /// chapters and emphasis.
    static let books = [
        Book(file: "epubjs-alice.epub", title: "Alice's Adventures in Wonderland", bytes: 52383, hash: 0x5e1d_b92e_0aef_f328,
             emphasis: 87, chapterCount: 11, chapters: ["Title Page@247", "Down The Rabbit-Hole@375", "The Pool Of Tears@7336",
                                      "A Caucus-Race And A Long Tale@13304", "The Rabbit Sends In A Little Bill@19051",
                                      "Advice From A Caterpillar@26211", "Pig And Pepper@31994", "A Mad Tea-Party@36916",
                                      "The Queen's Croquet Ground@39933", "Who Stole The Tarts?@46258", "Alice's Evidence@49356"],
             start: "Contents\n\nTitle Page\nDown The Rabbit-Hole\n"),
        Book(file: "epubjs-alice_without_cover.epub", title: "Alice's Adventures in Wonderland", bytes: 149,
             hash: 0x584b_8449_95a5_ec7e, emphasis: 3, chapterCount: 1, chapters: ["Title Page@22"],
             start: "Contents\n\nTitle Page\n\nAlice's Adventures In Wonderland\n\nCopyright, 1916,\n"),
        Book(file: "childrens-literature.epub", title: "Children's Literature", bytes: 294491, hash: 0x5159_d3ba_1057_7c7e,
             emphasis: 157, chapterCount: 22, chapters: ["SECTION IV FAIRY STORIES\u{2014}MODERN FANTASTIC TALES@1174", "BIBLIOGRAPHY@1230",
                                       "INTRODUCTORY@3216", "190 A FOUR-LEAVED CLOVER@12184"],
             start: "THE CONTENTS\n\nSECTION IV FAIRY STORIES\u{2014}MODERN FANTASTIC TALES\n\nBIBLIOGRAPHY\nINTRODUCTORY\n"),
        Book(file: "regime-anticancer-arabic.epub", title: "Le Vrai R\u{E9}gime anti-cancer", bytes: 52896,
             hash: 0x46ea_22e3_c3ab_7898, emphasis: 11, chapterCount: 3, chapters: ["Couverture@0", "Page de titre@0", "Commencer la lecture@0"],
             start: "\u{627}\u{644}\u{641}\u{635}\u{644} \u{627}\u{644}\u{62B}\u{627}\u{646}\u{64A}\n\n"),
    ]

    @Test(arguments: books)
    func realBooksReadAsTheyDidThroughLibxml2(book: Book) throws {
        let document = try BookLoader.load(path: Self.corpus.appendingPathComponent(book.file).path)
        let text = document.text.string(0..<document.text.count)
        #expect(document.title == book.title)
        #expect(document.text.count == book.bytes)
        #expect(text.utf8.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 } == book.hash)
        #expect(document.emphasis.count == book.emphasis)
        #expect(document.chapters.count == book.chapterCount)
        #expect(document.chapters.prefix(book.chapters.count).map { "\($0.title)@\($0.offset)" } == book.chapters)
        #expect(text.hasPrefix(book.start))
        #expect(document.notes.isEmpty)
    }
}
