import BookFront
import Cloud
import CloudServer
import Defaults
import FoundationEssentials
import MapFront
import Platform
#if canImport(Glibc)
import Glibc
#endif

/// What the app syncs and where, from the Sync group of the settings. Only the pin and the
/// reading positions sync; map type and tracking mode stay on each device, which may differ in
/// screen and use.
public enum CloudSettings {
    public static let syncLocationsKey = "HPSyncLocations"
    public static let syncReadingPositionKey = "WLSyncReadingPosition"
    public static let syncFolderKey = "WLSyncFolder"
    /// Overrides the Sync Folder setting (tests, and two devices on one machine).
    public static let folderEnvironmentKey = "WONDERLAND_SYNC_FOLDER"
    /// A PostgreSQL server to sync through instead of a folder: `postgres://user@host:port/db`.
    public static let syncServerKey = "WLSyncServer"
    /// Overrides the Sync Server setting; unlike the setting, it may carry the password.
    public static let serverEnvironmentKey = "WONDERLAND_SYNC_URL"
    /// Store keys of the reading positions: one per book, `WLReadingPosition.<content hash>`.
    public static let readingPositionPrefix = "WLReadingPosition."

    /// The reading places the store keeps: the most recently read books. A heavy reader's
    /// places would otherwise fill the store's 1,024 keys and leave no room for the pin; older
    /// places stay on this machine and come back when their book is read again. 200 places
    /// take about 27 KB of the 1 MB.
    public static let readingPlaceShare = EntryShare(maximumEntries: 200, maximumBytes: 256 * 1_024)

    /// The pin (HPLocation, whole) and the reading positions (per book, so two devices reading
    /// different books never overwrite each other); both carry the stamp of the user's change,
    /// and the newer copy stands. What the share leaves (824 keys, 768 KB) is the whole keys'.
    public static let rules: [SyncRule] = [
        .wholeKey(MapDefaultsKey.savedLocation, enabledBy: syncLocationsKey, newestWins: true),
        .perEntry(ReadingPositions.storeKey, cloudPrefix: readingPositionPrefix, enabledBy: syncReadingPositionKey, newestWins: true,
                  share: readingPlaceShare, unstamped: readingPlaceWithoutStamp),
    ]

    /// A reading place as 0.3.0 before stamps wrote it: a bare offset. Where the store holds
    /// one, a place is sent as one, so that machine follows this one's pages.
    public static let readingPlaceWithoutStamp = UnstampedForm(
        holds: { ReadingPlace(propertyList: $0)?.stamp == .zero },
        withoutStamp: { value in ReadingPlace(propertyList: value).map { .integer(Int64($0.offset)) } ?? value },
        stamped: { value, stamp in ReadingPlace(propertyList: value).map { ReadingPlace(offset: $0.offset, stamp: stamp).propertyList } })

    /// The sync folder: WONDERLAND_SYNC_FOLDER, else the setting, else
    /// `$XDG_DATA_HOME/wonderland/cloud`. `~` is expanded; a relative path is taken from HOME.
    public static func folder(store: PreferenceStore, environment: [String: String], dataFolder: URL) -> URL {
        let fromEnvironment = environment[folderEnvironmentKey]?.trimmingSpaces() ?? ""
        let fromSetting = store.object(forKey: syncFolderKey).flatMap(DefaultsConversion.string)?.trimmingSpaces() ?? ""
        let chosen = fromEnvironment.isEmpty ? fromSetting : fromEnvironment
        guard !chosen.isEmpty else { return dataFolder.appendingPathComponent("cloud") }
        let folders = UserFolders(environment: environment)
        var path = folders.expandingTilde(chosen, otherUsers: false)
        if !path.hasPrefix("/") { path = folders.home + "/" + path }
        return URL(fileURLWithPath: path).standardizedFileURL
    }

    /// What is wrong with `text` as the Sync Folder setting, or nil. Any path is a folder's
    /// (relative ones are taken from HOME); what cannot be one is refused: a server address
    /// (its place is Sync Server), a control character, more than a path may hold.
    @Sendable public static func folderProblem(_ text: String) -> String? {
        let path = text.trimmingSpaces()
        if PostgresSyncAddress.looksLikeAddress(path) { return "a server address goes in Sync Server, not Sync Folder" }
        if path.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { return "a folder's path has no control characters" }
        if path.utf8.count >= Int(PATH_MAX) { return "longer than a path may be (\(PATH_MAX) bytes)" }
        return nil
    }

    /// Where the store syncs. The environment beats the settings (it is this run's choice);
    /// at each level a server address beats a folder. `removedPassword` is the password the
    /// app took out of the Sync Server setting this run, used while the setting still names
    /// the same address.
    public static func place(store: PreferenceStore, environment: [String: String], dataFolder: URL,
                             removedPassword: RemovedPassword? = nil) -> CloudSyncPlace {
        let serverFromEnvironment = trimmed(environment[serverEnvironmentKey])
        if !serverFromEnvironment.isEmpty {
            return server(serverFromEnvironment, source: serverEnvironmentKey, environment: environment, removedPassword: nil)
        }
        let folder = folder(store: store, environment: environment, dataFolder: dataFolder)
        if !trimmed(environment[folderEnvironmentKey]).isEmpty {
            return CloudSyncPlace(kind: .folder(folder), source: folderEnvironmentKey)
        }
        let serverFromSetting = trimmed(store.object(forKey: syncServerKey).flatMap(DefaultsConversion.string))
        if !serverFromSetting.isEmpty {
            return server(serverFromSetting, source: "the Sync Server setting", environment: environment, removedPassword: removedPassword)
        }
        let fromSetting = folder != dataFolder.appendingPathComponent("cloud")
        return CloudSyncPlace(kind: .folder(folder), source: fromSetting ? "the Sync Folder setting" : "the default")
    }

    /// A password the app removed from the Sync Server setting, kept in memory for this run.
    public struct RemovedPassword: Equatable {
        /// The setting's text after the password was taken out.
        public var address: String
        public var password: String
        public init(address: String, password: String) {
            self.address = address
            self.password = password
        }
    }

    private static func server(_ text: String, source: String, environment: [String: String], removedPassword: RemovedPassword?) -> CloudSyncPlace {
        do {
            var address = try PostgresSyncAddress(parsing: text)
            if address.inlinePassword == nil, let removedPassword, removedPassword.address == text {
                address.inlinePassword = removedPassword.password
            }
            return CloudSyncPlace(kind: .server(address, PostgresPassword.lookup(for: address, environment: environment)), source: source)
        } catch {
            // The parser does not quote the text back; redacted all the same, should it start to.
            let password = URLPassword.split(from: text)?.password
            let reason = CloudServerCredentials.redact("\(source) is not a usable server address: \(error)", passwords: password.map { [$0] } ?? [])
            return CloudSyncPlace(kind: .unusableServer(reason), source: source)
        }
    }

    private static func trimmed(_ text: String?) -> String { text?.trimmingSpaces() ?? "" }

    /// Whether any sync toggle is on, Handoff's included.
    public static func isAnyToggleOn(_ store: PreferenceStore) -> Bool {
        rules.contains { store.object(forKey: $0.enabledBy).flatMap(DefaultsConversion.bool) ?? false } || HandoffSettings.isOn(store)
    }
}
