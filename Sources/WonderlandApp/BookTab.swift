import BookFront
import Defaults
import KeyedArchive
import Restoration
import Screens
import Terminal

// The Book tab: the reader of the Wonderland front (BookFront/Reader).

enum BookTab {
    static func make(services: AppServices) -> Screen {
        let reader = ReaderScreen(environment: ReaderEnvironment(store: services.store, dataFolderPath: services.launch.dataFolderPath,
                                                                 bookPath: services.launch.bookPath, homeFolder: services.launch.environment["HOME"],
                                                                 indexes: BookIndexStore.standard(environment: services.launch.environment)))
        services.shared.reader = reader
        return reader
    }
}

extension BookTab {
    /// The reader is made at start-up; its search and Open prompts are saved with it (it asks
    /// them again, their answers acting on it) and its lists are not saved, so there is no
    /// screen to rebuild here.
    static func registerRestorationClasses(in registry: inout RestorationClassRegistry, services: AppServices) {}
}
