import KeyedArchive
import Restoration
import Screens
import Settings
import Terminal

/// The settings screens shown over the app (`,`): the bundle's panes in a navigation stack,
/// presented as a modal. Esc on the first pane, or `,` again, closes it. It stays open across
/// a relaunch, on the same pane and row.
final class SettingsSheet: Screen {
    static let restorationClass = "SettingsSheet"
    static let restorationID = "SettingsSheet"
    let navigation: NavigationStack

    init(services: AppServices) {
        // As in the settings program: a Sync Server address with a password is refused, and
        // the user told why, before it can reach the defaults file.
        let guarded = CloudServerSettingGuard(store: services.store)
        navigation = SettingsScreen.makeRoot(bundle: services.bundle, store: guarded, formats: .wonderland,
                                             rowKeys: SyncFolderCreation.rowKeys(launch: services.launch))
        super.init(title: "Settings", restorationIdentifier: Self.restorationID)
        restorationClassName = Self.restorationClass
        adopt(navigation)
        guarded.onRefusal = { [weak navigation] message in navigation?.present(Alert(title: "Sync Server", message: message)) }
    }

    override var children: [Screen] { [navigation] }
    override var visibleChildren: [Screen] { [navigation] }
    override var preservesWhilePresented: Bool { true }

    override var keyBindings: [KeyBinding] {
        [KeyBinding([.escape, .character(",")], label: "Esc", help: "Close settings") { [unowned self] in
            self.application?.dismissModal(self)
        }]
    }

    override func draw(in canvas: Canvas) {
        canvas.fill()
        navigation.render(in: canvas)
    }

    /// The sheet, and the child panes pushed inside it, rebuilt at launch.
    static func registerRestorationClasses(in registry: inout RestorationClassRegistry, services: AppServices) {
        registry.register(restorationClass) { _, _ in SettingsSheet(services: services) }
        SettingsScreen.registerRestorationClass(in: &registry, bundle: services.bundle, store: services.store, formats: .wonderland,
                                                rowKeys: SyncFolderCreation.rowKeys(launch: services.launch))
    }
}
