import Cloud
import Foundation

/// Opens the synced store the app and `wonderland cloud` use: the sync folder's backend, and
/// this machine's copy in the data folder, whose device identity the backend writes under.
public struct CloudStoreFactory {
    public typealias BackendMaker = (_ folder: URL, _ device: DeviceIdentifier) -> KeyValueBackend

    /// This machine's copy; nil keeps it in memory (tests).
    public var replicaFile: LocalReplicaFile?
    public var makeBackend: BackendMaker
    /// How often the worker looks at the backend when it hears nothing.
    public var pollInterval: Double
    /// False leaves syncing to calls of the store's `synchronize()` (deterministic tests).
    public var startsWorker = true

    public init(replicaFile: LocalReplicaFile?, pollInterval: Double = 0.5, makeBackend: @escaping BackendMaker = CloudStoreFactory.folderBackend) {
        self.replicaFile = replicaFile
        self.pollInterval = pollInterval
        self.makeBackend = makeBackend
    }

    /// The store for `folder`, not yet started. A damaged local copy is moved aside; the
    /// warning says so, for the user.
    public func open(folder: URL, onNews: @escaping @Sendable () -> Void) -> (store: UbiquitousKeyValueStore, warning: String?) {
        var warning: String?
        let saved = replicaFile?.load(warning: &warning)
        let device = saved?.device ?? DeviceIdentifier.random()
        var configuration = UbiquitousKeyValueStore.Configuration(backend: makeBackend(folder, device), replicaFile: replicaFile, device: device)
        configuration.pollInterval = pollInterval
        configuration.onNews = onNews
        return (UbiquitousKeyValueStore(configuration), warning)
    }

    /// The default backend: a folder every device writes its own change files into, made on
    /// the worker thread at its first use.
    public static func folderBackend(folder: URL, device: DeviceIdentifier) -> KeyValueBackend {
        CloudDeferredBackend(displayName: folderDisplayName(folder)) {
            try FolderBackend(folder: folder, device: device)
        }
    }

    /// "folder ~/Sync/wonderland": what the user is told the store is.
    static func folderDisplayName(_ folder: URL) -> String {
        let path = folder.standardizedFileURL.path
        let home = ProcessInfo.processInfo.environment["HOME"] ?? ""
        if !home.isEmpty, home != "/", path.hasPrefix(home + "/") { return "folder ~" + path.dropFirst(home.count) }
        return "folder \(path)"
    }
}
