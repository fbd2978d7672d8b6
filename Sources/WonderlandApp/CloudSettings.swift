import Cloud
import Defaults
import Foundation

/// What the app syncs and where, from the Sync group of the settings. Only the pin and the
/// reading positions sync; map type and tracking mode stay on each device, as the seed argues.
public enum CloudSettings {
    public static let syncLocationsKey = "HPSyncLocations"
    public static let syncReadingPositionKey = "WLSyncReadingPosition"
    public static let syncFolderKey = "WLSyncFolder"
    /// Overrides the Sync Folder setting (tests, and two devices on one machine).
    public static let folderEnvironmentKey = "WONDERLAND_SYNC_FOLDER"
    /// Store keys of the reading positions: one per book, `WLReadingPosition.<content hash>`.
    public static let readingPositionPrefix = "WLReadingPosition."

    /// The pin (HPLocation, whole) and the reading positions (per book, so two devices reading
    /// different books never overwrite each other).
    public static let rules: [SyncRule] = [
        .wholeKey("HPLocation", enabledBy: syncLocationsKey),
        .perEntry("WLReadingPositions", cloudPrefix: readingPositionPrefix, enabledBy: syncReadingPositionKey),
    ]

    /// The sync folder: WONDERLAND_SYNC_FOLDER, else the setting, else
    /// `$XDG_DATA_HOME/wonderland/cloud`. `~` is expanded; a relative path is taken from HOME.
    public static func folder(store: PreferenceStore, environment: [String: String], dataFolder: URL) -> URL {
        let fromEnvironment = environment[folderEnvironmentKey]?.trimmingCharacters(in: .whitespaces) ?? ""
        let fromSetting = store.object(forKey: syncFolderKey).flatMap(DefaultsConversion.string)?.trimmingCharacters(in: .whitespaces) ?? ""
        let chosen = fromEnvironment.isEmpty ? fromSetting : fromEnvironment
        guard !chosen.isEmpty else { return dataFolder.appendingPathComponent("cloud") }
        let home = environment["HOME"] ?? NSHomeDirectory()
        var path = chosen
        if path == "~" { path = home } else if path.hasPrefix("~/") { path = home + path.dropFirst(1) }
        if !path.hasPrefix("/") { path = home + "/" + path }
        return URL(fileURLWithPath: path).standardizedFileURL
    }

    /// Whether any sync toggle is on.
    public static func isAnyToggleOn(_ store: PreferenceStore) -> Bool {
        rules.contains { store.object(forKey: $0.enabledBy).flatMap(DefaultsConversion.bool) ?? false }
    }
}
