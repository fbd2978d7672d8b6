import Restoration
import Screens

/// Builds the screen tree every launch starts from: the tab bar and its three tabs, each with
/// the restoration identifier the restoration engine will save it under.
public enum RootScreen {
    public static let tabBarIdentifier = "RootTabBar"

    public static func make() -> TabScreen {
        TabScreen(title: "Wonderland", tabs: [MapTab.make(), CharactersTab.make(), BookTab.make()], restorationIdentifier: tabBarIdentifier)
    }

    /// The engine with every restoration class the app's screens use.
    public static func restorationEngine() -> RestorationEngine {
        var registry = RestorationClassRegistry()
        CharactersTab.registerRestorationClasses(in: &registry)
        return RestorationEngine(registry: registry)
    }
}
