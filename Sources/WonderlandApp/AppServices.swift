import Defaults

/// What the screens share beyond the screen tree: the defaults store and the settings schema.
public struct AppServices {
    public let store: PreferenceStore
    public let bundle: SettingsBundle

    public init(store: PreferenceStore, bundle: SettingsBundle) {
        self.store = store
        self.bundle = bundle
        bundle.registerDefaults(in: store)
    }

    /// An in-memory store with the compiled-in schema: tests, and runs that must not write.
    public static func inMemory() -> AppServices {
        AppServices(store: InMemoryPreferenceStore(), bundle: .embedded)
    }
}
