import Defaults
import FoundationEssentials
import PropertyList
import Terminal

/// What the reader needs from the app: the defaults store, where books live, what the command
/// line asked for, and how to open a file (tests pass their own loader).
public struct ReaderEnvironment {
    public var store: PreferenceStore
    /// Where books live, as a path: the reader is made at every launch, most of which never
    /// open a book.
    public var dataFolderPath: String
    /// `--book PATH`: opened instead of the book that was open.
    public var bookPath: String?
    /// $HOME: what `~` means in a path typed or given on the command line.
    public var homeFolder: String?
    public var load: (String) throws -> BookDocument
    /// Wakes the app's loop (posts a wake-up), which then calls the reader's `handleWake`: from
    /// a worker thread when a page count is ready, and from the main thread once a frame is
    /// drawn that left work for after it.
    public var wake: @Sendable () -> Void

    /// `indexes`: where the default loader keeps book indexes (`BookIndexStore.standard`); nil
    /// keeps none. Ignored when `load` is given.
    public init(store: PreferenceStore, dataFolderPath: String, bookPath: String? = nil, homeFolder: String? = nil,
                indexes: BookIndexStore? = nil, load: ((String) throws -> BookDocument)? = nil,
                wake: @escaping @Sendable () -> Void = { Wakeup.post() }) {
        self.store = store
        self.dataFolderPath = dataFolderPath
        self.bookPath = bookPath
        self.homeFolder = homeFolder
        self.load = load ?? { try BookLoader.load(path: $0, indexes: indexes) }
        self.wake = wake
    }

    // MARK: settings (Resources/Settings.bundle)

    /// WLTextWidth, 40–120, 72 when unset.
    public var textWidth: Int {
        let value = store.object(forKey: SavedKey.textWidth).flatMap(DefaultsConversion.integer) ?? 72
        return min(max(value, 20), 400)
    }

    public var showsPageNumbers: Bool {
        store.object(forKey: SavedKey.showPageNumbers).flatMap(DefaultsConversion.bool) ?? true
    }

    /// WLJustifyText: spread the words of every line but a paragraph's last to the full width.
    public var justifiesText: Bool {
        store.object(forKey: SavedKey.justifyText).flatMap(DefaultsConversion.bool) ?? false
    }

    /// WLTheme: the page's colours ("terminal" keeps the terminal's own).
    public var pageStyle: Style {
        switch store.object(forKey: SavedKey.theme).flatMap(DefaultsConversion.string) {
        case "paper": return Style(foreground: .black, background: .white)
        // No warm background reads in every palette with eight colours (black on yellow is
        // 4.0:1 on the Linux console, 4.05:1 in Solarized): sepia is drawn as paper.
        case "sepia": return Style(foreground: .black, background: .white)
        case "night": return Style(foreground: .white, background: .black)
        default: return .plain
        }
    }

    public static let settingKeys: Set<String> = [SavedKey.textWidth, SavedKey.showPageNumbers, SavedKey.justifyText, SavedKey.theme]
}
