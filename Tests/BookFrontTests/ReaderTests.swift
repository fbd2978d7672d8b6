import Defaults
import Foundation
import KeyedArchive
@testable import BookFront
import PropertyList
import Restoration
import Screens
import Terminal
import Testing

private let longBook = BookDocument(id: "long-1", title: "The Tide Clock", path: "/books/tide.txt", format: .plainText,
                                    text: BookText(ReaderFixture.longString(copies: 6)), chapters: [])

/// Preserves `reader`'s state through the real engine and restores it into a fresh reader.
private func relaunch(_ harness: ReaderHarness, books: [String: BookDocument], bookPath: String? = nil,
                      columns: Int, rows: Int = 16) throws -> ReaderHarness {
    let engine = RestorationEngine(duplicatePolicy: .fail)
    let header = RestorationHeader(appVersion: "test", timestamp: Date(), terminalColumns: 60, terminalRows: 16)
    let data = try engine.preserve(root: harness.reader, header: header).data
    var failure: Error?
    let relaunched = ReaderHarness(books: books, bookPath: bookPath, store: harness.store, columns: columns, rows: rows) { reader in
        do { _ = try engine.restore(from: data, root: reader) } catch { failure = error }
    }
    if let failure { throw failure }
    return relaunched
}

@Suite("Reader screen")
struct ReaderTests {
    @Test func theFirstFrameShowsTitleTextAndProgress() throws {
        let harness = ReaderHarness(books: ["/tide": ReaderFixture.document(path: "/tide")], bookPath: "/tide", columns: 70, rows: 16)
        #expect(harness.lines[0].hasPrefix(" The Tide Clock"))
        #expect(harness.page.first == "CHAPTER I")
        #expect(harness.progress.contains("0%"))
        try harness.waitForPageCount()
        #expect(harness.progress.contains("page 1 of "))
        try harness.press(.character("G"))
        #expect(harness.progress.contains("100%"))
        let page = try #require(harness.reader.pageNumber)
        #expect(page.current == page.total)
        #expect(harness.page.last { !$0.isEmpty }?.hasSuffix("punctuality.") == true)
    }

    @Test func theChapterOfTheTopLineIsInTheTitleRow() throws {
        let harness = ReaderHarness(books: ["/tide": ReaderFixture.document(path: "/tide")], bookPath: "/tide")
        try harness.press(.character("]"))
        #expect(harness.topLine == "CHAPTER II")
        #expect(harness.lines[0].contains("— CHAPTER II"))
        try harness.press(.character("]"))
        #expect(harness.topLine == "CHAPTER III")
        try harness.press(.character("["))
        #expect(harness.topLine == "CHAPTER II")
    }

    @Test func backThenForwardReturnsToTheSamePage() throws {
        let harness = ReaderHarness(books: ["/l": longBook], bookPath: "/l", columns: 50, rows: 14)
        for _ in 0..<5 { try harness.press(.character(" ")) }
        let here = harness.reader.anchor
        let shown = harness.page
        try harness.press(.character("b"))
        #expect(harness.reader.anchor < here)
        try harness.press(.pageDown)
        #expect(harness.reader.anchor == here)
        #expect(harness.page == shown)
        // Forward then back, too, with the other keys.
        try harness.press(.right)
        try harness.press(.left)
        #expect(harness.reader.anchor == here)
        // Consecutive pages neither overlap nor skip a line.
        let before = harness.page
        try harness.press(.character("l"))
        let layout = TextLayout(text: longBook.text, width: harness.reader.textWidth)
        let lastShown = try #require(layout.position(of: before.isEmpty ? 0 : here))
        let expectedTop = layout.line(at: layout.move(lastShown, by: harness.reader.pageHeight)).start
        #expect(harness.reader.anchor == expectedTop)
    }

    @Test func aWheelReportScrollsThreeLinesNeverAPage() throws {
        let harness = ReaderHarness(books: ["/l": longBook], bookPath: "/l")
        let first = harness.page
        try harness.wheel(down: true, x: 5, y: 5)
        #expect(Array(harness.page.prefix(first.count - 3)) == Array(first.dropFirst(3)),
                "the page's fourth line is now on top:\n\(harness.numberedScreen)")
        // A notch of alacritty's wheel is two reports: six lines, and the last line of the page
        // before is still on screen, so nothing went by unread.
        try harness.wheel(down: true, x: 5, y: 5)
        let lastRead = try #require(first.last { !$0.isEmpty })
        #expect(harness.page.first == first[6] && harness.page.contains(lastRead), "\(harness.numberedScreen)")
        try harness.wheel(down: false, x: 5, y: 5)
        try harness.wheel(down: false, x: 5, y: 5)
        #expect(harness.reader.anchor == 0)
    }

    @Test func theTableOfContentsJumpsToAChapter() throws {
        let book = ReaderFixture.document(path: "/tide")
        let harness = ReaderHarness(books: ["/tide": book], bookPath: "/tide", rows: 20)
        try harness.press(.character("t"))
        #expect(harness.lines.contains { $0.contains("Contents") })
        #expect(harness.lines.contains { $0.contains("▸ CHAPTER I ") })
        try harness.press(.down, .down, .enter)
        #expect(harness.reader.anchor == book.chapters[2].offset)
        #expect(harness.topLine == "CHAPTER III")
    }

    @Test func restorationBringsBackTheBookAndTheSentenceAtAnotherWidth() throws {
        let books = ["/books/tide.txt": longBook]
        let first = ReaderHarness(books: books, bookPath: "/books/tide.txt", columns: 120, rows: 16)
        for _ in 0..<7 { try first.press(.character(" ")) }
        let offset = first.reader.anchor
        let topAtWide = first.topLine
        #expect(offset > 0)

        let narrow = try relaunch(first, books: books, columns: 60)
        #expect(narrow.reader.document?.id == longBook.id)
        #expect(narrow.reader.anchor == offset)
        let layout = TextLayout(text: longBook.text, width: narrow.reader.textWidth)
        let line = layout.line(at: try #require(layout.position(of: offset)))
        #expect(narrow.reader.topLineOffset == line.start)
        #expect(line.start <= offset)
        // The first word of the wide page's top line is on the narrow page's top line.
        let firstWord = String(topAtWide.split(separator: " ").first ?? "")
        #expect(narrow.topLine.contains(firstWord))
    }

    @Test func aChangedFileOpensAtItsStartWithANote() throws {
        let first = ReaderHarness(books: ["/books/tide.txt": longBook], bookPath: "/books/tide.txt")
        for _ in 0..<3 { try first.press(.character(" ")) }
        let edited = BookDocument(id: "edited", title: "Edited", path: "/books/tide.txt", format: .plainText, text: longBook.text, chapters: [])
        let second = try relaunch(first, books: ["/books/tide.txt": edited], columns: 60)
        #expect(second.reader.document?.id == "edited")
        #expect(second.reader.anchor == 0)
        #expect(second.reader.message?.contains("changed since you last read it") == true)
        #expect(second.progress.contains("The book at"))
    }

    @Test func positionsAreKeptPerBook() throws {
        let other = BookDocument(id: "other-2", title: "Other", path: "/o", format: .plainText,
                                 text: BookText(ReaderFixture.longString(copies: 3)), chapters: [])
        let harness = ReaderHarness(books: ["/l": longBook, "/o": other], bookPath: "/l")
        for _ in 0..<4 { try harness.press(.character(" ")) }
        let inLong = harness.reader.anchor
        harness.reader.openFile(path: "/o")
        try harness.send(.wake)
        #expect(harness.reader.document?.id == "other-2")
        #expect(harness.reader.anchor == 0)
        try harness.press(.character(" "))
        let inOther = harness.reader.anchor
        #expect(inOther != inLong)
        let storage = ReaderStorage(store: harness.store)
        #expect(storage.position(forBook: "long-1") == inLong)
        #expect(storage.position(forBook: "other-2") == inOther)
        harness.reader.openFile(path: "/l")
        #expect(harness.reader.anchor == inLong)
    }

    @Test func openingABadFileKeepsTheBookThatWasOpen() throws {
        let harness = ReaderHarness(books: ["/l": longBook], bookPath: "/l")
        try harness.press(.character(" "))
        let place = harness.reader.anchor
        try harness.press(.character("o"))
        try harness.press(.control("u"))
        try harness.type("/missing.epub")
        try harness.press(.enter)
        #expect(harness.lines.contains { $0.contains("Cannot open this book") })
        #expect(harness.lines.contains { $0.contains("no such file") })
        try harness.press(.enter)
        #expect(harness.reader.document === longBook)
        #expect(harness.reader.anchor == place)
    }

    @Test func withoutTheDefaultBookTheTabSaysHowToGetIt() throws {
        let harness = ReaderHarness()
        let text = harness.lines.joined(separator: " ")
        #expect(text.contains("wonderland --book PATH"))
        #expect(text.contains("press o to open"))
        #expect(harness.reader.keyBindings.map(\.label) == ["o"])
    }

    @Test func theDefaultBookOpensFromTheDataFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-reader-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = URL(fileURLWithPath: BookLibrary.defaultBookPath(dataFolderPath: folder.path))
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(ReaderFixture.string.utf8).write(to: url)
        let harness = ReaderHarness(books: [url.path: ReaderFixture.document(path: url.path)], dataFolder: folder)
        #expect(harness.topLine == "CHAPTER I")
    }

    @Test func aNewTextWidthReflowsAndRecountsPages() throws {
        let store = InMemoryPreferenceStore()
        let harness = ReaderHarness(books: ["/l": longBook], bookPath: "/l", store: store, columns: 100)
        try harness.waitForPageCount()
        let wide = try #require(harness.reader.pageNumber)
        store.set(.integer(40), forKey: "WLTextWidth")
        try harness.send(.wake)
        #expect(harness.reader.textWidth == 40)
        #expect(harness.page.allSatisfy { DisplayWidth.of($0) <= 40 })
        try harness.waitForPageCount()
        let narrow = try #require(harness.reader.pageNumber)
        #expect(narrow.total > wide.total)
    }
}

@Suite("Reader settings")
struct ReaderSettingsTests {
    @Test func aTextWidthGivenAsTextReadsAsThatNumber() throws {
        // What `wonderland -WLTextWidth 50` puts in the argument domain.
        let store = InMemoryPreferenceStore(values: ["WLTextWidth": .string("50")])
        let harness = ReaderHarness(books: ["/tide": ReaderFixture.document(path: "/tide")], bookPath: "/tide", store: store, columns: 120)
        #expect(harness.reader.textWidth == 50)
        #expect(harness.page.allSatisfy { DisplayWidth.of($0) <= 50 })
        #expect(harness.page.contains { DisplayWidth.of($0) > 40 })
    }

    @Test func pageNumbersCanBeTurnedOff() throws {
        let store = InMemoryPreferenceStore(values: ["WLShowPageNumbers": .boolean(false)])
        let harness = ReaderHarness(books: ["/tide": ReaderFixture.document(path: "/tide")], bookPath: "/tide", store: store)
        #expect(harness.progress.contains("0%"))
        #expect(!harness.progress.contains("page"))
    }
}

@Suite("Reader themes and justification")
struct ReaderLookTests {
    @Test func justifiedTextReachesTheRightMarginAndAThemeColoursThePage() throws {
        let store = InMemoryPreferenceStore(values: ["WLJustifyText": .boolean(true), "WLTheme": .string("night"), "WLTextWidth": .integer(40)])
        let harness = ReaderHarness(books: ["/tide": ReaderFixture.document(path: "/tide")], bookPath: "/tide", store: store, columns: 60, rows: 20)
        let prose = harness.page.filter { $0.hasPrefix("Marigold") || $0.hasPrefix("with") }
        #expect(!prose.isEmpty)
        #expect(prose.allSatisfy { DisplayWidth.of($0) == 40 || $0.hasSuffix(".") })
        #expect(harness.terminal.frame[0, 3].style.background == .black)
        #expect(harness.terminal.frame[0, 0].style.background == nil)
    }
}

@Suite("Reader paths")
struct ReaderPathTests {
    @Test func relativePathsAreSavedAbsolute() {
        let folder = FileManager.default.currentDirectoryPath
        #expect(ReaderScreen.absolutePath("books/tide.txt", home: "/h") == folder + "/books/tide.txt")
        #expect(ReaderScreen.absolutePath("/a/b.txt", home: "/h") == "/a/b.txt")
    }

    @Test func tildeIsTheHomeFolderGivenNotThePasswordFilesHome() {
        #expect(ReaderScreen.absolutePath("~/x.txt", home: "/tmp/elsewhere") == "/tmp/elsewhere/x.txt")
        #expect(ReaderScreen.absolutePath("~", home: "/tmp/elsewhere/") == "/tmp/elsewhere")
        #expect(ReaderScreen.absolutePath("~/x.txt", home: nil) == NSHomeDirectory() + "/x.txt")
    }
}

@Suite("Reader opening")
struct ReaderOpeningTests {
    @Test func aBooksNotesAreShownOnceWhenItOpens() throws {
        let noted = BookDocument(id: "n", title: "Noted", path: "/n", format: .plainText, text: BookText(ReaderFixture.string),
                                 chapters: [], notes: ["Invalid UTF-8 was replaced in 2 places."])
        let harness = ReaderHarness(books: ["/l": ReaderFixture.document(path: "/l"), "/n": noted], bookPath: "/l")
        harness.reader.openFile(path: "/n")
        try harness.send(.wake)
        #expect(harness.lines.contains { $0.contains("About this book") })
        #expect(harness.lines.contains { $0.contains("Invalid UTF-8 was replaced in 2 places.") })
        try harness.press(.enter)
        try harness.press(.character(" "))
        #expect(!harness.lines.contains { $0.contains("About this book") })
    }

    @Test func aReaderThatNeverAppearedKeepsItsRestoredPlaceWithoutReadingTheBook() throws {
        var loads = 0
        let environment = ReaderEnvironment(store: InMemoryPreferenceStore(), dataFolderPath: "/nonexistent",
                                            load: { _ in loads += 1; return ReaderFixture.document() }, wake: {})
        let engine = RestorationEngine(duplicatePolicy: .fail)
        let header = RestorationHeader(appVersion: "t", timestamp: Date(), terminalColumns: 80, terminalRows: 24)
        let first = ReaderScreen(environment: environment)
        first.open(ReaderFixture.document(path: "/books/tide.txt"), at: 321, announce: false)
        let data = try engine.preserve(root: first, header: header).data

        let hidden = ReaderScreen(environment: environment)
        _ = try engine.restore(from: data, root: hidden)
        #expect(hidden.document == nil)
        #expect(loads == 0)
        // Saved again (the app quits while another tab is shown): the same place goes back.
        let again = ReaderScreen(environment: environment)
        _ = try engine.restore(from: try engine.preserve(root: hidden, header: header).data, root: again)
        again.openInitialBookIfNeeded()
        #expect(loads == 1)
        #expect(again.anchor == 321)
    }
}
