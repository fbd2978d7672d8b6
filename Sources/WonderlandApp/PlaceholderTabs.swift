import Defaults
import KeyedArchive
import Restoration
import Screens

// The three tabs as they stand before their fronts land (map: issue 6; characters and book:
// issue 7). Each is already the real screen object, with its final restoration identifier.

enum MapTab {
    static let settingKeys = ["HPMapType", "HPFollowHeading", "WLUnits", "HPSyncLocations"]

    static func make(services: AppServices) -> Screen {
        SettingsAwarePager(title: "Map", introduction: """
            The Pigeon front: an offline world map lives here.

            It will remember the place you are at under a title, show the bearing and distance \
            to it, and keep its map type and tracking mode between launches.
            """, keys: settingKeys, services: services, restorationIdentifier: "Map")
    }
}

enum CharactersTab {
    /// A few of the book's people, until Resources/Characters.plist arrives with the front.
    static let sample: [ListItem] = [
        ListItem(id: "alice", title: "Alice", detail: "a girl who follows a rabbit"),
        ListItem(id: "white-rabbit", title: "White Rabbit", detail: "always late"),
        ListItem(id: "cheshire-cat", title: "Cheshire Cat", detail: "grins, then fades"),
        ListItem(id: "mad-hatter", title: "Hatter", detail: "keeps tea-time forever"),
        ListItem(id: "march-hare", title: "March Hare", detail: "the Hatter's host"),
        ListItem(id: "queen-of-hearts", title: "Queen of Hearts", detail: "off with their heads"),
        ListItem(id: "caterpillar", title: "Caterpillar", detail: "asks who you are"),
        ListItem(id: "duchess", title: "Duchess", detail: "finds a moral in everything"),
    ]

    static func make() -> Screen {
        let list = ListScreen(title: "Characters", items: sample, restorationIdentifier: "CharacterList")
        let navigation = NavigationStack(root: list, restorationIdentifier: "CharacterNav")
        list.onActivate = { [unowned navigation] item in
            navigation.push(CharacterNotesScreen(character: item))
        }
        return navigation
    }

    /// Rebuilds the notes screen pushed in code, from the character id it saved.
    static func registerRestorationClasses(in registry: inout RestorationClassRegistry) {
        registry.register(CharacterNotesScreen.restorationClass) { _, coder in
            guard let id = try coder.decodeObject(of: String.self, forKey: CharacterNotesScreen.characterKey),
                  let item = sample.first(where: { $0.id == id }) else { return nil }
            return CharacterNotesScreen(character: item)
        }
    }
}

/// A character's notes, pushed in code when a row is opened; until the Characters front lands
/// the notes live only in the screen (and its restored draft).
final class CharacterNotesScreen: TextEditorScreen {
    static let restorationClass = "CharacterDetail"
    static let characterKey = "characterID"
    let characterID: String

    init(character: ListItem) {
        characterID = character.id
        super.init(title: character.title, restorationIdentifier: "CharacterDetail")
        restorationClassName = Self.restorationClass
    }

    override func encodeRestorableState(with coder: KeyedArchiver) throws {
        try super.encodeRestorableState(with: coder)
        try coder.encode(characterID, forKey: Self.characterKey)
    }
}

enum BookTab {
    static let settingKeys = ["WLTextWidth", "WLTheme", "WLShowPageNumbers", "WLJustifyText", "WLSyncReadingPosition"]

    static func make(services: AppServices) -> Screen {
        SettingsAwarePager(title: "Book", introduction: """
            The Wonderland front: the book reader lives here.

            It will open Alice's Adventures in Wonderland, or any .txt, .md or .epub file, page \
            by page, with chapters, search and bookmarks, and it will keep your place: the same \
            sentence at the top of the page when you come back, whatever the width of your \
            terminal.
            """, keys: settingKeys, services: services, restorationIdentifier: "Book")
    }
}

/// A placeholder page that lists the settings its front will use, with their current values,
/// and redraws when one changes — here, in `wonderland settings`, or via `wonderland defaults`.
final class SettingsAwarePager: PagerScreen {
    private let introduction: String
    private let keys: [String]
    private let services: AppServices
    private var observation: PreferenceObservation?

    init(title: String, introduction: String, keys: [String], services: AppServices, restorationIdentifier: String) {
        self.introduction = introduction
        self.keys = keys
        self.services = services
        super.init(title: title, text: introduction, restorationIdentifier: restorationIdentifier)
        text = composedText()
        let watched = Set(keys)
        observation = services.store.addChangeObserver { [weak self] changed in
            guard let self, !changed.isDisjoint(with: watched) else { return }
            let offset = self.anchorOffset
            self.text = self.composedText()
            self.anchorOffset = offset
        }
    }

    private func composedText() -> String {
        let lines = keys.compactMap { services.bundle.summary(ofKey: $0, in: services.store) }
        return introduction + "\n\nSettings (press , to change them):\n" + lines.map { "  " + $0 }.joined(separator: "\n")
    }
}
