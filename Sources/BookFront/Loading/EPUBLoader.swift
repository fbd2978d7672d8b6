import FoundationEssentials

/// Opens an EPUB: container.xml → OPF → the spine in order, each XHTML document to text, the
/// chapters from the nav document or the NCX (mapped to byte offsets in the produced text), or
/// from the headings when the book has no usable table of contents.
enum EPUBLoader {
    /// A zip whose first entry is the EPUB "mimetype" file (what the format asks for).
    static func isEPUB(head: Data) -> Bool {
        XMLSafety.find(head.prefix(128), "mimetypeapplication/epub+zip") != nil
    }

    /// With `indexes`, a book opened before is taken from its index (text, chapters, emphasis,
    /// notes, as they were made) without opening the archive; otherwise it is decoded and its
    /// index made, to be written after the first frame.
    static func load(path: String, indexes: BookIndexStore?) throws -> BookDocument {
        guard let indexes, let identity = try BookFile.identity(path: path, limit: .epubBook) else { return try decode(path: path) }
        if let index = indexes.read(for: identity), let decoded = index.decoded {
            return BookDocument(id: index.bookID, title: index.detectedTitle ?? BookLoader.fileTitle(path), path: path, format: .epub,
                                text: BookText(bytes: decoded.text), chapters: index.chapters, emphasis: decoded.emphasis,
                                notes: decoded.notes, index: BookIndexEntry(index, store: indexes, unsaved: false))
        }
        let document = try decode(path: path)
        let decoded = BookIndex.DecodedText(text: document.text.bytes, emphasis: document.emphasis, notes: document.notes)
        let index = BookIndex(identity: identity, bookID: document.id,
                              detectedTitle: document.title == BookLoader.fileTitle(path) ? nil : document.title,
                              invalidSequences: 0, chapters: document.chapters, decoded: decoded)
        return BookDocument(id: document.id, title: document.title, path: path, format: .epub, text: document.text,
                            chapters: document.chapters, emphasis: document.emphasis, notes: document.notes,
                            index: BookIndexEntry(index, store: indexes, unsaved: true))
    }

    /// Unzips the spine's documents and turns them into text, every one of them.
    static func decode(path: String) throws -> BookDocument {
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
                notes.append("\(PathText.lastComponent(document)) is malformed at line \(failure.line); its text may be incomplete.")
            }
            if problems.declaredEntities {
                notes.append("\(PathText.lastComponent(document)) declares XML entities; they were not expanded.")
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
