import BookFront
import Restoration
import Screens

// The Characters tab: the Wonderland front's character list, detail and notes,
// built in BookFront; here it is only wired to the app's services.

enum CharactersTab {
    /// The context the tab's screens share: the character list, the notes in the app's store
    /// and the default book in the data folder (or the same book given to `--book`). One per
    /// launch: the tab and the restored detail read the list and search the book once between them.
    static func context(services: AppServices) -> CharactersContext {
        if let made = services.shared.characters { return made }
        let environment = services.launch.environment
        let openBook = services.launch.bookPath.map { ReaderScreen.absolutePath($0, home: environment["HOME"]) }
        let made = CharactersContext.standard(store: services.store, dataFolderPath: services.launch.dataFolderPath, openBook: openBook,
                                              environment: environment)
        // A copy of the default book opened later (o, or the book reopened at launch) counts too.
        let shared = services.shared
        made.alsoLookIn = DefaultBookCopy { [weak shared] in shared?.reader?.bookPath }.find
        services.shared.characters = made
        return made
    }

    static func make(services: AppServices) -> Screen {
        CharacterListScreen.makeNavigation(context: context(services: services))
    }

    /// Rebuilds the screens pushed in code: the detail ("CharacterDetail") from the character id
    /// it saved (an id no longer in the list gives nil, which the engine logs and skips), and the
    /// favourites ("CharacterFavourites"), whose selection the list itself decodes.
    static func registerRestorationClasses(in registry: inout RestorationClassRegistry, services: AppServices) {
        registry.register(CharacterDetailScreen.restorationClass) { _, coder in
            try CharacterListScreen.restoreDetail(from: coder, context: context(services: services))
        }
        registry.register(CharacterFavouritesScreen.restorationClass) { _, _ in
            CharacterFavouritesScreen(context: context(services: services))
        }
    }
}
