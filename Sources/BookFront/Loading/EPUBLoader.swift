import Foundation

/// Opens an EPUB: container.xml → OPF → the spine in order, each XHTML document to text, the
/// chapters from the nav document or the NCX (mapped to byte offsets in the produced text), or
/// from the headings when the book has no usable table of contents.
enum EPUBLoader {
    /// A zip whose first entry is the EPUB "mimetype" file (what the format asks for).
    static func isEPUB(head: Data) -> Bool {
        XMLSafety.find(head.prefix(128), "mimetypeapplication/epub+zip") != nil
    }

    static func load(path: String) throws -> BookDocument {
        let archive = try EPUBArchive(path: path)
        try EPUBProtection.check(archive)
        let package = try EPUBPackage.read(from: archive)

        var builder = XHTMLTextBuilder()
        var notes: [String] = []
        var missing = 0
        for document in package.spine {
            guard let data = try archive.read(document) else { missing += 1; continue }
            let problems = builder.add(document: data, path: document)
            if let failure = problems.failure {
                notes.append("\((document as NSString).lastPathComponent) is malformed at line \(failure.line); its text may be incomplete.")
            }
            if problems.declaredEntities {
                notes.append("\((document as NSString).lastPathComponent) declares XML entities; they were not expanded.")
            }
        }
        if missing > 0 { notes.append("\(missing) of the book's \(package.spine.count) parts are missing from the archive.") }

        let output = builder.finish()
        guard output.contains(where: { !LineScanner.isBlank($0) }) else {
            throw BookLoadError(path: path, reason: "has no readable text")
        }
        var chapters = try tableOfContents(package, archive: archive, builder: builder)
        if chapters.isEmpty {
            let top = builder.headings.map(\.level).min() ?? 1
            chapters = builder.headings.map { BookChapter(title: $0.title, offset: $0.offset, level: $0.level - top) }
        }
        // A spine part with no text of its own starts past the end of the trimmed text (found by
        // Fuzz/FuzzEPUBContents): its chapter points at the end instead.
        for index in chapters.indices { chapters[index].offset = min(chapters[index].offset, output.count) }
        let title = package.title ?? builder.headings.first?.title ?? BookLoader.fileTitle(path)
        return BookDocument(id: ContentHash.id(of: output), title: title, path: path, format: .epub,
                            text: BookText(bytes: Data(output)), chapters: chapters, emphasis: builder.emphasis, notes: notes)
    }

    private static func tableOfContents(_ package: EPUBPackage, archive: EPUBArchive, builder: XHTMLTextBuilder) throws -> [BookChapter] {
        var entries: [EPUBContents.Entry] = []
        if let nav = package.navPath, let data = try archive.read(nav) { entries = EPUBContents.nav(data, path: nav) }
        if entries.isEmpty, let ncx = package.ncxPath, let data = try archive.read(ncx) { entries = EPUBContents.ncx(data, path: ncx) }
        let chapters = entries.compactMap { entry -> BookChapter? in
            guard let start = builder.documentStarts[entry.path] else { return nil }  // not in the spine
            let offset = entry.fragment.flatMap { builder.anchors["\(entry.path)#\($0)"] } ?? start
            return BookChapter(title: entry.title, offset: offset, level: entry.level)
        }
        // Stable: entries at one offset (a part and its first chapter) keep the book's order.
        return chapters.enumerated().sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }.map(\.element)
    }
}
