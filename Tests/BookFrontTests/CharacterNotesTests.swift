import Defaults
import PropertyList
import Testing
@testable import BookFront

@Suite("Character notes")
struct CharacterNotesTests {
    @Test func notesAreKeptPerCharacterInOneDictionary() throws {
        let store = InMemoryPreferenceStore()
        let notes = CharacterNotes(store: store)
        #expect(notes.note(for: "dodo") == "")
        try notes.save("Runs in circles.\nEveryone wins.", for: "dodo")
        try notes.save("Late.", for: "white-rabbit")
        #expect(store.object(forKey: "WLCharacterNotes") == .dictionary([
            "dodo": .string("Runs in circles.\nEveryone wins."), "white-rabbit": .string("Late."),
        ]))
        #expect(notes.note(for: "dodo") == "Runs in circles.\nEveryone wins.")
        // A blank note removes its entry; the last one removes the key.
        try notes.save(" \n ", for: "dodo")
        #expect(store.object(forKey: "WLCharacterNotes") == .dictionary(["white-rabbit": .string("Late.")]))
        try notes.save("", for: "white-rabbit")
        #expect(store.object(forKey: "WLCharacterNotes") == nil)
    }

    @Test func aNoteOverTheLimitIsRefusedBeforeAnythingChanges() throws {
        let store = InMemoryPreferenceStore()
        let notes = CharacterNotes(store: store)
        try notes.save("Grins.", for: "cheshire-cat")
        let huge = String(repeating: "x", count: CharacterNotes.maximumBytes + 1)
        #expect(throws: CharacterNotes.TooLong.self) { try notes.save(huge, for: "cheshire-cat") }
        #expect(notes.note(for: "cheshire-cat") == "Grins.")
        try notes.save(String(huge.dropLast()), for: "cheshire-cat")
        #expect(notes.note(for: "cheshire-cat").utf8.count == CharacterNotes.maximumBytes)
    }

    @Test func anUnchangedNoteWritesNothingAndOtherProcessesNotesAreKept() throws {
        let store = InMemoryPreferenceStore()
        var changes = 0
        let observation = store.addChangeObserver { _ in changes += 1 }
        let notes = CharacterNotes(store: store)
        try notes.save("Grins.", for: "cheshire-cat")
        try notes.save("Grins.", for: "cheshire-cat")
        #expect(changes == 1)
        // As if another process had saved a note for someone else since.
        store.set(.dictionary(["cheshire-cat": .string("Grins."), "hatter": .string("Riddles.")]), forKey: "WLCharacterNotes")
        try notes.save("Grins, then fades.", for: "cheshire-cat")
        #expect(notes.note(for: "hatter") == "Riddles.")
        // A value of the wrong type is read as no notes, and replaced on the next save.
        store.set(.string("garbage"), forKey: "WLCharacterNotes")
        #expect(notes.note(for: "hatter") == "")
        try notes.save("Tea.", for: "march-hare")
        #expect(store.object(forKey: "WLCharacterNotes") == .dictionary(["march-hare": .string("Tea.")]))
        observation.cancel()
    }
}
