import Terminal

/// A key a row of a settings pane offers beside what its specifier does, for what a schema
/// cannot say (creating the sync folder, on the Sync Folder row). Given by the app, per
/// defaults key; shown in the hint bar and the help while the row is selected.
public struct SettingsRowKey {
    /// The key that runs `perform`.
    public var key: Key
    /// What the key does, in the hint bar and the help.
    public var help: String
    /// Runs with the pane the row is on (to present a question or a message over it).
    public var perform: (SettingsScreen) -> Void

    /// A key with its help and its action.
    public init(_ key: Key, help: String, perform: @escaping (SettingsScreen) -> Void) {
        self.key = key
        self.help = help
        self.perform = perform
    }
}
