import Defaults
import PropertyList

/// The user's notes on each character, in the defaults store under one key: a dictionary from
/// character id to text. Written when the user leaves the notes editor, read when a detail
/// screen is shown.
public struct CharacterNotes {
    public static let storeKey = "WLCharacterNotes"
    public let store: PreferenceStore

    public init(store: PreferenceStore) { self.store = store }

    public func note(for id: String) -> String {
        guard case .dictionary(let notes)? = store.object(forKey: Self.storeKey), case .string(let text)? = notes[id] else { return "" }
        return text
    }

    /// Saves one character's note; a blank note removes the entry. The dictionary is read
    /// afresh just before writing, so notes another process saved for other characters (and
    /// that this one has seen) are kept.
    public func save(_ text: String, for id: String) {
        var notes: [String: PropertyListValue] = [:]
        if case .dictionary(let current)? = store.object(forKey: Self.storeKey) { notes = current }
        let entry: PropertyListValue? = text.allSatisfy(\.isWhitespace) ? nil : .string(text)
        guard notes[id] != entry else { return }
        notes[id] = entry
        store.set(notes.isEmpty ? nil : .dictionary(notes), forKey: Self.storeKey)
    }
}
