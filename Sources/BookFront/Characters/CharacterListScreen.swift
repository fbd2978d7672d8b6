import KeyedArchive
import Screens
import Terminal

/// The Characters tab's root: every character of the list, `/` to filter (by name, alias or
/// chapter), Enter to open one, `f` to star one, `F` for the starred ones. Rows are keyed by
/// character id, so the selection is restored by id however the list is filtered (the
/// model-association rule).
public final class CharacterListScreen: ListScreen {
    public static let restorationID = "CharacterList"
    /// The tab, named by its title.
    public static let navigationRestorationID = "Characters"
    /// What the tab was saved under before it was named by its title.
    public static let formerNavigationRestorationIDs = ["CharacterNav"]
    let context: CharactersContext
    /// Set when the last star could not reach the disk.
    public private(set) var saveError: String?

    /// The rows are made when the list is first restored, shown or drawn, not here: a launch
    /// on another tab never reads the character list.
    public init(context: CharactersContext) {
        self.context = context
        super.init(title: "Characters", items: [], restorationIdentifier: Self.restorationID)
        onActivate = { [unowned self] item in self.open(id: item.id) }
    }

    private var hasItems = false
    /// The place the archive gave before the rows were made, put back when they are.
    private var pendingPlace: SavedPlace?

    /// The rows as the list and the notes are now (made the first time, refreshed after).
    private func refreshItems() {
        hasItems = true
        let fresh = Self.items(context)
        if fresh != items { items = fresh }
        if let place = pendingPlace {
            pendingPlace = nil
            restore(place)
        }
    }

    static func items(_ context: CharactersContext) -> [ListItem] {
        context.catalog.characters.map {
            item(for: $0, otherVersions: context.notes.otherVersions(for: $0.id).count, isFavourite: context.favourites.contains($0.id))
        }
    }

    /// A character whose note was saved differently in another window at the same time says so,
    /// so the user finds the versions to settle. "favourite" is a word, not a glyph, so `/fav`
    /// finds the starred ones and an ASCII terminal shows it as it is.
    static func item(for character: BookCharacter, otherVersions: Int = 0, isFavourite: Bool = false) -> ListItem {
        let aliases = character.aliases.isEmpty ? "" : " · " + character.aliases.joined(separator: ", ")
        let versions = otherVersions == 0 ? "" : " · note saved \(otherVersions + 1) ways"
        let favourite = isFavourite ? " · favourite" : ""
        return ListItem(id: character.id, title: character.name, detail: "ch. \(character.firstChapter)" + favourite + versions + aliases)
    }

    /// Coming back from a detail (or another tab), the rows show the notes as saved now.
    public override func viewWillAppear() {
        super.viewWillAppear()
        refreshItems()
    }

    /// The saved place waits for the rows: a launch on another tab restores the list without
    /// reading the character list.
    public override func decodeRestorableState(with coder: KeyedUnarchiver) throws {
        let place = try Self.savedPlace(from: coder)
        if hasItems { restore(place) } else { pendingPlace = place }
    }

    /// A list never shown since launch saves the place it was given as it was given, without
    /// making its rows (each asks its character's note, which a save behind another tab, at
    /// the first key, has no need to read).
    public override func encodeRestorableState(with coder: KeyedArchiver) throws {
        guard hasItems else { return try Self.encode(pendingPlace ?? Self.noPlace, with: coder) }
        try super.encodeRestorableState(with: coder)
    }

    /// A list that could not be read says why in full (a path and a line number do not fit
    /// on the one row an empty list's message gets).
    public override func draw(in canvas: Canvas) {
        if !hasItems { refreshItems() }
        guard let error = context.catalogError else { return super.draw(in: canvas) }
        canvas.write("The character list could not be read:", x: 2, y: 0, style: .bold)
        for (row, line) in DisplayWidth.wrap(error.description, to: max(1, canvas.width - 4)).prefix(max(0, canvas.height - 1)).enumerated() {
            canvas.write(line, x: 2, y: row + 1)
        }
    }

    /// Pushes the detail of a character onto the navigation stack this list is the root of.
    public func open(id: String) {
        guard let character = context.catalog.character(id: id), let navigation = parent as? NavigationStack else { return }
        navigation.push(CharacterDetailScreen(character: character, context: context))
    }

    /// Pushes the starred characters onto the navigation stack this list is the root of.
    public func openFavourites() {
        (parent as? NavigationStack)?.push(CharacterFavouritesScreen(context: context))
    }

    func toggleFavouriteOfSelected() {
        guard let id = selectedItem?.id else { return }
        saveError = context.saveFavourite(!context.favourites.contains(id), for: id)
        items = Self.items(context)
    }

    public override var messages: [String] { saveError.map { [$0] } ?? [] }

    public override var keyBindings: [KeyBinding] {
        var bindings = super.keyBindings
        guard !state.isEditingFilter, context.catalogError == nil else { return bindings }
        // The bar keeps room for the tab keys: `f` is in the help, and the empty favourites say it.
        if selectedItem != nil {
            bindings.append(KeyBinding(.character("f"), help: "Star: add to or take off your favourites", showsInHintBar: false) { [unowned self] in
                self.toggleFavouriteOfSelected()
            })
        }
        bindings.append(KeyBinding(.character("F"), help: "Favourites: the characters you starred") { [unowned self] in self.openFavourites() })
        return bindings
    }

    /// The tab: a navigation stack ("Characters") over the list ("CharacterList").
    public static func makeNavigation(context: CharactersContext) -> NavigationStack {
        let navigation = NavigationStack(root: CharacterListScreen(context: context), restorationIdentifier: navigationRestorationID)
        navigation.formerRestorationIdentifiers = formerNavigationRestorationIDs
        return navigation
    }

    /// The restoration class's work: the detail for the saved character id, or nil when the id
    /// is not in the list (any more), so the engine logs and skips it.
    public static func restoreDetail(from coder: KeyedUnarchiver, context: CharactersContext) throws -> CharacterDetailScreen? {
        guard let id = try CharacterDetailScreen.savedCharacterID(from: coder), let character = context.catalog.character(id: id) else { return nil }
        return CharacterDetailScreen(character: character, context: context)
    }
}
