import FoundationEssentials

extension CloudSyncPlace {
    /// The name this machine's copy for the place is kept under, the backend's `displayName`
    /// as the store opens it; nil for an address that cannot be used, which keeps no copy.
    public var replicaBackendName: String? {
        switch kind {
        case .folder(let folder): CloudStoreFactory.folderDisplayName(folder)
        // SyncHelperBackend's displayName; a test holds the two together.
        case .server(let address, _): "server \(address)"
        case .unusableServer: nil
        }
    }
}
