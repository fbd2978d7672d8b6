import BookFront
import Restoration
import Screens

// The Characters tab (issue 7): the Wonderland front's character list, detail and notes,
// built in BookFront; here it is only wired to the app's services.

enum CharactersTab {
    /// The context the tab's screens share: the character list, the notes in the app's store
    /// and the default book in the data folder.
    static func context(services: AppServices) -> CharactersContext {
        CharactersContext.standard(store: services.store, dataFolder: services.launch.dataFolder, environment: services.launch.environment)
    }

    static func make(services: AppServices) -> Screen {
        CharacterListScreen.makeNavigation(context: context(services: services))
    }

    /// Rebuilds the detail pushed in code ("CharacterDetail") from the character id it saved;
    /// an id no longer in the list gives nil, which the engine logs and skips.
    static func registerRestorationClasses(in registry: inout RestorationClassRegistry, services: AppServices) {
        let shared = context(services: services)
        registry.register(CharacterDetailScreen.restorationClass) { _, coder in
            try CharacterListScreen.restoreDetail(from: coder, context: shared)
        }
    }
}
