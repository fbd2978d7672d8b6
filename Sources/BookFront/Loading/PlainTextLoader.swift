import FoundationEssentials

/// Opens a plain-text book: the bytes stay as they are (mapped when big, CRLF kept), and every
/// look at them (UTF-8 check, chapters, hash) is one pass that gives back the pages it passed.
enum PlainTextLoader {
    /// `knownValid`: the text was checked whole as UTF-8 already, so it is not checked again.
    static func load(path: String, text: BookText, knownValid: Bool = false) throws -> BookDocument {
        document(path: path, text: text, facts: facts(of: text, knownValid: knownValid), index: nil)
    }

    /// What the passes over the whole text find; a book index keeps it so the next opening of
    /// the same file makes none of them.
    struct Facts {
        var invalidSequences: Int
        var chapters: [BookChapter]
        var id: String
        var detectedTitle: String?
    }

    static func facts(of text: BookText, knownValid: Bool = false) -> Facts {
        var invalid = 0
        if !knownValid {
            var releaser = PageReleaser(text: text)
            invalid = text.withBytes { UTF8Check.invalidSequences(in: $0, passed: { releaser.passed($0) }) }
            releaser.finish()
        }
        let chapters = ChapterDetector.chapters(in: text)
        return Facts(invalidSequences: invalid, chapters: chapters, id: ContentHash.id(of: text),
                     detectedTitle: TitleDetector.title(of: text, before: chapters.first?.offset))
    }

    static func document(path: String, text: BookText, facts: Facts, index: BookIndexEntry?) -> BookDocument {
        var notes: [String] = []
        if facts.invalidSequences > 0 { notes.append(BookLoader.replacementNote(facts.invalidSequences)) }
        if facts.chapters.isEmpty { notes.append("No chapter headings were found; the contents list is empty.") }
        return BookDocument(id: facts.id, title: facts.detectedTitle ?? BookLoader.fileTitle(path), path: path, format: .plainText,
                            text: text, chapters: facts.chapters, notes: notes, index: index)
    }
}
