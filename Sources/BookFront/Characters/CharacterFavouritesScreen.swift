import Screens

/// The characters the user starred, in the list's order: `F` in the list pushes it,
/// Enter opens one, `f` unstars. Pushed in code, so a launch brings it back through the
/// restoration class "CharacterFavourites"; the list saves its selection by character id.
public final class CharacterFavouritesScreen: ListScreen {
    public static let restorationClass = "CharacterFavourites"
    public static let restorationID = "CharacterFavourites"
    let context: CharactersContext
    /// Set when the last unstar could not reach the disk.
    public private(set) var saveError: String?

    public init(context: CharactersContext) {
        self.context = context
        super.init(title: "Favourites", items: Self.items(context), restorationIdentifier: Self.restorationID)
        restorationClassName = Self.restorationClass
        emptyMessage = "No favourites yet. Press f on a character in the list to star it."
        onActivate = { [unowned self] item in self.open(id: item.id) }
    }

    /// Ids no longer in the character list are left in the store, unshown, in case it comes back.
    static func items(_ context: CharactersContext) -> [ListItem] {
        let starred = context.favourites.ids
        return context.catalog.characters.filter { starred.contains($0.id) }.map {
            CharacterListScreen.item(for: $0, otherVersions: context.notes.otherVersions(for: $0.id).count)
        }
    }

    /// Coming back from a detail, or after another window starred or unstarred one.
    public override func viewWillAppear() {
        super.viewWillAppear()
        let fresh = Self.items(context)
        if fresh != items { items = fresh }
    }

    func open(id: String) {
        guard let character = context.catalog.character(id: id), let navigation = parent as? NavigationStack else { return }
        navigation.push(CharacterDetailScreen(character: character, context: context))
    }

    func unstarSelected() {
        guard let id = selectedItem?.id else { return }
        saveError = context.saveFavourite(false, for: id)
        items = Self.items(context)
    }

    public override var messages: [String] { saveError.map { [$0] } ?? [] }

    public override var keyBindings: [KeyBinding] {
        var bindings = super.keyBindings
        if !state.isEditingFilter, selectedItem != nil {
            bindings.append(KeyBinding(.character("f"), help: "Unstar: take off the favourites") { [unowned self] in self.unstarSelected() })
        }
        return bindings
    }
}
