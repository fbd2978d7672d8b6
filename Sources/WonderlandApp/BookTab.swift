import Defaults
import KeyedArchive
import Restoration
import Screens

// The Book tab (issue 7). Still a placeholder page.

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

extension BookTab {
    static func registerRestorationClasses(in registry: inout RestorationClassRegistry, services: AppServices) {}
}
