import Restoration
import Screens
import Terminal

/// Builds the screen tree every launch starts from: the tab bar and its three tabs, each with
/// the restoration identifier the restoration engine will save it under.
public enum RootScreen {
    public static let tabBarIdentifier = "RootTabBar"

    public static func make(services: AppServices = .inMemory()) -> TabScreen {
        WonderlandTabs(tabs: [MapTab.make(services: services), CharactersTab.make(services: services), BookTab.make(services: services)], services: services)
    }

    /// The engine with every restoration class the app's screens use.
    public static func restorationEngine(services: AppServices = .inMemory()) -> RestorationEngine {
        var registry = RestorationClassRegistry()
        MapTab.registerRestorationClasses(in: &registry, services: services)
        CharactersTab.registerRestorationClasses(in: &registry, services: services)
        BookTab.registerRestorationClasses(in: &registry, services: services)
        SettingsSheet.registerRestorationClasses(in: &registry, bundle: services.bundle, store: services.store)
        return RestorationEngine(registry: registry)
    }
}

/// The app's tab bar, with the one key that belongs to the whole app rather than a tab:
/// `,` opens the settings over it.
final class WonderlandTabs: TabScreen {
    private let services: AppServices

    init(tabs: [Screen], services: AppServices) {
        self.services = services
        super.init(title: "Wonderland", tabs: tabs, restorationIdentifier: RootScreen.tabBarIdentifier)
    }

    override var keyBindings: [KeyBinding] {
        super.keyBindings + [KeyBinding(.character(","), help: "Settings") { [unowned self] in
            self.present(SettingsSheet(bundle: self.services.bundle, store: self.services.store))
        }]
    }
}
