import Defaults
import Restoration
import Screens
import Settings

/// The app's screen tree and how it is restored: three tabs — a draft that pushes a review,
/// the lamp drawn from the settings, and the settings themselves.
public enum StateApp {
    /// Longer lines are cut when read back from a saved state: nobody types this much on one line.
    static let maximumLineLength = 4_096

    /// The tree as the app starts it. Every screen that should come back has an identifier;
    /// the restoration engine finds them by these, path by path ("Tabs/DraftStack/Draft").
    public static func makeRoot(store: PreferenceStore) -> TabScreen {
        let draft = NavigationStack(root: DraftScreen(), restorationIdentifier: "DraftStack")
        let settings = SettingsScreen.makeRoot(bundle: LampSettings.bundle, store: store)
        return TabScreen(title: "StateApp", tabs: [draft, LampScreen(store: store), settings], restorationIdentifier: "Tabs")
    }

    /// The engine that saves and restores that tree, with the restoration classes of the
    /// screens pushed in code (the review, a settings child pane).
    public static func restorationEngine(store: PreferenceStore) -> RestorationEngine {
        var registry = RestorationClassRegistry()
        ReviewScreen.register(in: &registry)
        SettingsScreen.registerRestorationClass(in: &registry, bundle: LampSettings.bundle, store: store)
        return RestorationEngine(registry: registry, duplicatePolicy: .skipAndLog)
    }
}
