import BookFront
import Defaults
import Foundation
import PropertyList
import Restoration
import Screens
import ScreensTesting
import Terminal
import Testing
@testable import WonderlandApp

/// The app's real tree on a headless terminal, with an in-memory store and a data folder of
/// the test's own (no book in it unless a test puts one there).
private final class CharactersLaunch: Pilot {
    let root: TabScreen
    let services: AppServices

    /// `restoring` is an archive to restore before the first frame, as a relaunch does;
    /// `firstFrameWait` replaces how long that frame may wait for the chapter search.
    /// `searchHeldBack` drops the book's background search, so only what is on screen without
    /// it (a remembered answer) can show the chapters.
    init(store: InMemoryPreferenceStore, dataFolder: URL, restoring archive: Data? = nil, columns: Int = 80, rows: Int = 24,
         firstFrameWait: TimeInterval? = nil, searchHeldBack: Bool = false) throws {
        let services = AppServices(store: store, bundle: .embedded, launch: LaunchOptions(dataFolder: dataFolder))
        let root = RootScreen.make(services: services)
        if let firstFrameWait { services.shared.characters?.book.firstFrameWait = firstFrameWait }
        if searchHeldBack { services.shared.characters?.book.startInBackground = { _ in } }
        if let archive { _ = try RootScreen.restorationEngine(services: services).restore(from: archive, root: root) }
        self.services = services
        self.root = root
        super.init(root, columns: columns, rows: rows)
    }

    var characters: NavigationStack { root.tabs[1] as! NavigationStack }
    var list: ListScreen { characters.stack[0] as! ListScreen }
    var detail: CharacterDetailScreen? { characters.topScreen as? CharacterDetailScreen }

    func preserve() throws -> Data {
        let header = RestorationHeader(appVersion: "test", timestamp: Date(), terminalColumns: 80, terminalRows: 24)
        return try RootScreen.restorationEngine(services: services).preserve(root: root, header: header).data
    }

    /// The row showing `text` (the notes sit below the description, wherever that ends).
    func row(of text: String) -> Int? { lines.firstIndex { $0.contains(text) } }
}

/// How often the book's search asked for a thread.
private final class StartCount: @unchecked Sendable {
    var count = 0
}

@Suite("Characters tab")
struct CharactersTabTests {
    let dataFolder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-characters-app-\(UUID().uuidString)")

    @Test func theTabAndTheRestoredDetailShareOneCharacterListAndBookSearch() throws {
        let services = AppServices(store: InMemoryPreferenceStore(), bundle: .embedded, launch: LaunchOptions(dataFolder: dataFolder))
        _ = RootScreen.make(services: services)
        let made = try #require(services.shared.characters)
        _ = RootScreen.restorationEngine(services: services)
        #expect(services.shared.characters === made, "the list is read and the book searched once per launch")
    }

    @Test func theListShowsTheCatalogAndOpensADetailWithDescriptionAndChapters() throws {
        let launch = try CharactersLaunch(store: InMemoryPreferenceStore(), dataFolder: dataFolder)
        try launch.press(.character("2"))
        #expect(launch.lines[1] == " Characters")
        #expect(launch.lines[2] == "▸ Alice  ch. 1")
        #expect(launch.lines[3] == "  White Rabbit  ch. 1 · Rabbit")
        #expect(launch.list.items.count >= 15)
        try launch.press(.down, .enter)
        let detail = try #require(launch.detail)
        #expect(detail.character.id == "white-rabbit")
        #expect(!detail.isEditing)
        #expect(launch.lines[1] == " Characters › White Rabbit")
        #expect(launch.lines[2] == " White Rabbit")
        #expect(launch.lines[3] == " First seen in chapter 1 · also called Rabbit")
        #expect(launch.lines[5].hasPrefix(" A nervous rabbit in a waistcoat"))
        #expect(launch.row(of: "Chapters: the book is not here (wonderland --book PATH).") != nil)
        #expect(launch.row(of: "No notes yet. Press e to write some.") != nil)
        #expect(launch.lines[23].hasPrefix("e Edit notes  Esc Back to Characters"))
        // Reading keys are not text: q still quits from here.
        try launch.press(.escape)
        #expect(launch.characters.stack.count == 1)
        #expect(launch.lines[3] == "▸ White Rabbit  ch. 1 · Rabbit")
    }

    @Test func anArchiveThatNamesTheTabCharacterNavRestoresItsTabAndDetail() throws {
        let first = try CharactersLaunch(store: InMemoryPreferenceStore(), dataFolder: dataFolder)
        try first.press(.character("2"), .down, .enter)
        first.characters.restorationIdentifier = "CharacterNav"  // as every archive before the rename
        let archive = try first.preserve()

        let second = try CharactersLaunch(store: InMemoryPreferenceStore(), dataFolder: dataFolder, restoring: archive)
        #expect(second.root.selectedTab === second.characters, "the tab saved as selected by its former name")
        #expect(second.detail?.character.id == "white-rabbit")
        #expect(second.lines[1] == " Characters › White Rabbit")
        #expect(second.characters.restorationIdentifier == "Characters")
    }

    @Test func aHalfWrittenNoteComesBackWithItsCursorInTheFirstFrame() throws {
        let store = InMemoryPreferenceStore()
        let first = try CharactersLaunch(store: store, dataFolder: dataFolder)
        try first.press(.character("2"), .character("/"))
        try first.type("chesh")
        try first.press(.enter, .character("e"))
        try first.type("Grins, then\nfades, q")
        try first.press(.left, .left, .left)
        let archive = try first.preserve()
        #expect(store.object(forKey: CharacterNotes.storeKey) == nil, "a draft is not a saved note")

        let second = try CharactersLaunch(store: store, dataFolder: dataFolder, restoring: archive, columns: 100, rows: 30)
        #expect(second.terminal.framesPresented == 1)
        let detail = try #require(second.detail)
        #expect(detail.character.id == "cheshire-cat" && detail.isEditing)
        #expect(detail.editor.state.text == "Grins, then\nfades, q")
        #expect(second.lines[1] == " Characters › Cheshire Cat")
        let noteRow = try #require(second.row(of: " Grins, then"))
        #expect(second.lines[noteRow + 1] == " fades, q")
        #expect(second.terminal.frame.cursor == Point(x: 1 + 5, y: noteRow + 1))
        #expect(second.lines[29].hasSuffix("Ln 2, Col 6"))
        // Still typing where it was left.
        try second.type("d")
        #expect(second.lines[noteRow + 1] == " fadesd, q")
    }

    @Test func theFavouritesComeBackWithTheirSelectionAndTheDetailAboveThem() throws {
        let store = InMemoryPreferenceStore()
        let first = try CharactersLaunch(store: store, dataFolder: dataFolder)
        try first.press(.character("2"), .character("f"), .down, .character("f"), .character("F"), .down, .enter)
        #expect(first.detail?.character.id == "white-rabbit")
        let archive = try first.preserve()

        let second = try CharactersLaunch(store: store, dataFolder: dataFolder, restoring: archive)
        #expect(second.terminal.framesPresented == 1)
        #expect(second.characters.stack.map(\.restorationIdentifier) == ["CharacterList", "CharacterFavourites", "CharacterDetail"])
        #expect(second.lines[1] == " Characters › Favourites › White Rabbit")
        try second.press(.escape)
        #expect(second.lines[2] == "  Alice  ch. 1")
        #expect(second.lines[3] == "▸ White Rabbit  ch. 1 · Rabbit")
    }

    @Test func aLaunchRestoredOntoADetailShowsItsChaptersInTheFirstFrame() throws {
        defer { try? FileManager.default.removeItem(at: dataFolder) }
        let book = URL(fileURLWithPath: BookLibrary.defaultBookPath(dataFolderPath: dataFolder.path))
        try FileManager.default.createDirectory(at: book.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("CHAPTER I.\n\nDown the hole.\n\nCHAPTER II.\n\nThe Cheshire Cat grinned.\n".utf8).write(to: book)
        let store = InMemoryPreferenceStore()
        let first = try CharactersLaunch(store: store, dataFolder: dataFolder)
        try first.press(.character("2"), .character("/"))
        try first.type("chesh")
        try first.press(.enter, .character("e"))
        let archive = try first.preserve()

        // The app's own background search and restoration; the time allowed is generous so a
        // busy machine cannot make the first frame fall back to the placeholder.
        let second = try CharactersLaunch(store: store, dataFolder: dataFolder, restoring: archive, columns: 100, rows: 30, firstFrameWait: 60)
        #expect(second.terminal.framesPresented == 1)
        #expect(second.detail?.character.id == "cheshire-cat" && second.detail?.isEditing == true)
        #expect(second.row(of: "Appears in chapters 2 (1 mention).") != nil)
        #expect(second.row(of: CharacterInfoText.chapterSummary(.searching)) == nil)
    }

    @Test func leavingTheEditorSavesTheNoteAndTheNextVisitShowsIt() throws {
        let store = InMemoryPreferenceStore()
        let launch = try CharactersLaunch(store: store, dataFolder: dataFolder)
        try launch.press(.character("2"), .down, .down, .enter)  // Dinah
        try launch.press(.character("e"))
        try launch.type("Alice's cat")
        try launch.press(.escape)
        #expect(store.object(forKey: CharacterNotes.storeKey) == .dictionary(["dinah": .string("Alice's cat")]))
        #expect(launch.detail?.isEditing == false)
        #expect(launch.row(of: " Alice's cat") != nil)
        try launch.press(.escape)
        #expect(launch.characters.stack.count == 1)

        // Another launch on the same store: the saved note shows, and editing resumes at its end.
        let next = try CharactersLaunch(store: store, dataFolder: dataFolder)
        try next.press(.character("2"), .down, .down, .enter)
        let row = try #require(next.row(of: " Alice's cat"))
        try next.press(.enter)  // Enter edits, too
        #expect(next.detail?.isEditing == true)
        #expect(next.terminal.frame.cursor == Point(x: 1 + 11, y: row))
        // Emptying a note removes it; switching tabs while editing leaves the editor and saves.
        for _ in 0..<11 { try next.press(.backspace) }
        try next.press(.tab)
        #expect(next.detail?.isEditing == false)
        #expect(store.object(forKey: CharacterNotes.storeKey) == nil)
    }

    @Test func theListRestoresItsSelectionByIDWithAFilterActive() throws {
        let store = InMemoryPreferenceStore()
        let first = try CharactersLaunch(store: store, dataFolder: dataFolder)
        try first.press(.character("2"), .character("/"))
        try first.type("ha")
        try first.press(.down)
        #expect(Array(first.lines[2...5]) == [" / ha", "  March Hare  ch. 7 · Hare", "▸ Hatter  ch. 7", ""])
        #expect(first.lines[23].hasSuffix(" 2/22"))
        let archive = try first.preserve()

        let second = try CharactersLaunch(store: store, dataFolder: dataFolder, restoring: archive)
        #expect(second.root.selectedIndex == 1)
        #expect(second.list.state.selectedID == "hatter")
        #expect(second.list.state.filter.text == "ha")
        #expect(Array(second.lines[2...4]) == [" / ha", "  March Hare  ch. 7 · Hare", "▸ Hatter  ch. 7"])
        // Clearing the filter keeps the same character selected, on its row in the whole list.
        try second.press(.escape)
        #expect(second.list.selectedItem?.id == "hatter")
        #expect(second.lines.contains("▸ Hatter  ch. 7"))
    }

    /// A launch on another tab restores the list without reading the character list; its
    /// place waits for the rows, survives a save made before the tab is ever shown, and is
    /// there when it is.
    @Test func aListRestoredBehindAnotherTabKeepsItsPlaceUntilShown() throws {
        let store = InMemoryPreferenceStore()
        let first = try CharactersLaunch(store: store, dataFolder: dataFolder)
        try first.press(.character("2"), .down, .down, .character("1"))
        #expect(first.list.state.selectedID == "dinah")
        let archive = try first.preserve()

        let second = try CharactersLaunch(store: store, dataFolder: dataFolder, restoring: archive)
        #expect(second.root.selectedIndex == 0)
        #expect(second.list.items.isEmpty, "the character list is not read for the Map tab")
        let saved = try second.preserve()
        #expect(second.list.items.isEmpty, "the save keeps the place without making the rows, which read every note")

        let third = try CharactersLaunch(store: store, dataFolder: dataFolder, restoring: saved)
        try third.press(.character("2"))
        #expect(third.list.state.selectedID == "dinah")
        #expect(third.lines.contains { $0.hasPrefix("▸ Dinah") })
    }

    /// A two-chapter book in the data folder, and the archive of a launch that opened Alice's
    /// page and showed where she appears.
    private func aliceSavedWithHerChapters(in store: InMemoryPreferenceStore) throws -> (archive: Data, book: URL) {
        let book = URL(fileURLWithPath: BookLibrary.defaultBookPath(dataFolderPath: dataFolder.path))
        try FileManager.default.createDirectory(at: book.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("CHAPTER I.\n\nAlice sat by her sister.\n\nCHAPTER II.\n\nAlice, and Alice again.\n".utf8).write(to: book)
        let first = try CharactersLaunch(store: store, dataFolder: dataFolder)
        try first.press(.character("2"), .enter)
        #expect(first.services.shared.characters?.book.waitForSearch(for: "alice", upTo: 60) == true)
        try first.send(.wake)
        #expect(first.lines.contains(" Appears in chapters 1 (1 mention), 2 (2 mentions)."))
        return (try first.preserve(), book)
    }

    /// A detail saves the chapters it showed with the book file they were found in; the next
    /// launch shows them on its first frame without reading the book, and only while the file
    /// is the same one.
    @Test(arguments: [false, true])
    func aRestoredDetailShowsTheChaptersItSavedWhileTheBookIsTheSame(bookChanged: Bool) throws {
        defer { try? FileManager.default.removeItem(at: dataFolder) }
        let store = InMemoryPreferenceStore()
        let (archive, book) = try aliceSavedWithHerChapters(in: store)
        if bookChanged {
            let handle = try FileHandle(forWritingTo: book)
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("Alice.\n".utf8))
            try handle.close()
        }

        let second = try CharactersLaunch(store: store, dataFolder: dataFolder, restoring: archive, firstFrameWait: 0, searchHeldBack: true)
        #expect(second.detail != nil)
        #expect(second.lines.contains(" Appears in chapters 1 (1 mention), 2 (2 mentions).") == !bookChanged)
        #expect(second.lines.contains(" " + CharacterInfoText.chapterSummary(.searching)) == bookChanged)
    }

    /// A restored detail that shows the chapters it saved leaves the book's search until its
    /// first frame is on the screen, so the two do not compete; one that has to search starts
    /// it as soon as it is restored, while the launch builds the rest.
    @Test(arguments: [false, true])
    func theSearchWaitsForTheFirstFrameOnlyWhenTheSavedChaptersStand(bookChanged: Bool) throws {
        defer { try? FileManager.default.removeItem(at: dataFolder) }
        let store = InMemoryPreferenceStore()
        let (archive, book) = try aliceSavedWithHerChapters(in: store)
        if bookChanged { try Data("CHAPTER I.\n\nAlice.\n".utf8).write(to: book) }

        let services = AppServices(store: store, bundle: .embedded, launch: LaunchOptions(dataFolder: dataFolder))
        let root = RootScreen.make(services: services)
        let search = try #require(services.shared.characters?.book)
        let starts = StartCount()
        search.firstFrameWait = 0
        search.startInBackground = { _ in starts.count += 1 }
        _ = try RootScreen.restorationEngine(services: services).restore(from: archive, root: root)
        #expect(starts.count == (bookChanged ? 1 : 0))
        let second = Pilot(root, columns: 80, rows: 24)
        #expect(starts.count == 1, "begun once, after the first frame when the saved chapters were shown")
        #expect(second.lines.contains(" Appears in chapters 1 (1 mention), 2 (2 mentions).") == !bookChanged)
    }

    @Test func anUnknownCharacterIDIsSkippedAndTheListStays() throws {
        let store = InMemoryPreferenceStore()
        let first = try CharactersLaunch(store: store, dataFolder: dataFolder)
        try first.press(.character("2"), .enter)
        let archive = try first.preserve()
        // The same archive with the detail's id renamed to one the list does not have.
        let renamed = try #require(String(data: archive, encoding: .isoLatin1)?.replacingOccurrences(of: "alice", with: "zzzzz")
            .data(using: .isoLatin1))
        let second = try CharactersLaunch(store: store, dataFolder: dataFolder, restoring: renamed)
        #expect(second.characters.stack.count == 1)
        #expect(second.lines[1] == " Characters")
    }
}

@Suite("Characters tab with a broken list")
struct CharactersBrokenListTests {
    @Test func aMalformedCharactersPlistIsExplainedInTheTab() throws {
        let resources = FileManager.default.temporaryDirectory.appendingPathComponent("wl-characters-res-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: resources) }
        try FileManager.default.createDirectory(at: resources, withIntermediateDirectories: true)
        let file = resources.appendingPathComponent("Characters.plist")
        try Data("<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<array>\n<dict><key>id</key>\n</array></plist>".utf8).write(to: file)
        let launch = LaunchOptions(dataFolder: resources, environment: ["WONDERLAND_RESOURCES": resources.path])
        let services = AppServices(store: InMemoryPreferenceStore(), bundle: .embedded, launch: launch)
        let pilot = Pilot(RootScreen.make(services: services), columns: 120, rows: 12)
        try pilot.press("2")
        let shown = pilot.lines[2...10].map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        pilot.expectRow(2, equals: "  The character list could not be read:")
        #expect(shown.contains(file.path.split(separator: "/").last!), "names the file: \(shown)")
        #expect(shown.contains("not a readable property list"), "\(shown)")
        #expect(shown.contains("line"), "says where: \(shown)")
        // Enter on an empty list opens nothing.
        try pilot.press("enter")
        pilot.expectRow(1, equals: " Characters")
    }
}
