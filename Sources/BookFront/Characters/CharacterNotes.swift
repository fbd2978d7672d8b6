import Defaults
import FileSafety
import FoundationEssentials
import PropertyList

/// The owner of the user's notes on the characters: a dictionary in the defaults store from
/// character id to note, saved entry by entry (`EntryMerge`), so instances editing different
/// characters keep every note. A note is its text; when two instances saved the same
/// character's note from the same starting point, the last save wins and the other text is
/// kept beside it as another version (the entry becomes `{text, otherVersions}`) until the user
/// next saves that note, never dropped.
///
/// Saving writes to disk before returning: when the editor closes, the note is on disk.
public struct CharacterNotes {
    public static let storeKey = SavedKey.characterNotes
    public let store: PreferenceStore

    public init(store: PreferenceStore) {
        self.store = store
        Self.declareMerge(in: store)
    }

    /// Tells the store to save the notes entry by entry (before anyone writes them).
    public static func declareMerge(in store: PreferenceStore) {
        store.mergesPerEntry(storeKey, rule: merge.keepingCopy(olderReleaseCopy))
    }

    /// Releases before the collections database read a note as its text alone: they are shown
    /// the newest text with the other versions under it, as the editor shows them here.
    static let olderReleaseCopy = OlderReleaseCopy(
        down: { value in CharacterNote(propertyList: value).map { .string($0.withOtherVersionsInline) } },
        up: { value, _ in
            guard case .string(let text) = value else { return nil }
            return text.allSatisfy(\.isWhitespace) ? nil : .string(text)
        })

    public func note(for id: String) -> String {
        CharacterNote(propertyList: store.object(forKey: Self.storeKey, entry: id))?.text ?? ""
    }

    /// Texts another instance saved for this character at the same time, oldest first.
    public func otherVersions(for id: String) -> [String] {
        CharacterNote(propertyList: store.object(forKey: Self.storeKey, entry: id))?.otherVersions ?? []
    }

    /// The longest note kept: far beyond anything typed in years (some 16,000 pages), and a
    /// draft of it still fits the restoration archive, so a note refused stays kept as a draft.
    public static let maximumBytes = 32 << 20

    /// A note over `maximumBytes`: refused before anything is written, so the editor can stay
    /// open with the text rather than promise a save that could never happen.
    public struct TooLong: Error, CustomStringConvertible {
        public let bytes: Int
        public var description: String {
            "this note is \(ByteCountText.describe(Int64(bytes))), more than the \(ByteCountText.describe(Int64(CharacterNotes.maximumBytes))) a note may hold; shorten it to save it"
        }
    }

    /// The note as the editor found it: its text and the other versions shown with it.
    public struct Snapshot: Equatable, Sendable {
        public var text: String
        public var otherVersions: [String]

        public init(text: String, otherVersions: [String] = []) {
            self.text = text
            self.otherVersions = otherVersions
        }

        var texts: [String] { [text] + otherVersions }
    }

    public func snapshot(for id: String) -> Snapshot {
        let note = CharacterNote(propertyList: store.object(forKey: Self.storeKey, entry: id))
        return Snapshot(text: note?.text ?? "", otherVersions: note?.otherVersions ?? [])
    }

    /// Saves one character's note, durably; a blank note removes the entry. Saving settles the
    /// other versions the editor showed (`editedFrom`): the user kept what they wanted. A text
    /// another window saved while this one was editing was never shown here, so it is kept as
    /// another version, on the same machine as across processes, whichever saves first. Throws
    /// when the note could not be written to disk (it is then still saved in memory and
    /// written at the next chance).
    public func save(_ text: String, for id: String, editedFrom start: Snapshot? = nil) throws {
        guard text.utf8.count <= Self.maximumBytes else { throw TooLong(bytes: text.utf8.count) }
        var note: CharacterNote? = text.allSatisfy(\.isWhitespace) ? nil : CharacterNote(text: text)
        if let start {
            let now = snapshot(for: id)
            var unseen: [String] = []
            for other in now.texts where !other.isEmpty && other != text && !start.texts.contains(other) && !unseen.contains(other) {
                unseen.append(other)
            }
            if !unseen.isEmpty {
                // A removal never beats an edit: the other window's text stays the note.
                if var kept = note {
                    kept.otherVersions = unseen
                    note = kept
                } else {
                    note = CharacterNote(text: unseen[0], otherVersions: Array(unseen.dropFirst()))
                }
            }
        }
        store.set(note?.propertyList, forKey: Self.storeKey, entry: id)
        try store.saveNow()
    }

    /// Two instances changed one note: this save wins (it is the newer), and the other text is
    /// kept as another version of it. A removal never beats an edit: the edit's text is kept.
    static let merge = EntryMerge { _, mine, theirs in
        let theirNote = CharacterNote(propertyList: theirs)
        guard var note = CharacterNote(propertyList: mine) else { return theirs }
        guard let theirNote else { return mine }
        for text in theirNote.otherVersions + [theirNote.text] where text != note.text && !note.otherVersions.contains(text) {
            note.otherVersions.append(text)
        }
        return note.propertyList
    }
}

/// One character's saved note as stored: the text alone, or `{text, otherVersions}` when
/// another instance saved a different text at the same time.
struct CharacterNote: Equatable {
    static let textKey = SavedKey.text
    static let otherVersionsKey = SavedKey.otherVersions

    var text: String
    var otherVersions: [String] = []

    init(text: String, otherVersions: [String] = []) {
        self.text = text
        self.otherVersions = otherVersions
    }

    init?(propertyList value: PropertyListValue?) {
        switch value {
        case .string(let text)?:
            self.init(text: text)
        case .dictionary(let fields)?:
            guard case .string(let text)? = fields[Self.textKey] else { return nil }
            var others: [String] = []
            if case .array(let values)? = fields[Self.otherVersionsKey] {
                others = values.compactMap { if case .string(let other) = $0 { other } else { nil } }
            }
            self.init(text: text, otherVersions: others)
        default:
            return nil
        }
    }

    /// The line between the note and a text another instance saved for it at the same time.
    static let otherVersionMarker = "── also saved in another window ──"

    /// The text followed by the other versions, each under a marker line: what the editor starts
    /// from and what reading shows.
    var withOtherVersionsInline: String {
        ([text] + otherVersions.map { Self.otherVersionMarker + "\n" + $0 }).filter { !$0.isEmpty }.joined(separator: "\n")
    }

    var propertyList: PropertyListValue {
        guard !otherVersions.isEmpty else { return .string(text) }
        return .dictionary([Self.textKey: .string(text), Self.otherVersionsKey: .array(otherVersions.map(PropertyListValue.string))])
    }
}
