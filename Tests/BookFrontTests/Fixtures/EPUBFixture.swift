import Foundation

/// EPUB books for the tests, built in memory with `ZipWriter`: a valid EPUB 3 with a nav
/// document, an EPUB 2 with an NCX, and pieces to break them with.
enum EPUBFixture {
    static let container = """
    <?xml version="1.0" encoding="UTF-8"?>
    <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
      <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
    </container>
    """

    static func chapter(_ title: String, _ body: String, id: String? = nil) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE html>
        <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">
        <head><title>\(title)</title><style>p { margin: 0 }</style></head>
        <body>
          <h1\(id.map { " id=\"\($0)\"" } ?? "")>\(title)</h1>
          \(body)
        </body>
        </html>
        """
    }

    static let chapterOne = chapter("The Lamp", """
        <p>Nell lived above the <em>chandler's</em> shop
           at the end of Tallow Lane.</p>
        <script>alert("never shown")</script>
        <p>She set a lamp in the window,<br/>every evening, for her <strong>uncle</strong>.</p>
        <h2 id="night">The Night</h2>
        <p>Caf&#233; &amp; tea&nbsp;at nine &#x2014; said the note.</p>
        """)

    static let chapterTwo = chapter("The Letter", """
        <p>A letter with <i>no stamp</i> lay at the foot of the stairs.</p>
        """)

    static func opf(version: String = "3.0", manifestExtra: String = "", spineAttributes: String = "", title: String = "The Lamplighter&apos;s Niece") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <package xmlns="http://www.idpf.org/2007/opf" version="\(version)" unique-identifier="id">
          <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
            <dc:title>\(title)</dc:title>
            <dc:identifier id="id">urn:uuid:lamplighter</dc:identifier>
          </metadata>
          <manifest>
            <item id="two" href="text/two.xhtml" media-type="application/xhtml+xml"/>
            <item id="one" href="text/one.xhtml" media-type="application/xhtml+xml"/>
            \(manifestExtra)
          </manifest>
          <spine\(spineAttributes)>
            <itemref idref="one"/>
            <itemref idref="two"/>
          </spine>
        </package>
        """
    }

    static let nav = """
    <?xml version="1.0" encoding="UTF-8"?>
    <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">
    <head><title>Contents</title></head>
    <body>
      <nav epub:type="landmarks"><ol><li><a href="text/two.xhtml">Not the contents</a></li></ol></nav>
      <nav epub:type="toc"><h1>Contents</h1>
        <ol>
          <li><a href="text/one.xhtml">One: The Lamp</a>
            <ol><li><a href="text/one.xhtml#night">The Night</a></li></ol>
          </li>
          <li><a href="text/two.xhtml">Two: The Letter</a></li>
        </ol>
      </nav>
    </body>
    </html>
    """

    static let ncx = """
    <?xml version="1.0" encoding="UTF-8"?>
    <ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1">
      <head/><docTitle><text>The Lamplighter's Niece</text></docTitle>
      <navMap>
        <navPoint id="p1" playOrder="1"><navLabel><text>I. The Lamp</text></navLabel><content src="text/one.xhtml"/>
          <navPoint id="p2" playOrder="2"><navLabel><text>The Night</text></navLabel><content src="text/one.xhtml#night"/></navPoint>
        </navPoint>
        <navPoint id="p3" playOrder="3"><navLabel><text>II. The Letter</text></navLabel><content src="text/two.xhtml"/></navPoint>
      </navMap>
    </ncx>
    """

    /// The parts of a well-formed book; tests change, add or drop some before writing it.
    static func epub3() -> ZipWriter {
        var zip = ZipWriter()
        zip.add("mimetype", "application/epub+zip")
        zip.add("META-INF/container.xml", container)
        zip.add("OEBPS/content.opf", opf(manifestExtra: #"<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>"#))
        zip.add("OEBPS/nav.xhtml", nav)
        zip.add("OEBPS/text/one.xhtml", chapterOne)
        zip.add("OEBPS/text/two.xhtml", chapterTwo)
        return zip
    }

    static func epub2() -> ZipWriter {
        var zip = ZipWriter()
        zip.add("mimetype", "application/epub+zip")
        zip.add("META-INF/container.xml", container)
        zip.add("OEBPS/content.opf", opf(version: "2.0", manifestExtra: #"<item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>"#,
                                         spineAttributes: #" toc="ncx""#))
        zip.add("OEBPS/toc.ncx", ncx)
        // EPUB 2 books declare the XHTML 1.1 DTD and use its named entities.
        zip.add("OEBPS/text/one.xhtml", chapterOne.replacingOccurrences(
            of: "<!DOCTYPE html>",
            with: #"<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd">"#))
        zip.add("OEBPS/text/two.xhtml", chapterTwo.replacingOccurrences(of: "no stamp", with: "no stamp&mdash;none"))
        return zip
    }
}

extension ZipWriter {
    mutating func replace(_ path: String, with text: String) {
        entries.removeAll { $0.path == path }
        add(path, text)
    }

    mutating func remove(_ path: String) {
        entries.removeAll { $0.path == path }
    }
}
