import KeyedArchive
import Screens

/// The Characters tab's root: every character of the list, `/` to filter (by name, alias or
/// chapter), Enter to open one. Rows are keyed by character id, so the selection is restored
/// by id however the list is filtered (the model-association rule).
public final class CharacterListScreen: ListScreen {
    public static let restorationID = "CharacterList"
    public static let navigationRestorationID = "CharacterNav"
    let context: CharactersContext

    public init(context: CharactersContext) {
        self.context = context
        super.init(title: "Characters", items: context.catalog.characters.map(Self.item), restorationIdentifier: Self.restorationID)
        if let error = context.catalogError { emptyMessage = "The character list could not be read: \(error)" }
        onActivate = { [unowned self] item in self.open(id: item.id) }
    }

    static func item(for character: BookCharacter) -> ListItem {
        let aliases = character.aliases.isEmpty ? "" : " · " + character.aliases.joined(separator: ", ")
        return ListItem(id: character.id, title: character.name, detail: "ch. \(character.firstChapter)" + aliases)
    }

    /// Pushes the detail of a character onto the navigation stack this list is the root of.
    public func open(id: String) {
        guard let character = context.catalog.character(id: id), let navigation = parent as? NavigationStack else { return }
        navigation.push(CharacterDetailScreen(character: character, context: context))
    }

    /// The tab: a navigation stack ("CharacterNav") over the list ("CharacterList").
    public static func makeNavigation(context: CharactersContext) -> NavigationStack {
        NavigationStack(root: CharacterListScreen(context: context), restorationIdentifier: navigationRestorationID)
    }

    /// The restoration class's work: the detail for the saved character id, or nil when the id
    /// is not in the list (any more), so the engine logs and skips it.
    public static func restoreDetail(from coder: KeyedUnarchiver, context: CharactersContext) throws -> CharacterDetailScreen? {
        guard let id = try CharacterDetailScreen.savedCharacterID(from: coder), let character = context.catalog.character(id: id) else { return nil }
        return CharacterDetailScreen(character: character, context: context)
    }
}
