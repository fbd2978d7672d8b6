import Foundation

/// Opens a plain-text book: the bytes stay as they are (mapped when big, CRLF kept), and every
/// look at them (UTF-8 check, chapters, hash) is one pass that gives back the pages it passed.
enum PlainTextLoader {
    static func load(path: String, text: BookText) throws -> BookDocument {
        var releaser = PageReleaser(text: text)
        let invalid = text.withBytes { UTF8Check.invalidSequences(in: $0, passed: { releaser.passed($0) }) }
        releaser.finish()

        let chapters = ChapterDetector.chapters(in: text)
        let id = ContentHash.id(of: text)
        let title = TitleDetector.title(of: text, before: chapters.first?.offset) ?? BookLoader.fileTitle(path)

        var notes: [String] = []
        if invalid > 0 { notes.append(BookLoader.replacementNote(invalid)) }
        if chapters.isEmpty { notes.append("No chapter headings were found; the contents list is empty.") }
        return BookDocument(id: id, title: title, path: path, format: .plainText, text: text, chapters: chapters, notes: notes)
    }
}
