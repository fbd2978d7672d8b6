import Cloud
import Foundation

/// Opens the synced store the app and `wonderland cloud` use: the sync folder's backend, and
/// this machine's copy for that folder in the data folder, under the machine's device identity.
public struct CloudStoreFactory {
    public typealias BackendMaker = (_ folder: URL, _ device: DeviceIdentifier) -> KeyValueBackend

    /// This machine's copies and identity; nil keeps the store in memory under a new identity
    /// (tests).
    public var replicas: LocalReplicaFolder?
    public var makeBackend: BackendMaker
    /// How often the worker looks at the backend when it hears nothing.
    public var pollInterval: Double
    /// False leaves syncing to calls of the store's `synchronize()` (deterministic tests).
    public var startsWorker = true

    public init(replicas: LocalReplicaFolder?, pollInterval: Double = 0.5, makeBackend: @escaping BackendMaker = CloudStoreFactory.folderBackend) {
        self.replicas = replicas
        self.pollInterval = pollInterval
        self.makeBackend = makeBackend
    }

    /// The store for `folder`, not yet started. The warning tells of a damaged device identity;
    /// a damaged local copy is the store's to tell (`takeWarnings`).
    public func open(folder: URL, onNews: @escaping @Sendable () -> Void) -> (store: UbiquitousKeyValueStore, warning: String?) {
        var warning: String?
        let device = replicas?.deviceIdentifier(warning: &warning) ?? DeviceIdentifier.random()
        let backend = makeBackend(folder, device)
        let replicaFile = replicas?.replicaFile(forBackend: backend.displayName)
        var configuration = UbiquitousKeyValueStore.Configuration(backend: backend, replicaFile: replicaFile, device: device)
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
