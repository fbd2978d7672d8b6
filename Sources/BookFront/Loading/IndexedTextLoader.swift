import FileSafety
import FoundationEssentials

/// Opens a UTF-8 plain-text book through its index: when the index names this very file (see
/// `FileIdentity`), nothing is read but eight sampled blocks and, later, the page shown — no
/// pass over the text, whatever its size. Otherwise the book is read the usual way and its
/// index is made, to be written after the first frame.
enum IndexedTextLoader {
    /// Nil when the book needs converting to UTF-8 (a small file with invalid UTF-8 is read as
    /// Windows-1252): the general path reads it, without an index.
    static func load(path: String, limit: FileLimit, store: BookIndexStore) throws -> BookDocument? {
        let (text, identity) = try BookFile.openWithIdentity(path: path, limit: limit)
        guard let identity else { return nil }  // it changed size as it was opened
        if let index = store.read(for: identity) {
            let facts = PlainTextLoader.Facts(invalidSequences: index.invalidSequences, chapters: index.chapters,
                                              id: index.bookID, detectedTitle: index.detectedTitle)
            return PlainTextLoader.document(path: path, text: text, facts: facts, index: BookIndexEntry(index, store: store, unsaved: false))
        }
        let facts = PlainTextLoader.facts(of: text)
        if facts.invalidSequences > 0 && text.count <= BookEncoding.conversionSizeLimit { return nil }
        let index = BookIndex(identity: identity, bookID: facts.id, detectedTitle: facts.detectedTitle,
                              invalidSequences: facts.invalidSequences, chapters: facts.chapters)
        return PlainTextLoader.document(path: path, text: text, facts: facts, index: BookIndexEntry(index, store: store, unsaved: true))
    }
}
