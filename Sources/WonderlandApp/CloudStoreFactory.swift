import Cloud
import CloudServer
import FoundationEssentials

/// Opens the synced store the app and `wonderland cloud` use: the sync folder's or the sync
/// server's backend, and this machine's copy for it in the data folder, under the machine's
/// device identity.
public struct CloudStoreFactory {
    public typealias BackendMaker = (_ folder: URL, _ device: DeviceIdentifier) -> KeyValueBackend
    public typealias ServerBackendMaker = (_ address: PostgresSyncAddress, _ password: String?, _ device: DeviceIdentifier) -> KeyValueBackend

    /// This machine's copies and identity; nil keeps the store in memory under a new identity
    /// (tests).
    public var replicas: LocalReplicaFolder?
    public var makeBackend: BackendMaker
    public var makeServerBackend: ServerBackendMaker
    /// How often the worker looks at the backend when it hears nothing.
    public var pollInterval: Double
    /// False leaves syncing to calls of the store's `synchronize()` (deterministic tests).
    public var startsWorker = true

    public init(replicas: LocalReplicaFolder?, pollInterval: Double = 0.5, makeBackend: @escaping BackendMaker = CloudStoreFactory.folderBackend,
                makeServerBackend: @escaping ServerBackendMaker = CloudStoreFactory.serverBackend) {
        self.replicas = replicas
        self.pollInterval = pollInterval
        self.makeBackend = makeBackend
        self.makeServerBackend = makeServerBackend
    }

    /// The store for `place`, not yet started; the warning as for `open(folder:onNews:)`. An
    /// unusable server address gets a store that is always offline with the reason, and keeps
    /// its copy in memory only: it has nothing of its own to keep.
    public func open(_ place: CloudSyncPlace, onNews: @escaping @Sendable () -> Void) -> (store: UbiquitousKeyValueStore, warning: String?) {
        switch place.kind {
        case .folder(let folder):
            return open(folder: folder, onNews: onNews)
        case .server(let address, let lookup):
            return open(onNews: onNews) { device in makeServerBackend(address, lookup.password, device) }
        case .unusableServer(let reason):
            return open(onNews: onNews, keepsReplica: false) { _ in CloudUnusableBackend(reason: reason) }
        }
    }

    /// The store for `folder`, not yet started. The warning tells of a damaged device identity;
    /// a damaged local copy is the store's to tell (`takeWarnings`).
    public func open(folder: URL, onNews: @escaping @Sendable () -> Void) -> (store: UbiquitousKeyValueStore, warning: String?) {
        open(onNews: onNews) { device in makeBackend(folder, device) }
    }

    private func open(onNews: @escaping @Sendable () -> Void, keepsReplica: Bool = true,
                      backend make: (DeviceIdentifier) -> KeyValueBackend) -> (store: UbiquitousKeyValueStore, warning: String?) {
        var warning: String?
        let device = replicas?.deviceIdentifier(warning: &warning) ?? DeviceIdentifier.random()
        let backend = make(device)
        let replicaFile = keepsReplica ? replicas?.replicaFile(forBackend: backend.displayName) : nil
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

    /// The server backend: a helper process that runs it, started on the worker thread at the
    /// first sync.
    public static func serverBackend(address: PostgresSyncAddress, password: String?, device: DeviceIdentifier) -> KeyValueBackend {
        SyncHelperBackend(address: address, password: password, device: device)
    }

    /// "folder ~/Sync/wonderland": what the user is told the store is.
    static func folderDisplayName(_ folder: URL) -> String {
        let path = folder.standardizedFileURL.path
        let home = ProcessInfo.processInfo.environment["HOME"] ?? ""
        if !home.isEmpty, home != "/", path.hasPrefix(home + "/") { return "folder ~" + path.dropFirst(home.count) }
        return "folder \(path)"
    }
}
