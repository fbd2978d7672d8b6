import BookFront
import Cloud
import Defaults
import Foundation
import MapFront
import PropertyList
import Restoration
import Screens
import ScreensTesting
import Terminal
import Testing
@testable import WonderlandApp

/// What each release saved (Fixtures/Releases/<rev>/, made by `scripts/compat-fixtures REV`),
/// read by today's code: every field the journey left must come back — the tab, the screen
/// path down to the note editor, the draft and its cursor, the note, the pin, the place in the
/// book, the bookmark, the favourites — and the sync folder's change files must be readable.
@Suite("What each release saved, read by today's code")
struct ReleaseFixtureTests {
    @Test func everyReleaseHasAFixture() {
        #expect(ReleaseFixture.names.count >= 3, "scripts/compat-fixtures makes one per release: \(ReleaseFixture.folder.path)")
    }

    @Test(arguments: ReleaseFixture.names)
    func theScreenTreeComesBackDownToTheDraftAndItsCursor(_ name: String) throws {
        let fixture = try ReleaseFixture(name)
        let journey = fixture.journey
        let launch = fixture.launch()
        #expect(launch.terminal.framesPresented == 1)
        let log = launch.controller.configuration.files.readLog()
        #expect(log.last?.contains("launch: restored") == true, "\(name): \(log.last ?? "no log")")
        #expect(launch.root.selectedIndex == 1, "\(name): the Characters tab")
        #expect(launch.root.selectedTab === launch.characters)
        #expect(launch.characters?.restorationIdentifier == "Characters")
        #expect(launch.characters?.stack.map(\.restorationIdentifier) == ["CharacterList", "CharacterDetail"])
        #expect(launch.lines[1] == " Characters › White Rabbit")
        let detail = try #require(launch.detail, "\(name): the character page")
        #expect(detail.character.id == journey.character)
        #expect(detail.isEditing, "\(name): the note editor is open")
        #expect(detail.editor.state.text == journey.draft.text)
        #expect(detail.editor.state.line == journey.draft.screenLine - 1)
        #expect(detail.editor.state.offset == journey.draft.cursorUTF8)
        let row = try #require(launch.row(of: " " + journey.draft.text), "\(name): the draft on screen")
        #expect(launch.lines[row - 1].hasPrefix("─ Notes (editing"))
        #expect(launch.terminal.frame.cursor == Point(x: journey.draft.screenColumn, y: row))
        #expect(launch.lines.last?.hasSuffix("Ln \(journey.draft.screenLine), Col \(journey.draft.screenColumn)") == true)
        // Still typing where it was left.
        try launch.type("y")
        var typed = journey.draft.text
        typed.insert("y", at: typed.utf8.index(typed.startIndex, offsetBy: journey.draft.cursorUTF8))
        #expect(detail.editor.state.text == typed)
    }

    @Test(arguments: ReleaseFixture.names)
    func theSavedNoteIsTheNoteAndTheDraftIsNot(_ name: String) throws {
        let fixture = try ReleaseFixture(name)
        let launch = fixture.launch()
        #expect(CharacterNotes(store: launch.store).note(for: fixture.journey.character) == fixture.journey.note)
        // Esc saves the draft: the note is then the draft.
        try launch.press(.escape)
        #expect(CharacterNotes(store: launch.store).note(for: fixture.journey.character) == fixture.journey.draft.text)
        #expect(launch.detail?.isEditing == false)
    }

    @Test(arguments: ReleaseFixture.names)
    func thePinIsRemembered(_ name: String) throws {
        let fixture = try ReleaseFixture(name)
        let pin = fixture.journey.pin
        let launch = fixture.launch()
        let saved = try #require(launch.store.object(forKey: "HPLocation"), "\(name): HPLocation")
        #expect(PinFields(saved) == PinFields(pin), "\(name): \(saved)")
        launch.root.select(0)  // not the key "1": the note editor has focus
        try launch.settle()
        #expect(launch.row(of: "⚑ \(pin.title)") != nil, "\(name): the Map tab shows the pin\n\(launch.lines.joined(separator: "\n"))")
    }

    @Test(arguments: ReleaseFixture.names)
    func thePlaceInTheBookAndItsBookmarkComeBack(_ name: String) throws {
        let fixture = try ReleaseFixture(name)
        let journey = fixture.journey
        let launch = fixture.launch()
        let storage = ReaderStorage(store: launch.store)
        #expect(storage.position(forBook: journey.bookID) == journey.offset)
        #expect(try storage.bookmarks(forBook: journey.bookID).map(\.offset) == journey.bookmarkOffsets)
        #expect(journey.bookmarkOffsets.contains(journey.offset))
        // The archive's reader reopens its book where it was: the book lives at another path
        // now, so it is given as `--book` is (which shows the Book tab).
        let reading = fixture.launch(bookPath: fixture.book.path)
        #expect(reading.root.selectedTab === reading.reader)
        try reading.waitFor { $0.contains { $0.hasSuffix("page \(journey.page) of \(journey.pages)") } }
        #expect(reading.lines.contains { $0.hasSuffix("page \(journey.page) of \(journey.pages)") },
                "\(name): page \(journey.page)\n\(reading.lines.joined(separator: "\n"))")
        try reading.press(.character("B"))
        #expect(reading.lines.contains { $0.contains("Enter Go there") })
    }

    @Test(arguments: ReleaseFixture.names)
    func theFavouritesComeBack(_ name: String) throws {
        let fixture = try ReleaseFixture(name)
        let launch = fixture.launch()
        #expect(CharacterFavourites(store: launch.store).ids == Set(fixture.journey.favourites))
        if fixture.journey.hasFavourites {
            try launch.press(.escape, .escape)  // save the draft, back to the list
            #expect(launch.lines.contains { $0.contains("White Rabbit") && $0.contains("favourite") })
        }
    }

    @Test(arguments: ReleaseFixture.names)
    func theSyncFolderChangeFilesAndTheLocalCopyAreReadable(_ name: String) throws {
        let fixture = try ReleaseFixture(name)
        let journey = fixture.journey
        #expect(!journey.changeFiles.isEmpty)
        let values = try fixture.syncedValues()
        let pin = try #require(values["HPLocation"] ?? nil, "\(name): the pin in the change files: \(values.keys.sorted())")
        #expect(PinFields(pin) == PinFields(journey.pin), "\(name): \(pin)")
        let place = try #require(values["WLReadingPosition.\(journey.bookID)"] ?? nil, "\(name): the place: \(values.keys.sorted())")
        #expect(ReadingPlace(propertyList: place)?.offset == journey.offset)
        let replicas = fixture.localReplicas()
        #expect(!replicas.isEmpty)
        for copy in replicas {
            #expect(copy.replica != nil && copy.warning == nil, "\(name): \(copy.file): \(copy.warning ?? "not loaded")")
        }
    }

    @Test(arguments: ReleaseFixture.names)
    func theArchiveIsOfAVersionThisOneRestores(_ name: String) throws {
        let fixture = try ReleaseFixture(name)
        let summary = try RootScreen.restorationEngine().describe(try #require(fixture.archive))
        #expect(summary.header.formatVersion <= RestorationEngine.formatVersion)
        #expect(summary.header.appVersion == fixture.journey.version)
    }
}
