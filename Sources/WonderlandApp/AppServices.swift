import TextSafety
import MapFront
import BookFront
import Defaults
import FoundationEssentials
import Platform
import Settings

/// What the screens share beyond the screen tree: the defaults store, the settings schema and
/// what this launch was asked for on the command line.
public struct AppServices {
    public let store: PreferenceStore
    public let bundle: SettingsBundle
    public private(set) var launch: LaunchOptions
    /// What the tabs and their restoration classes share, made once per tree on first use.
    var shared = SharedFrontObjects()
    /// The sync status line the tab bar shows, kept by `CloudController`.
    public let cloudStatus = CloudStatusBoard()
    /// The other machine's place the tab bar offers, kept by `HandoffController`.
    public let handoff = HandoffBoard()

    public init(store: PreferenceStore, bundle: SettingsBundle, launch: LaunchOptions = LaunchOptions()) {
        self.store = store
        self.bundle = bundle
        self.launch = launch
        bundle.registerDefaults(in: store)
        // Before anything writes them (the mirror may, before any screen is shown).
        CharacterNotes.declareMerge(in: store)
        ReadingPositions.declareMerge(in: store)
        ReaderStorage.declareMerge(in: store)
    }

    /// The same services for a second tree that replaces the first (a place continued from
    /// another machine): its own shared front objects, and no `--book` to open again.
    func forReplacementTree() -> AppServices {
        var services = self
        services.shared = SharedFrontObjects()
        services.launch.bookPath = nil
        return services
    }

    /// An in-memory store with the compiled-in schema and, unless told otherwise, a data folder
    /// that does not exist: tests see the same app on every machine, whatever the user has
    /// installed (the book), and no map indexes are written.
    public static func inMemory(launch: LaunchOptions = LaunchOptions(dataFolder: LaunchOptions.emptyDataFolder)) -> AppServices {
        AppServices(store: InMemoryPreferenceStore(), bundle: .embedded, launch: launch)
    }
}

/// The command line's say in this launch, and where the app keeps its data.
public struct LaunchOptions {
    /// `--location LAT,LON`: the current location, instead of gpsd or the setting.
    public var location: String?
    /// `--book PATH`: the book the Book tab opens, instead of the one it had open.
    public var bookPath: String?
    /// The path of `$XDG_DATA_HOME/wonderland`: books, the local synced store.
    public var dataFolderPath: String
    /// The same folder as a URL, made when asked for: a launch that shows the map needs none.
    public var dataFolder: URL {
        get { URL(fileURLWithPath: dataFolderPath, isDirectory: true) }
        set { dataFolderPath = newValue.path }
    }
    /// The process environment (gpsd address overrides, test hooks).
    public var environment: [String: String]
    /// Whether a saved place may be restored (an archive is there and `--fresh` was not given):
    /// without one the first frame is the map, and its data is read while the app launches.
    public var hasSavedPlace: Bool

    public init(location: String? = nil, bookPath: String? = nil, dataFolder: URL? = nil, environment: [String: String] = [:],
                hasSavedPlace: Bool = true) {
        self.location = location
        self.bookPath = bookPath
        self.hasSavedPlace = hasSavedPlace
        self.dataFolderPath = dataFolder?.path ?? Self.standardDataFolderPath(environment: environment)
        self.environment = environment
    }

    /// What makes the command line unusable, said in one line, before the screen is taken:
    /// a `--location` that is no place, a `--book` that is no file. Nil when all is well.
    public var problem: String? {
        if let location, case .failure(let error) = LocationText.parse(location) {
            return "--location “\(SafeText.visible(location))”: \(error)"
        }
        if let bookPath {
            // As the reader will expand it, `~user` included: a path it would open is never refused.
            let path = UserFolders(environment: environment).expandingTilde(bookPath, otherUsers: true)
            var isFolder = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                return "--book “\(SafeText.visible(bookPath))”: no such file"
            }
            if isFolder { return "--book “\(SafeText.visible(bookPath))”: is a folder, not a book" }
        }
        return nil
    }

    /// A data folder nothing is ever written to: nothing is installed there.
    public static let emptyDataFolder = FileManager.default.temporaryDirectory
        .appendingPathComponent("wonderland-no-data-\(ProcessInfo.processInfo.processIdentifier)")

    public static func standardDataFolder(environment: [String: String]) -> URL {
        URL(fileURLWithPath: standardDataFolderPath(environment: environment), isDirectory: true)
    }

    /// `$XDG_DATA_HOME/wonderland`, or `~/.local/share/wonderland`.
    public static func standardDataFolderPath(environment: [String: String]) -> String {
        FilePaths.join(UserFolders(environment: environment).dataHome, "wonderland")
    }
}

/// Objects a tab and the restoration classes that rebuild its screens must share — one
/// character list and one book search, not one each — made by whichever asks first.
final class SharedFrontObjects {
    var characters: CharactersContext?
    /// The Book tab's reader, for the Characters tab to find the default book in it.
    weak var reader: ReaderScreen?
}
