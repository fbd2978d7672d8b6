import Foundation
import Testing

/// The collections database with the real binary: what an older version left in defaults.plist
/// moves in, the file keeps a copy for it, what it writes there later is merged in, and a
/// bookmark is kept as a keyed archive `plist print` reads.
@Suite("Collections journeys in tmux", .whenEndToEndIsAskedFor)
struct CollectionsJourneyTests {
    func defaultsFile(_ tmux: TmuxSession) -> URL { tmux.home.appendingPathComponent(".config/wonderland/defaults.plist") }

    func writeDefaults(_ tmux: TmuxSession, _ values: [String: Any]) throws {
        let file = defaultsFile(tmux)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try PropertyListSerialization.data(fromPropertyList: values, format: .xml, options: 0).write(to: file)
    }

    func fileKeys(_ tmux: TmuxSession) throws -> Set<String> {
        let plist = try PropertyListSerialization.propertyList(from: Data(contentsOf: defaultsFile(tmux)), format: nil)
        return Set((plist as? [String: Any] ?? [:]).keys)
    }

    @Test("an older version's notes and stars move in, the notes keep a copy in defaults.plist for it, and what it writes there later is merged in")
    func movingInAndBack() throws {
        let tmux = try TmuxSession(columns: 100, rows: 30)
        try writeDefaults(tmux, [
            "WLCharacterNotes": ["mock-turtle": "Sobs."], "WLFavouriteCharacters": ["alice": true], "WLTextWidth": 70,
        ])
        try tmux.launchApp()
        try tmux.type("2")
        try tmux.waitForText("▸ Alice  ch. 1 · favourite")
        try tmux.type("q")
        try tmux.waitForText("exit=0")
        let copied: Set<String> = ["WLTextWidth", "WLWrittenBy", "WLCharacterNotes", "WLCopyMarks.WLCharacterNotes"]
        #expect(try fileKeys(tmux) == copied, "the stars leave the file; the notes keep a copy for 0.3.0, which has no stars")
        let list = try tmux.wonderland("collections", "list")
        #expect(list.output.contains("WLCharacterNotes: 1 entry"), "\(list.output)")
        #expect(list.output.contains("WLFavouriteCharacters: 1 entry"), "\(list.output)")
        #expect(try tmux.wonderland("collections", "export", "WLCharacterNotes", "--format", "json").output.contains("\"mock-turtle\": \"Sobs.\""))

        // An older wonderland, which knows only the file, saves a note there.
        #expect(try tmux.wonderland("defaults", "write", "WLCharacterNotes", "-dict", "dodo", "Races.").status == 0)
        try tmux.launchApp()
        try tmux.type("q")
        try tmux.waitForText("exit=0")
        let notes = try tmux.wonderland("collections", "export", "WLCharacterNotes", "--format", "json").output
        #expect(notes.contains("\"dodo\": \"Races.\"") && notes.contains("\"mock-turtle\": \"Sobs.\""), "\(notes)")
        #expect(try fileKeys(tmux) == copied)
        #expect(!(try tmux.wonderland("defaults", "read").output.contains("Sobs")), "defaults read shows the settings, not the copies")
        let copy = try tmux.wonderland("defaults", "read", "WLCharacterNotes").output
        #expect(copy.contains("Sobs") && copy.contains("Races."), "the copy holds both again: \(copy)")
    }

    @Test("a bookmark is kept as a keyed archive plist print reads; the place and bookmark are copied into defaults.plist in 0.3.0's shape")
    func bookmarksAndPagesStayOutOfTheSettings() throws {
        let tmux = try TmuxSession(columns: 80, rows: 24)
        let book = tmux.home.appendingPathComponent("long.txt")
        let chapters = (1...4).map { chapter in
            "CHAPTER \(chapter).\n\n" + (1...100).map { "Paragraph \($0) of chapter \(chapter), with enough words in it to wrap across the page." }.joined(separator: "\n\n")
        }
        try Data(chapters.joined(separator: "\n\n").utf8).write(to: book)
        try writeDefaults(tmux, ["WLTextWidth": 70])
        let before = try FileManager.default.attributesOfItem(atPath: defaultsFile(tmux).path)
        try tmux.launchApp("--book \(book.path)")
        try tmux.waitForText("Paragraph 1 of chapter 1")
        for _ in 0..<3 { try tmux.press("PageDown") }
        try tmux.type("a")
        try tmux.waitForText("Bookmark added.")
        try tmux.press("PageDown")
        usleep(800_000)  // the place is saved when the page turns settle
        try tmux.type("q")
        try tmux.waitForText("exit=0")
        _ = before
        let file = try PropertyListSerialization.propertyList(from: Data(contentsOf: defaultsFile(tmux)), format: nil) as? [String: Any] ?? [:]
        let copiedPlaces = file["WLReadingPositions"] as? [String: Any] ?? [:]
        #expect(copiedPlaces.count == 1 && copiedPlaces.values.allSatisfy { ($0 as? Int ?? 0) > 0 }, "a bare offset, as 0.3.0 reads it: \(file)")
        #expect((file["WLBookmarks"] as? [String: Any])?.count == 1, "\(file)")

        let places = try tmux.wonderland("collections", "export", "WLReadingPositions", "--format", "json").output
        let hash = try #require(places.split(separator: "\"").dropFirst().first.map(String.init), "\(places)")
        #expect(places.contains("\"offset\": ") && !places.contains("\"offset\": 0\n"), "\(places)")
        let archive = tmux.home.appendingPathComponent("marks.plist")
        #expect(try tmux.wonderland("collections", "export", "WLBookmarks", archive.path, "--entry", hash).status == 0)
        let print = try tmux.wonderland("plist", "print", archive.path)
        #expect(print.status == 0, "\(print.output)")
        #expect(print.output.contains("WLBookmarkList") && print.output.contains("WLBookmark"), "\(print.output)")
    }
}
