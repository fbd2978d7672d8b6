import Defaults
import Foundation
import KeyedArchive
import PropertyList
import Testing
@testable import BookFront

/// Two instances of the app on one defaults file, as two stores on one file: what each owner
/// keeps when both save.
@Suite("Notes, bookmarks and places saved by two instances")
struct SavedFieldMergeTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-owners-\(UUID().uuidString)")
    var file: URL { folder.appendingPathComponent("defaults.plist") }

    func instance() -> DefaultsStore {
        DefaultsStore(fileURL: file, options: .init(watchesForChanges: false))
    }

    func onDisk(_ key: String) throws -> PropertyListValue? {
        guard case .dictionary(let values) = try PropertyListReader.value(from: Data(contentsOf: file)) else { return nil }
        return values[key]
    }

    // MARK: notes

    @Test func notesOnDifferentCharactersFromTwoInstancesAreBothKept() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = instance(), second = instance()
        try CharacterNotes(store: first).save("Late.", for: "white-rabbit")
        try CharacterNotes(store: second).save("Grins.", for: "cheshire-cat")
        #expect(try onDisk(CharacterNotes.storeKey) == .dictionary(["white-rabbit": .string("Late."), "cheshire-cat": .string("Grins.")]))
    }

    @Test func aNoteSavedIsOnDiskWhenSaveReturns() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = instance()
        try CharacterNotes(store: store).save("Late.", for: "white-rabbit")
        #expect(!store.hasUnsavedChanges)
        #expect(try onDisk(CharacterNotes.storeKey) == .dictionary(["white-rabbit": .string("Late.")]))
    }

    @Test func theSameNoteSavedInTwoInstancesKeepsTheLastAndTheOtherAsAnotherVersion() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let setup = instance()
        try CharacterNotes(store: setup).save("Shouts.", for: "queen")
        let first = instance(), second = instance()
        let firstNotes = CharacterNotes(store: first), secondNotes = CharacterNotes(store: second)
        try firstNotes.save("Shouts. Plays croquet.", for: "queen")
        try secondNotes.save("Shouts. Off with their heads!", for: "queen")
        #expect(secondNotes.note(for: "queen") == "Shouts. Off with their heads!")
        #expect(secondNotes.otherVersions(for: "queen") == ["Shouts. Plays croquet."])
        first.processExternalChanges()
        #expect(firstNotes.note(for: "queen") == "Shouts. Off with their heads!")
        #expect(firstNotes.otherVersions(for: "queen") == ["Shouts. Plays croquet."])

        // The user edits the note having seen both: the other versions are settled.
        try firstNotes.save("Shouts. Plays croquet. Off with their heads!", for: "queen")
        #expect(try onDisk(CharacterNotes.storeKey) == .dictionary(["queen": .string("Shouts. Plays croquet. Off with their heads!")]))
    }

    @Test func twoWindowsEditingOneNoteKeepBothTextsEvenWhenTheSecondHasSeenTheFirstsSave() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let setup = instance()
        try CharacterNotes(store: setup).save("Grins.", for: "cheshire-cat")
        let first = instance(), second = instance()
        let firstNotes = CharacterNotes(store: first), secondNotes = CharacterNotes(store: second)
        // Both windows open the editor on the same note.
        let firstStart = firstNotes.snapshot(for: "cheshire-cat"), secondStart = secondNotes.snapshot(for: "cheshire-cat")
        try firstNotes.save("Grins. Vanishes.", for: "cheshire-cat", editedFrom: firstStart)
        // The second window's store hears of the first save before its Esc.
        second.processExternalChanges()
        #expect(secondNotes.note(for: "cheshire-cat") == "Grins. Vanishes.")
        try secondNotes.save("Grins. Talks to Alice.", for: "cheshire-cat", editedFrom: secondStart)
        #expect(try onDisk(CharacterNotes.storeKey) == .dictionary(["cheshire-cat": .dictionary([
            "text": .string("Grins. Talks to Alice."), "otherVersions": .array([.string("Grins. Vanishes.")]),
        ])]))
    }

    @Test func aWindowThatSawTheOtherVersionsSettlesThemAndOneThatDeletesKeepsTheOthersText() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = instance()
        let notes = CharacterNotes(store: store)
        try notes.save("Late.", for: "white-rabbit")
        let start = notes.snapshot(for: "white-rabbit")
        try notes.save("Late. Very late.", for: "white-rabbit", editedFrom: start)
        #expect(notes.otherVersions(for: "white-rabbit").isEmpty, "its own start is no other window's text")

        let other = instance()
        let otherNotes = CharacterNotes(store: other)
        let deletingFrom = otherNotes.snapshot(for: "white-rabbit")
        try notes.save("Late. Very late. Watch.", for: "white-rabbit", editedFrom: notes.snapshot(for: "white-rabbit"))
        other.processExternalChanges()
        try otherNotes.save("", for: "white-rabbit", editedFrom: deletingFrom)
        #expect(try onDisk(CharacterNotes.storeKey) == .dictionary(["white-rabbit": .string("Late. Very late. Watch.")]))
    }

    @Test func aNoteDeletedInOneInstanceWhileEditedInAnotherKeepsTheEdit() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let setup = instance()
        try CharacterNotes(store: setup).save("Sleeps.", for: "dormouse")
        let editing = instance(), deleting = instance()
        try CharacterNotes(store: editing).save("Sleeps in the teapot.", for: "dormouse")
        try CharacterNotes(store: deleting).save("", for: "dormouse")
        #expect(try onDisk(CharacterNotes.storeKey) == .dictionary(["dormouse": .string("Sleeps in the teapot.")]))
    }

    @Test func aReleaseBeforeTheDatabaseIsShownTheNewestTextOfANoteSavedTwoWays() {
        let twoWays: PropertyListValue = .dictionary(["text": .string("Curious."), "otherVersions": .array([.string("Curiouser.")])])
        #expect(CharacterNotes.olderReleaseCopy.down(twoWays) == .string("Curious.\n── also saved in another window ──\nCuriouser."))
        #expect(CharacterNotes.olderReleaseCopy.down(.string("Late.")) == .string("Late."))
        #expect(CharacterNotes.olderReleaseCopy.up(.string("Late. Edited there."), 0) == .string("Late. Edited there."))
    }

    @Test func aPlaceAnOlderReleaseChangedIsAsNewAsTheFileItWrote() {
        let copy = ReadingPositions.olderReleaseCopy
        let stamped = ReadingPlace(offset: 24, stamp: EditStamp(time: 100, device: "desk"))
        #expect(copy.down(stamped.propertyList) == .integer(24))
        #expect(ReadingPlace(propertyList: copy.up(.integer(27), 500)) == ReadingPlace(offset: 27, stamp: EditStamp(time: 500, device: "an older release")))
        #expect(copy.up(stamped.propertyList, 500) == stamped.propertyList, "a place with its own stamp keeps it")
    }

    @Test func notesSavedAsPlainTextBeforeStillReadAndOtherVersionsReadBack() {
        let store = InMemoryPreferenceStore(values: [CharacterNotes.storeKey: .dictionary([
            "hatter": .string("Riddles."),
            "alice": .dictionary(["text": .string("Curious."), "otherVersions": .array([.string("Curiouser."), .integer(3)])]),
            "broken": .dictionary(["otherVersions": .array([.string("x")])]),
        ])])
        let notes = CharacterNotes(store: store)
        #expect(notes.note(for: "hatter") == "Riddles.")
        #expect(notes.otherVersions(for: "hatter").isEmpty)
        #expect(notes.note(for: "alice") == "Curious.")
        #expect(notes.otherVersions(for: "alice") == ["Curiouser."])
        #expect(notes.note(for: "broken") == "")
    }

    // MARK: bookmarks

    @Test func bookmarksAddedAndDeletedInTwoInstancesInOneBookAreAllKept() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let setup = ReaderStorage(store: instance())
        try setup.setBookmarks([Bookmark(offset: 10, title: "ten"), Bookmark(offset: 20, title: "twenty")], forBook: "book")
        let first = ReaderStorage(store: instance()), second = ReaderStorage(store: instance())
        try first.setBookmarks(try first.bookmarks(forBook: "book").filter { $0.offset != 10 } + [Bookmark(offset: 30, title: "thirty")], forBook: "book")
        try second.setBookmarks(try second.bookmarks(forBook: "book") + [Bookmark(offset: 40, title: "forty")], forBook: "book")
        #expect(try second.bookmarks(forBook: "book").map(\.offset) == [20, 30, 40])
        let reader = ReaderStorage(store: instance())
        #expect(try reader.bookmarks(forBook: "book").map(\.offset) == [20, 30, 40])
    }

    @Test func bookmarksOfDifferentBooksFromTwoInstancesAreBothKept() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = ReaderStorage(store: instance()), second = ReaderStorage(store: instance())
        try first.setBookmarks([Bookmark(offset: 1, title: "a")], forBook: "a")
        try second.setBookmarks([Bookmark(offset: 2, title: "b")], forBook: "b")
        let reader = ReaderStorage(store: instance())
        #expect(try reader.bookmarks(forBook: "a").map(\.offset) == [1])
        #expect(try reader.bookmarks(forBook: "b").map(\.offset) == [2])
    }

    // MARK: reading positions

    @Test func aPlaceFromAReleaseWithoutStampsIsNotRewrittenAtLaunchNorTakenForNews() {
        // The release before saved a bare offset in the defaults and the same offset in its archive.
        let store = InMemoryPreferenceStore(values: [ReadingPositions.storeKey: .dictionary(["book": .integer(27)])])
        let positions = ReadingPositions(store: store)
        let archived = ReadingPlace(offset: 27, stamp: .zero)
        #expect(positions.adopt(archived, forBook: "book") == archived)
        #expect(store.object(forKey: ReadingPositions.storeKey) == .dictionary(["book": .integer(27)]), "nothing rewritten")
        // Another copy with no stamp either (the archive said 24): what is shown stays, unwritten.
        let shown = ReadingPlace(offset: 24, stamp: .zero)
        #expect(positions.settle(shown: shown, forBook: "book") == shown)
        #expect(store.object(forKey: ReadingPositions.storeKey) == .dictionary(["book": .integer(27)]))
        // A place without a stamp is saved in the shape that release reads.
        #expect(ReadingPlace(offset: 5, stamp: .zero).propertyList == .integer(5))
    }

    @Test func placesInDifferentBooksFromTwoInstancesAreBothKept() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = instance(), second = instance()
        ReadingPositions(store: first).move(to: 100, inBook: "a")
        ReadingPositions(store: second).move(to: 200, inBook: "b")
        try first.flush()
        try second.flush()
        let positions = ReadingPositions(store: instance())
        #expect(positions.position(forBook: "a") == 100)
        #expect(positions.position(forBook: "b") == 200)
    }

    @Test func theNewerPlaceInOneBookWinsWhicheverInstanceSavesLast() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = instance(), second = instance()
        let older = ReadingPositions(store: first).move(to: 100, inBook: "a")
        let newer = ReadingPositions(store: second).move(to: 900, inBook: "a")
        #expect(older.stamp < newer.stamp)
        try second.flush()
        try first.flush()
        #expect(ReadingPositions(store: instance()).place(forBook: "a") == newer)
    }

    @Test func anOlderPlaceAdoptedFromElsewhereDoesNotReplaceANewerOne() {
        let positions = ReadingPositions(store: InMemoryPreferenceStore())
        let newer = positions.move(to: 500, inBook: "a")
        let archived = ReadingPlace(offset: 40, stamp: EditStamp(time: newer.stamp.time - 60, device: "x"))
        #expect(positions.adopt(archived, forBook: "a") == newer)
        #expect(positions.place(forBook: "a") == newer)
        let later = ReadingPlace(offset: 60, stamp: EditStamp(time: newer.stamp.time + 60, device: "x"))
        #expect(positions.adopt(later, forBook: "a") == later)
        #expect(positions.place(forBook: "a") == later, "kept with its own stamp, not a new one")
    }

    @Test func positionsSavedAsBareOffsetsStillReadAsTheOldestPlaces() {
        let store = InMemoryPreferenceStore(values: [ReadingPositions.storeKey: .dictionary(["a": .integer(77), "b": .string("not a number")])])
        let positions = ReadingPositions(store: store)
        #expect(positions.place(forBook: "a") == ReadingPlace(offset: 77, stamp: .zero))
        #expect(positions.place(forBook: "b") == nil)
        let moved = positions.move(to: 80, inBook: "a")
        #expect(moved.stamp > .zero)
        #expect(ReadingPlace(propertyList: moved.propertyList) == moved)
    }
}
