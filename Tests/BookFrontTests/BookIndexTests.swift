import Defaults
import Foundation
@testable import BookFront
import Screens
import Terminal
import Testing

/// The book index: believed only for the file it was made from, and only when every field is
/// within bounds; anything else is ignored (a damaged file moved aside) and the book is read
/// the full way, as if there were no index.
@Suite("Book index")
struct BookIndexTests {
    /// A book file and an index folder of its own, both in one temporary folder.
    struct Setup {
        let path: String
        let store: BookIndexStore

        init(bytes: [UInt8] = BookFixture.bytes) throws {
            path = try BookFixture.write(bytes, name: "lamplighter.txt")
            store = BookIndexStore(folder: URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("index"))
        }

        func load() throws -> BookDocument { try BookLoader.load(path: path, indexes: store) }

        func identity() throws -> FileIdentity {
            let (_, identity) = try BookFile.openWithIdentity(path: path, limit: .textBook)
            return try #require(identity)
        }

        var indexURL: URL { get throws { store.url(for: try identity()) } }

        /// Names in the index folder.
        var indexFiles: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: store.folder.path)) ?? []).sorted() }

        func remove() { BookFixture.remove(path) }
    }

    /// Writes `index` for the book as if the app had, with a valid header and checksum.
    static func plant(_ index: BookIndex, in setup: Setup) throws {
        try FileManager.default.createDirectory(at: setup.store.folder, withIntermediateDirectories: true)
        try BookIndexCodec.encode(index).write(to: setup.indexURL)
    }

    @Test func aFirstOpeningMakesTheIndexAndTheNextOneBelievesIt() throws {
        let setup = try Setup()
        defer { setup.remove() }
        let first = try setup.load()
        let entry = try #require(first.index)
        #expect(entry.hasUnsavedChanges, "made, to be written after the first frame")
        #expect(setup.indexFiles.isEmpty, "nothing written while opening")
        try entry.save()
        #expect(setup.indexFiles.count == 1)

        // What the index says is what the book shows: a planted title proves it is read.
        var planted = try BookIndexCodec.decode(Data(contentsOf: setup.indexURL), for: setup.identity())
        #expect(planted.bookID == first.id)
        #expect(planted.chapters.map(\.title) == BookFixture.chapterTitles)
        planted.detectedTitle = "From the index"
        try Self.plant(planted, in: setup)
        let second = try setup.load()
        #expect(second.title == "From the index")
        #expect(second.id == first.id)
        #expect(second.chapters == first.chapters)
        #expect(second.index?.hasUnsavedChanges == false)
    }

    @Test func anIndexForAnEarlierStateOfTheFileIsIgnoredAndReplaced() throws {
        let setup = try Setup()
        defer { setup.remove() }
        try #require(try setup.load().index).save()
        var planted = try BookIndexCodec.decode(Data(contentsOf: setup.indexURL), for: setup.identity())
        planted.detectedTitle = "Stale"
        try Self.plant(planted, in: setup)

        // The same number of bytes, another text, and the modification time set back: the
        // change time and the sampled blocks still tell.
        var edited = BookFixture.bytes
        edited[edited.count / 2] = UInt8(ascii: "#")
        let before = try FileManager.default.attributesOfItem(atPath: setup.path)[.modificationDate] as? Date
        let handle = try #require(FileHandle(forWritingAtPath: setup.path))
        try handle.write(contentsOf: Data(edited))
        try handle.close()
        try FileManager.default.setAttributes([.modificationDate: try #require(before)], ofItemAtPath: setup.path)

        let reopened = try setup.load()
        #expect(reopened.title == "The Lamplighter's Niece")
        #expect(reopened.id == ContentHash.id(of: edited))
        let entry = try #require(reopened.index)
        #expect(entry.hasUnsavedChanges)
        try entry.save()
        #expect(try BookIndexCodec.decode(Data(contentsOf: setup.indexURL), for: setup.identity()).bookID == reopened.id)
        #expect(!setup.indexFiles.contains { $0.contains("corrupt") }, "stale is not damaged: replaced, not kept")
    }

    @Test(arguments: ["flipped byte", "truncated", "empty", "another format"])
    func aDamagedIndexIsMovedAsideAndTheBookReadInFull(damage: String) throws {
        let setup = try Setup()
        defer { setup.remove() }
        let first = try setup.load()
        try #require(first.index).save()
        var bytes = try [UInt8](Data(contentsOf: setup.indexURL))
        switch damage {
        case "flipped byte": bytes[bytes.count - 5] ^= 0x40
        case "truncated": bytes.removeLast(bytes.count / 3)
        case "empty": bytes = []
        default: bytes = Array("bplist00".utf8) + bytes.dropFirst(8)
        }
        try Data(bytes).write(to: setup.indexURL)

        let reopened = try setup.load()
        #expect(reopened.id == first.id)
        #expect(reopened.chapters == first.chapters)
        #expect(reopened.index?.hasUnsavedChanges == true, "rebuilt")
        #expect(setup.indexFiles.contains { $0.contains(".corrupt-") }, "kept aside for a look: \(setup.indexFiles)")
        #expect(!FileManager.default.fileExists(atPath: try setup.indexURL.path))
    }

    /// A file that passes its checksum (made on purpose) but says what cannot be: refused whole.
    @Test(arguments: ["chapter past the end", "chapters out of order", "checkpoint past the end", "checkpoints backwards",
                      "first checkpoint not at the start", "more lines than bytes", "id not hex", "two counts at one width"])
    func hostileFieldsAreRefusedWhole(kind: String) throws {
        let setup = try Setup()
        defer { setup.remove() }
        let identity = try setup.identity()
        let size = Int(identity.size)
        let document = try setup.load()
        var index = BookIndex(identity: identity, bookID: document.id, detectedTitle: nil, invalidSequences: 0, chapters: document.chapters)
        let count = try #require(LineCount.count(text: document.text, width: 40))
        index.remember(count)
        switch kind {
        case "chapter past the end": index.chapters[1].offset = size
        case "chapters out of order": index.chapters.swapAt(0, 2)
        case "checkpoint past the end": index.lineCounts[0] = LineCount(width: 40, totalLines: count.totalLines, checkpoints: [(0, 0), (size + 10, 1)])
        case "checkpoints backwards": index.lineCounts[0] = LineCount(width: 40, totalLines: count.totalLines, checkpoints: [(0, 0), (900, 20), (400, 30)])
        case "first checkpoint not at the start": index.lineCounts[0] = LineCount(width: 40, totalLines: count.totalLines, checkpoints: [(10, 0)])
        case "more lines than bytes": index.lineCounts[0] = LineCount(width: 40, totalLines: size + 1, checkpoints: [(0, 0)])
        case "id not hex": index.bookID = "zzzzzzzzzzzzzzzz"
        default: index.lineCounts.append(count)
        }
        #expect(throws: BookIndexCodec.Problem.self) { try BookIndexCodec.decode(BookIndexCodec.encode(index), for: identity) }
        try Self.plant(index, in: setup)
        let reopened = try setup.load()
        #expect(reopened.chapters == document.chapters)
        #expect(reopened.index?.lineCount(width: 40) == nil)
        #expect(setup.indexFiles.contains { $0.contains(".corrupt-") })
    }

    @Test func anIndexForAnotherFileIsNotBelieved() throws {
        let setup = try Setup()
        defer { setup.remove() }
        let document = try setup.load()
        var other = try setup.identity()
        other.size += 1
        let index = BookIndex(identity: other, bookID: "0123456789abcdef", detectedTitle: "Other", invalidSequences: 0, chapters: [])
        #expect(throws: BookIndexCodec.Problem.stale) { try BookIndexCodec.decode(BookIndexCodec.encode(index), for: try setup.identity()) }
        #expect(document.title == "The Lamplighter's Niece")
    }

    @Test func theFormatRoundTrips() throws {
        let setup = try Setup()
        defer { setup.remove() }
        let document = try setup.load()
        var index = BookIndex(identity: try setup.identity(), bookID: document.id, detectedTitle: "Ünïcode — title", invalidSequences: 3,
                              chapters: document.chapters)
        for width in [30, 40, 50, 60, 70] { index.remember(try #require(LineCount.count(text: document.text, width: width))) }
        #expect(index.lineCounts.map(\.width) == [40, 50, 60, 70], "the oldest width goes first")
        let decoded = try BookIndexCodec.decode(BookIndexCodec.encode(index), for: setup.identity())
        #expect(decoded.detectedTitle == index.detectedTitle)
        #expect(decoded.invalidSequences == 3)
        #expect(decoded.chapters == index.chapters)
        #expect(decoded.lineCounts.map(\.totalLines) == index.lineCounts.map(\.totalLines))
        #expect(decoded.lineCounts.map { $0.checkpoints.map(\.blockStart) } == index.lineCounts.map { $0.checkpoints.map(\.blockStart) })
    }

    /// A count in bounds that does not fit the text (a checkpoint inside a paragraph) is found
    /// out where it is used.
    @Test func aCheckpointThatIsNoBlockStartIsFoundOut() throws {
        let text = BookText(ReaderFixture.longString(copies: 6))
        let layout = TextLayout(text: text, width: 40)
        let count = try #require(LineCount.count(text: text, width: 40))
        let offset = text.count - 10
        #expect(count.checkedLineNumber(of: offset, in: layout) == count.lineNumber(of: offset, in: layout))
        let inside = layout.blockStart(containing: 700) + 5
        let wrong = LineCount(width: 40, totalLines: count.totalLines, checkpoints: [(0, 0), (inside, 3)])
        #expect(wrong.checkedLineNumber(of: offset, in: layout) == nil)
        let tooFew = LineCount(width: 40, totalLines: 2, checkpoints: [(0, 0)])
        #expect(tooFew.checkedLineNumber(of: offset, in: layout) == nil)
    }

    @Test func theReaderTakesThePageCountFromTheIndexAndSavesANewOne() throws {
        let long = ReaderFixture.longString(copies: 6).replacingOccurrences(of: "\r\n", with: "\n")
        let setup = try Setup(bytes: Array(long.utf8))
        defer { setup.remove() }
        let firstWakes = WakeCounter()
        let first = ReaderHarness.indexed(path: setup.path, store: setup.store, columns: 60, wakes: firstWakes)
        #expect(first.progress.contains("counting pages"))
        #expect(firstWakes.count == 1, "one wake-up asked for after the frame")
        #expect(setup.indexFiles.isEmpty, "nothing written before the frame")
        try first.waitForPageCount()
        let shown = first.progress
        #expect(shown.contains("page 1 of "))
        #expect(setup.indexFiles.count == 1, "the index and its page count written")

        let secondWakes = WakeCounter()
        let second = ReaderHarness.indexed(path: setup.path, store: setup.store, columns: 60, wakes: secondWakes)
        #expect(second.progress == shown, "the first frame has the count")
        #expect(secondWakes.count == 0, "nothing left to do after the frame")

        // At another width there is no count yet: made after the frame, then kept beside the first.
        let narrow = ReaderHarness.indexed(path: setup.path, store: setup.store, columns: 44, wakes: WakeCounter())
        #expect(narrow.progress.contains("counting pages"))
        try narrow.waitForPageCount()
        #expect(narrow.progress.contains("page 1 of "))
        let widths = try BookIndexCodec.decode(Data(contentsOf: setup.indexURL), for: setup.identity()).lineCounts.map(\.width)
        #expect(widths.count == 2)
    }

    /// A page count in the index that proves wrong where it is used is dropped and made again.
    @Test func aWrongPageCountInTheIndexIsMadeAgain() throws {
        let long = ReaderFixture.longString(copies: 6).replacingOccurrences(of: "\r\n", with: "\n")
        let setup = try Setup(bytes: Array(long.utf8))
        defer { setup.remove() }
        let document = try setup.load()
        var index = BookIndex(identity: try setup.identity(), bookID: document.id, detectedTitle: nil, invalidSequences: 0, chapters: document.chapters)
        let inside = TextLayout(text: document.text, width: 56).blockStart(containing: 700) + 5
        index.remember(LineCount(width: 56, totalLines: 9999, checkpoints: [(0, 0), (inside, 3)]))
        try Self.plant(index, in: setup)
        let store = InMemoryPreferenceStore()
        _ = ReadingPositions(store: store).adopt(ReadingPlace(offset: document.text.count / 2, stamp: EditStamp(time: 1, device: "t")), forBook: document.id)
        let wakes = WakeCounter()
        let reader = ReaderHarness.indexed(path: setup.path, store: setup.store, columns: 60, wakes: wakes, defaults: store)
        #expect(reader.progress.contains("counting pages"), "the planted count is not shown: \(reader.progress)")
        #expect(wakes.count == 1)
        try reader.waitForPageCount()
        let page = try #require(reader.reader.pageNumber)
        #expect(page.total < 9999)
    }
}

extension ReaderHarness {
    /// A reader that opens `path` with the real loader and an index folder.
    static func indexed(path: String, store: BookIndexStore, columns: Int, wakes: WakeCounter,
                        defaults: PreferenceStore = InMemoryPreferenceStore()) -> ReaderHarness {
        ReaderHarness(bookPath: path, store: defaults, columns: columns, load: { try BookLoader.load(path: $0, indexes: store) },
                      wake: { wakes.post() })
    }
}

/// Counts wake-ups (the reader asks for them on the main thread, the page counter on its own).
final class WakeCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var posted = 0
    var count: Int { lock.withLock { posted } }
    func post() { lock.withLock { posted += 1 } }
}
