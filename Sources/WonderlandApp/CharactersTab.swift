import Defaults
import KeyedArchive
import Restoration
import Screens

// The Characters tab (issue 7). Still the sample list.

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
