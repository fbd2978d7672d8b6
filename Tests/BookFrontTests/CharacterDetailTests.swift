import Defaults
import Foundation
import PropertyList
import Screens
import ScreensTesting
import Terminal
import Testing
@testable import BookFront

/// The detail screen alone under a navigation stack, on a headless terminal.
private final class DetailPilot: Pilot {
    let navigation: NavigationStack
    let context: CharactersContext

    init(bookURL: URL, store: PreferenceStore = InMemoryPreferenceStore(), size: Size = Size(columns: 60, rows: 16)) throws {
        let catalog = CharacterCatalog(characters: [
            BookCharacter(id: "queen", name: "Queen of Hearts", aliases: ["Queen"], description: "Shouts a lot. Plays croquet.", firstChapter: 2),
        ])
        let context = CharactersContext(catalog: .success(catalog), store: store, bookURL: bookURL, searchesInBackground: false)
        let navigation = CharacterListScreen.makeNavigation(context: context)
        self.context = context
        self.navigation = navigation
        super.init(navigation, columns: size.columns, rows: size.rows)
    }

    var detail: CharacterDetailScreen? { navigation.topScreen as? CharacterDetailScreen }
}

/// A store whose disk refuses every save while `failing` is set.
private final class RefusingDiskStore: PreferenceStore {
    let memory = InMemoryPreferenceStore()
    var failing = true
    struct DiskFull: Error, CustomStringConvertible { var description: String { "no space left on device" } }
    func object(forKey key: String) -> PropertyListValue? { memory.object(forKey: key) }
    func set(_ value: PropertyListValue?, forKey key: String) { memory.set(value, forKey: key) }
    func register(defaults: [String: PropertyListValue]) { memory.register(defaults: defaults) }
    func addChangeObserver(_ handler: @escaping (Set<String>) -> Void) -> PreferenceObservation { memory.addChangeObserver(handler) }
    func saveNow() throws { if failing { throw DiskFull() } }
}

/// Background work held back until the test runs it, so a frame cannot race it.
private final class HeldWork {
    var jobs: [@Sendable () -> Void] = []
}

@Suite("Character detail")
struct CharacterDetailTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-chardetail-\(UUID().uuidString)")

    /// The detail on top of the list before launch, as the restoration class leaves it, with
    /// the book's background search held back.
    private func launchOnDetail(firstFrameWait: TimeInterval, held: HeldWork, padding: Int = 0, otherCharacter: Bool = false) throws -> (Pilot, CharactersContext) {
        let book = folder.appendingPathComponent("books/alice29.txt")
        try FileManager.default.createDirectory(at: book.deletingLastPathComponent(), withIntermediateDirectories: true)
        let text = "CHAPTER I.\n\nDown the hole after the White Rabbit.\n" + String(repeating: "x", count: padding) + "\n\nCHAPTER II.\n\nThe Queen of Hearts shouted.\n"
        try Data(text.utf8).write(to: book)
        let queen = BookCharacter(id: "queen", name: "Queen of Hearts", aliases: ["Queen"], description: "Shouts a lot.", firstChapter: 2)
        let rabbit = BookCharacter(id: "rabbit", name: "White Rabbit", aliases: [], description: "Late.", firstChapter: 1)
        let characters = otherCharacter ? [rabbit, queen] : [queen]
        let context = CharactersContext(catalog: .success(CharacterCatalog(characters: characters)), store: InMemoryPreferenceStore(), bookURL: book)
        context.book.startInBackground = { held.jobs.append($0) }
        context.book.firstFrameWait = firstFrameWait
        let navigation = CharacterListScreen.makeNavigation(context: context)
        navigation.push(CharacterDetailScreen(character: queen, context: context))
        return (Pilot(navigation, columns: 60, rows: 16), context)
    }

    /// What a restored page saved is outside input: it stands in for the search only when it
    /// could be an answer for this book file and these names.
    @Test func aRememberedAnswerIsTakenOnlyWhenPlausibleAndForTheSameFile() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("books/alice29.txt")
        try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("CHAPTER I.\n\nThe Queen.\n\nCHAPTER II.\n\nThe Queen.\n".utf8).write(to: path)
        let queen = BookCharacter(id: "queen", name: "Queen of Hearts", aliases: ["Queen"], description: "Shouts a lot.", firstChapter: 1)
        let book = CharacterBook(url: path, catalog: CharacterCatalog(characters: [queen]))
        book.startInBackground = { _ in }  // nothing but the remembered answer can show
        let stamp = try #require(FileStamp.of(path: path.path))
        func remembered(_ mentions: [Int: Int], chapters: Int = 2, names: [String]? = nil, stamp: FileStamp? = nil) -> RememberedAppearances {
            RememberedAppearances(mentions: mentions, chapterCount: chapters, names: names ?? queen.searchNames, book: stamp ?? FileStamp.of(path: path.path)!)
        }
        #expect(!book.adopt(remembered([5: 1]), for: "queen"), "a chapter the book does not have")
        #expect(!book.adopt(remembered([0: -3]), for: "queen"), "a negative count")
        #expect(!book.adopt(remembered([0: 1], chapters: -1), for: "queen"))
        #expect(!book.adopt(remembered([0: 1], names: ["Someone else"]), for: "queen"), "names changed since")
        #expect(!book.adopt(remembered([0: 1], stamp: FileStamp(size: stamp.size + 1, changed: stamp.changed, inode: stamp.inode)), for: "queen"))
        #expect(!book.adopt(remembered([0: 1]), for: "nobody"))
        #expect(book.adopt(remembered([0: 1, 1: 1]), for: "queen"))
        #expect(book.status(for: "queen") == .found(mentions: [0: 1, 1: 1], chapterCount: 2))
        #expect(book.remembered(for: "queen") == remembered([0: 1, 1: 1]))
    }

    @Test func theFirstFrameOfALaunchOnTheDetailAlreadyShowsTheChapters() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let held = HeldWork()
        let (pilot, _) = try launchOnDetail(firstFrameWait: 60, held: held)
        #expect(pilot.terminal.framesPresented == 1)
        #expect(pilot.lines.contains(" Appears in chapters 2 (1 mention)."))
        #expect(!pilot.lines.contains(" " + CharacterInfoText.chapterSummary(.searching)))
        let framesBefore = pilot.terminal.framesPresented
        for job in held.jobs { job() }
        try pilot.send(.wake)
        #expect(pilot.terminal.framesPresented == framesBefore, "the background found the search done: nothing to redraw")
    }

    /// The first frame searches the character it shows and no other: the rest of the list
    /// waits for the background's whole search.
    @Test func theFirstFrameSearchesOnlyTheCharacterItShows() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let held = HeldWork()
        let (pilot, context) = try launchOnDetail(firstFrameWait: 60, held: held, otherCharacter: true)
        #expect(pilot.lines.contains(" Appears in chapters 2 (1 mention)."))
        #expect(context.book.status(for: "rabbit") == .searching, "another character waits for the background")
        #expect(held.jobs.count == 1)
        for job in held.jobs { job() }
        #expect(context.book.status(for: "rabbit") == .found(mentions: [0: 1], chapterCount: 2))
        #expect(context.book.status(for: "queen") == .found(mentions: [1: 1], chapterCount: 2))
    }

    /// Out of time, or a book too big to read on the main thread: the frame says "searching"
    /// and the background's result comes with the wake.
    @Test(arguments: [false, true])
    func withoutTheTimeToSearchTheFirstFrameSaysSearchingAndTheWakeBringsTheChapters(bookTooBig: Bool) throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let held = HeldWork()
        let padding = bookTooBig ? Int(CharacterBook.firstFrameSearchLimit) : 0
        let (pilot, _) = try launchOnDetail(firstFrameWait: 0, held: held, padding: padding)
        #expect(pilot.lines.contains(" " + CharacterInfoText.chapterSummary(.searching)))
        // Neither is searched on the main thread: the one job is the background's whole search.
        #expect(held.jobs.count == 1)
        for job in held.jobs { job() }
        try pilot.send(.wake)
        #expect(pilot.lines.contains(" Appears in chapters 2 (1 mention)."))
    }

    @Test func aBookInstalledWhileTheDetailIsShownIsPickedUpAtTheNextWake() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = folder.appendingPathComponent("books/alice29.txt")
        let pilot = try DetailPilot(bookURL: book)
        try pilot.send(.key(.enter))
        let detail = try #require(pilot.detail)
        #expect(pilot.lines.contains(" Chapters: the book is not here (wonderland --book PATH)."))
        #expect(detail.handleWake() == false, "nothing new: no redraw")

        try FileManager.default.createDirectory(at: book.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("CHAPTER I\nThe Queen of Hearts.\n".utf8).write(to: book)
        let framesBefore = pilot.terminal.framesPresented
        try pilot.send(.wake)
        #expect(pilot.terminal.framesPresented == framesBefore + 1, "the news asks for a redraw")
        let expected = CharacterInfoText.chapterSummary(pilot.context.book.status(for: "queen"))
        #expect(expected != CharacterInfoText.chapterSummary(.bookNotInstalled(path: book.path)))
        #expect(pilot.lines.contains(" " + expected))
    }

    @Test func anotherVersionSavedElsewhereIsShownAndEditingItSettlesIt() throws {
        let store = InMemoryPreferenceStore(values: [CharacterNotes.storeKey: .dictionary([
            "queen": .dictionary(["text": .string("Shouts."), "otherVersions": .array([.string("Plays croquet.")])]),
        ])])
        let pilot = try DetailPilot(bookURL: folder.appendingPathComponent("none.txt"), store: store)
        #expect(pilot.lines.contains { $0.contains("Queen of Hearts") && $0.contains("note saved 2 ways") }, "the list says where to look")
        try pilot.send(.key(.enter))
        let notesRow = try #require(pilot.lines.firstIndex { $0.hasPrefix("─ Notes (e to edit)") }) + 1
        #expect(pilot.lines[notesRow] == " Shouts.")
        #expect(pilot.lines[notesRow + 1] == " " + CharacterDetailScreen.otherVersionMarker)
        #expect(pilot.lines[notesRow + 2] == " Plays croquet.")

        try pilot.send(.key(.character("e")))
        #expect(pilot.detail?.editor.state.text == "Shouts.\n\(CharacterDetailScreen.otherVersionMarker)\nPlays croquet.")
        let savesBefore = store.saves.count
        try pilot.send(.key(.escape))
        #expect(store.saves.count == savesBefore + 1, "Esc writes the note to disk")
        #expect(store.object(forKey: CharacterNotes.storeKey) == .dictionary([
            "queen": .string("Shouts.\n\(CharacterDetailScreen.otherVersionMarker)\nPlays croquet."),
        ]))
        try pilot.send(.key(.escape))
        #expect(pilot.lines.contains { $0.contains("Queen of Hearts") })
        #expect(!pilot.lines.contains { $0.contains("note saved") }, "settled: the list says so no more")
    }

    @Test func aClickOnTheNotesStartsEditingAndEscSaves() throws {
        let store = InMemoryPreferenceStore()
        let pilot = try DetailPilot(bookURL: folder.appendingPathComponent("none.txt"), store: store)
        try pilot.send(.key(.enter))
        let notesRow = try #require(pilot.lines.firstIndex { $0.hasPrefix("─ Notes (e to edit)") }) + 1
        try pilot.send(.mouse(MouseEvent(.press, at: Point(x: 5, y: notesRow))))
        #expect(pilot.detail?.isEditing == true)
        #expect(pilot.lines[notesRow - 1].hasPrefix("─ Notes (editing; Esc saves)"))
        try pilot.send(.key(.character("O")), .key(.character("f")), .key(.character("f")), .key(.escape))
        #expect(pilot.detail?.isEditing == false)
        #expect(CharacterNotes(store: store).note(for: "queen") == "Off")
        #expect(pilot.lines[notesRow] == " Off")
    }

    @Test func aNoteTheDiskRefusesKeepsTheEditorOpenWithItsDraftUntilASaveWorks() throws {
        let store = RefusingDiskStore()
        let pilot = try DetailPilot(bookURL: folder.appendingPathComponent("none.txt"), store: store)
        try pilot.send(.key(.enter), .key(.character("e")), .key(.character("H")), .key(.character("i")), .key(.escape))
        #expect(pilot.detail?.isEditing == true, "not saved: the draft stays in the editor, kept with the screen's state")
        #expect(pilot.detail?.editor.state.text == "Hi")
        #expect(pilot.lines.contains { $0.contains("Not yet on disk: no space left on device") }, "\(pilot.lines)")
        store.failing = false
        try pilot.send(.key(.escape))
        #expect(pilot.detail?.isEditing == false)
        #expect(!pilot.lines.contains { $0.contains("Not yet on disk") })
        #expect(CharacterNotes(store: store).note(for: "queen") == "Hi")
    }

    @Test func aDescriptionTooLongForTheTerminalScrollsAboveTheNotes() throws {
        let pilot = try DetailPilot(bookURL: folder.appendingPathComponent("none.txt"), size: Size(columns: 40, rows: 10))
        try pilot.send(.key(.enter))
        #expect(pilot.lines[1] == " Queen of Hearts")
        #expect(pilot.lines[5].hasPrefix("─ Notes (e to edit) ") && pilot.lines[5].hasSuffix(" ↓ more"), "\(pilot.lines)")
        try pilot.send(.key(.down))
        #expect(pilot.lines[1].hasPrefix(" First seen in chapter 2"))
        #expect(pilot.lines[5].hasSuffix(" ↑↓ more"))
        try pilot.send(.key(.pageDown), .key(.pageDown))
        #expect(Array(pilot.lines[3...4]) == [" Chapters: the book is not here", " (wonderland --book PATH)."], "the last line is reached and no further")
        #expect(pilot.lines[5].hasSuffix(" ↑ more"))
        #expect(pilot.lines[6] == " No notes yet. Press e to write some.")
    }
}
