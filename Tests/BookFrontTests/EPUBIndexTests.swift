import Foundation
@testable import BookFront
import Testing

/// An EPUB opened before is taken from its index — the text its spine made, chapters, emphasis,
/// notes — without unzipping or parsing a chapter, so its first frame waits for no decoding.
/// Real EPUBs from ../shared/interop/epub (read in place, never copied into the project).
@Suite("EPUB index (interop corpus)")
struct EPUBIndexTests {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../shared/interop/epub").standardizedFileURL

    @Test(arguments: ["epubjs-alice.epub", "childrens-literature.epub", "regime-anticancer-arabic.epub"])
    func aSecondOpeningComesFromTheIndexUnchanged(name: String) throws {
        let path = Self.corpus.appendingPathComponent(name).path
        let folder = try BookFixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = BookIndexStore(folder: folder)

        let decoded = try BookLoader.load(path: path, indexes: store)
        let entry = try #require(decoded.index)
        #expect(entry.hasUnsavedChanges)
        try entry.save()

        let indexed = try BookLoader.load(path: path, indexes: store)
        #expect(indexed.index?.hasUnsavedChanges == false)
        #expect(indexed.id == decoded.id)
        #expect(indexed.title == decoded.title)
        #expect(indexed.text.bytes == decoded.text.bytes)
        #expect(indexed.chapters == decoded.chapters)
        #expect(indexed.emphasis == decoded.emphasis)
        #expect(indexed.notes == decoded.notes)
        #expect(indexed.format == .epub)

        // Proof that the second opening read the index, not the archive: what it says is shown.
        let identity = try #require(try BookFile.identity(path: path, limit: .epubBook))
        var planted = try BookIndexCodec.decode(Data(contentsOf: store.url(for: identity)), for: identity)
        planted.detectedTitle = "From the index"
        try BookIndexCodec.encode(planted).write(to: store.url(for: identity))
        #expect(try BookLoader.load(path: path, indexes: store).title == "From the index")
    }

    @Test(arguments: ["emphasis past the end", "chapter past the end"])
    func anEPUBIndexWithRangesOutsideItsTextIsRefused(kind: String) throws {
        let path = Self.corpus.appendingPathComponent("epubjs-alice.epub").path
        let folder = try BookFixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = BookIndexStore(folder: folder)
        let document = try BookLoader.load(path: path, indexes: store)
        let identity = try #require(try BookFile.identity(path: path, limit: .epubBook))
        let length = document.text.count
        var emphasis = document.emphasis
        var chapters = document.chapters
        switch kind {
        case "emphasis past the end": emphasis.append(TextEmphasis(range: 10..<(length + 1), kind: .strong))
        default: chapters.append(BookChapter(title: "Beyond", offset: length + 1))
        }
        let index = BookIndex(identity: identity, bookID: document.id, detectedTitle: "Hostile", invalidSequences: 0, chapters: chapters,
                              decoded: BookIndex.DecodedText(text: document.text.bytes, emphasis: emphasis, notes: []))
        #expect(throws: BookIndexCodec.Problem.self) { try BookIndexCodec.decode(BookIndexCodec.encode(index), for: identity) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try BookIndexCodec.encode(index).write(to: store.url(for: identity))
        let reopened = try BookLoader.load(path: path, indexes: store)
        #expect(reopened.title == document.title)
        #expect(reopened.emphasis == document.emphasis)
        #expect(reopened.index?.hasUnsavedChanges == true, "decoded again, its index to be made again")
    }
}
