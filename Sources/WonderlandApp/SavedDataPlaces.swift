import BookFront
import Cloud
import Defaults
import FoundationEssentials
import MapFront
import Platform
import Restoration

/// Where each kind of thing the app keeps lives, as the code that writes it places it, so
/// `state usage`, `state clean` and the housekeeping after the first frame look in the same
/// folders the app writes to.
public struct SavedDataPlaces: Sendable {
    /// `defaults.plist`, in `$XDG_CONFIG_HOME/wonderland`.
    public var settingsFile: String
    /// `$XDG_DATA_HOME/wonderland`.
    public var dataFolder: String
    public var restoration: RestorationFiles
    /// `$XDG_STATE_HOME/wonderland/book-index`.
    public var bookIndexFolder: String
    /// `$XDG_CACHE_HOME/wonderland/map`.
    public var mapCacheFolder: String

    public init(environment: [String: String]) {
        let folders = UserFolders(environment: environment)
        settingsFile = DefaultsStore.standardFilePath(environment: environment)
        dataFolder = LaunchOptions.standardDataFolderPath(environment: environment)
        restoration = RestorationFiles.standard(environment: environment)
        collectionsFile = DefaultsStore.standardCollectionsPath(environment: environment)
        bookIndexFolder = BookIndexStore.standard(environment: environment)?.folderPath
            ?? FilePaths.join(folders.folder(.state), "wonderland/book-index")
        mapCacheFolder = MapLevelCache.standard(environment: environment)?.folder
            ?? FilePaths.join(folders.folder(.cache), "wonderland/map")
    }

    public var settingsFolder: String { FilePaths.parent(of: settingsFile) }

    /// The collections database, in a folder of its own in the data folder.
    public var collectionsFile: String
    /// The database and the write-ahead log and its index SQLite keeps beside it.
    public var collectionsFiles: [String] { [collectionsFile, collectionsFile + "-wal", collectionsFile + "-shm"] }

    public var replicas: LocalReplicaFolder { .standard(dataFolderPath: dataFolder) }

    /// Every folder a file is moved aside in: beside the settings, the collections, the
    /// archive, the book indexes, the map indexes and the synced-store copies.
    public var movedAsideFolders: [String] {
        [settingsFolder, FilePaths.parent(of: collectionsFile), restoration.folderPath, bookIndexFolder, mapCacheFolder, replicas.path]
    }
}
