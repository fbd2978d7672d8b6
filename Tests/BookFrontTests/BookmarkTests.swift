import Defaults
import Foundation
import KeyedArchive
@testable import BookFront
import PropertyList
import Terminal
import Testing

@Suite("Bookmarks")
struct BookmarkTests {
    @Test func bookmarksAreKeyedArchivesInTheStorePerBook() throws {
        let store = InMemoryPreferenceStore()
        let storage = ReaderStorage(store: store)
        let when = Date(timeIntervalSinceReferenceDate: 800_000_000)
        try storage.setBookmarks([Bookmark(offset: 90, title: "later", created: when), Bookmark(offset: 12, title: "early", created: when)], forBook: "a")
        try storage.setBookmarks([Bookmark(offset: 5, title: "other", created: when)], forBook: "b")
        guard case .dictionary(let all)? = store.object(forKey: ReaderStorage.bookmarksKey), case .data(let archive)? = all["a"] else {
            Issue.record("WLBookmarks is not a dictionary of data")
            return
        }
        // The data is an NSKeyedArchiver archive naming our classes.
        let plist = try PropertyListReader.value(from: archive)
        guard case .dictionary(let top) = plist else { Issue.record("not a dictionary"); return }
        #expect(top["$archiver"] == .string("NSKeyedArchiver"))
        #expect(String(describing: plist).contains("WLBookmarkList") && String(describing: plist).contains("WLBookmark"))
        let decoded = try ArchivedValue.object(of: BookmarkList.self, from: archive, allowedClasses: [Bookmark.self])
        #expect(decoded.bookID == "a")
        #expect(try storage.bookmarks(forBook: "a") == [Bookmark(offset: 12, title: "early", created: when), Bookmark(offset: 90, title: "later", created: when)])
        #expect(try storage.bookmarks(forBook: "b").map(\.title) == ["other"])
        #expect(try storage.bookmarks(forBook: "c").isEmpty)
        try storage.setBookmarks([], forBook: "a")
        #expect(try storage.bookmarks(forBook: "a").isEmpty)
        #expect(try storage.bookmarks(forBook: "b").count == 1)
    }

    @Test func aDamagedBookmarkArchiveIsAnErrorNotACrash() {
        let store = InMemoryPreferenceStore()
        store.set(.dictionary(["a": .data(Data("not an archive".utf8))]), forKey: ReaderStorage.bookmarksKey)
        #expect(throws: (any Error).self) { try ReaderStorage(store: store).bookmarks(forBook: "a") }
    }

    @Test func addListJumpAndDeleteInTheReader() throws {
        let book = BookDocument(id: "long-b", title: "Tide", path: "/l", format: .plainText,
                                text: BookText(ReaderFixture.longString(copies: 4)), chapters: [])
        let harness = ReaderHarness(books: ["/l": book], bookPath: "/l", rows: 16)
        for _ in 0..<3 { try harness.press(.character(" ")) }
        let marked = harness.reader.anchor
        let top = harness.topLine
        try harness.press(.character("a"))
        #expect(harness.progress.contains("Bookmark added"))
        try harness.press(.character("a"))
        #expect(harness.progress.contains("already bookmarked"))
        try harness.press(.character("g"))
        #expect(harness.reader.anchor == 0)

        try harness.press(.character("B"))
        let firstWords = top.split(separator: " ").prefix(3).joined(separator: " ")
        #expect(harness.lines.contains { $0.contains("▸ " + firstWords) })
        try harness.press(.enter)
        #expect(harness.reader.anchor == marked)

        // A second reader on the same store sees it (it lives in the store, not the screen).
        let again = ReaderHarness(books: ["/l": book], bookPath: "/l", store: harness.store)
        #expect(try ReaderStorage(store: again.store).bookmarks(forBook: "long-b").map(\.offset) == [marked])

        try harness.press(.character("B"), .character("d"))
        #expect(harness.lines.contains { $0.contains("Delete bookmark") })
        try harness.press(.character("y"))
        #expect(harness.lines.contains { $0.contains("No bookmarks yet") })
        #expect(try ReaderStorage(store: harness.store).bookmarks(forBook: "long-b").isEmpty)
    }
}
