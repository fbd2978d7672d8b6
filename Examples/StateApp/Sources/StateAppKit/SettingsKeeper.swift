import Defaults
import Screens
import Terminal

/// Keeps the settings file and the screens in step: changes another process wrote are read
/// when the app is idle or back from Ctrl-Z (the screens' change observers redraw them), and
/// this process's changes are written once they settle, and always at Ctrl-Z and on exit.
public final class SettingsKeeper: ApplicationLifecycleObserver {
    public let store: DefaultsStore
    /// The last write that failed, for the caller to print once the terminal is back.
    public private(set) var saveError: Error?

    public init(store: DefaultsStore) { self.store = store }

    public func applicationDidBecomeIdle(_ application: Application) {
        store.processExternalChanges()
        store.flushIfDue()
    }

    public func applicationWillEnterForeground(_ application: Application) { store.processExternalChanges() }
    public func applicationDidEnterBackground(_ application: Application) { flush() }
    public func applicationWillTerminate(_ application: Application, reason: TerminationReason) { flush() }

    private func flush() {
        do { try store.flush() } catch { saveError = error }
    }
}
