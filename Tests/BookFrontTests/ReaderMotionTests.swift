@testable import BookFront
import Defaults
import Foundation
import Screens
import Terminal
import Testing

private let longBook = BookDocument(id: "long-2", title: "The Tide Clock", path: "/books/tide.txt", format: .plainText,
                                    text: BookText(ReaderFixture.longString(copies: 6)), chapters: [])

/// The reader, its Contents list and the Open prompt answer to the motion keys the rest of the
/// app uses: ↑↓ by a line, ^A/^E and Home/End to the ends, Tab to complete a path.
@Suite("Reader motion keys and path completion")
struct ReaderMotionTests {
    @Test("↑↓ and j k scroll the page by one line; ^E goes to the end, ^A back to the start")
    func linesAndEnds() throws {
        let harness = ReaderHarness(books: ["/l": longBook], bookPath: "/l", columns: 50, rows: 14)
        let page = harness.page
        try harness.press(.down)
        #expect(harness.page.first == page[1])
        try harness.press(.character("j"))
        #expect(harness.page.first == page[2])
        try harness.press(.up, .character("k"))
        #expect(harness.page == page)
        try harness.press(.up)
        #expect(harness.reader.message == "Beginning of the book.")
        try harness.press(.control("e"))
        #expect(harness.progress.contains("100%"))
        let end = harness.reader.anchor
        try harness.press(.down)
        #expect(harness.reader.anchor == end)
        #expect(harness.reader.message == "End of the book.")
        try harness.press(.control("a"))
        #expect(harness.reader.anchor == 0)
    }

    @Test("the Contents list: ^E picks the last chapter, ^A the first, the wheel moves")
    func contentsList() throws {
        let book = ReaderFixture.document(path: "/tide")
        let harness = ReaderHarness(books: ["/tide": book], bookPath: "/tide", rows: 20)
        try harness.press(.character("t"))
        try harness.press(.control("e"))
        #expect(harness.lines.contains { $0.contains("▸ CHAPTER III") })
        try harness.press(.control("a"))
        #expect(harness.lines.contains { $0.contains("▸ CHAPTER I ") })
        try harness.send(.mouse(MouseEvent(.wheelDown, button: .none, at: Point(x: 20, y: 8))))
        #expect(harness.lines.contains { $0.contains("▸ CHAPTER III") })
        try harness.press(.enter)
        #expect(harness.reader.anchor == book.chapters[2].offset)
    }

    @Test("without a book at 40×10, the text that does not fit ends with “…”; at 80×24 it is whole")
    func noBookTextIsCutWithAnEllipsis() throws {
        let small = ReaderHarness(columns: 40, rows: 10)
        #expect(small.lines.dropLast().contains { $0.hasSuffix("…") }, "\(small.lines)")
        let large = ReaderHarness(columns: 80, rows: 24)
        #expect(large.lines.joined(separator: " ").contains("press o to open"))
        #expect(!large.lines.contains { $0.hasSuffix("…") })
    }

    /// A folder of books to complete in.
    private func library() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-complete-\(UUID().uuidString.prefix(8))")
        for path in ["alice/looking-glass.txt", "alice/wonderland.epub", "alice/wonderland.md", "snark.txt", ".hidden.txt"] {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("words".utf8).write(to: url)
        }
        return folder
    }

    @Test("Tab completes a unique name, a folder with its /, as far as several agree, and lists them")
    func completion() throws {
        let folder = try library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let paths = PathCompletion(home: folder.path, currentDirectory: folder.path)
        #expect(paths.complete("sn") == TabCompletion(text: "snark.txt"))
        #expect(paths.complete("al") == TabCompletion(text: "alice/"))
        #expect(paths.complete("~/al") == TabCompletion(text: "~/alice/"))
        #expect(paths.complete("~") == TabCompletion(text: "~/"))
        #expect(paths.complete(folder.path + "/alice/w") == TabCompletion(text: folder.path + "/alice/wonderland."))
        #expect(paths.complete("alice/wonderland.") == TabCompletion(text: "alice/wonderland.", candidates: ["wonderland.epub", "wonderland.md"]))
        #expect(paths.complete("zzz") == TabCompletion(text: "zzz"))
        #expect(paths.complete("").candidates == ["alice/", "snark.txt"])  // hidden names only when asked for
        #expect(paths.complete(".h") == TabCompletion(text: ".hidden.txt"))
        #expect(paths.complete("/no/such/folder/x") == TabCompletion(text: "/no/such/folder/x"))
        // A pasted page is no name and no path: left as it is, no folder listed.
        let page = String(repeating: "snark ", count: 3_500)
        #expect(paths.complete(page) == TabCompletion(text: page))
        #expect(paths.complete(page + "/sn") == TabCompletion(text: page + "/sn"))
    }

    @Test("the Open prompt: Tab completes from ~ ($HOME), keeps what follows the cursor, lists what is left")
    func openPromptCompletes() throws {
        let folder = try library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ReaderEnvironment(store: InMemoryPreferenceStore(), dataFolderPath: "/nonexistent-wl-data",
                                            homeFolder: folder.path, load: { path in
            ReaderFixture.document(id: path, path: path)
        }, wake: {})
        let reader = ReaderScreen(environment: environment)
        let terminal = HeadlessTerminal(size: Size(columns: 60, rows: 16))
        let app = Application(terminal: terminal, root: reader)
        app.launch()
        for key in [Key.character("o")] + "~/al".map { Key.character($0) } + [.tab] + "w".map { Key.character($0) } + [.tab, .tab] {
            terminal.enqueue(.key(key))
        }
        try app.processPendingEvents()
        let prompt = try #require(app.modals.last as? Prompt)
        #expect(prompt.field.text == "~/alice/wonderland.")
        #expect(terminal.lines.contains { $0.contains("wonderland.epub  wonderland.md") })
        for key in "md".map({ Key.character($0) }) + [.enter] { terminal.enqueue(.key(key)) }
        try app.processPendingEvents()
        #expect(reader.document?.path == folder.path + "/alice/wonderland.md")
    }
}
