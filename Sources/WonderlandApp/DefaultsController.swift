import Defaults
import Screens
import Settings
import Terminal

/// Connects the defaults store to the app's lifecycle: changes made by other processes are
/// picked up when the store's inotify descriptor (in the loop's poll) says the folder changed,
/// at its next look where inotify cannot see every write, and on return from Ctrl-Z (observers
/// then update what is on screen); coalesced writes go out once changes settle (the loop wakes
/// for that deadline), and always at Ctrl-Z and on exit.
public final class DefaultsController: ApplicationLifecycleObserver {
    public let store: DefaultsStore
    public let bundle: SettingsBundle
    /// Said once, in an alert after the first frame: a defaults file moved aside, a failed save.
    private var pendingWarnings: [String] = []
    /// Printed by the runner after the terminal is restored.
    public private(set) var exitWarnings: [String] = []

    /// The bundle's defaults are registered by `AppServices`, which every run builds from these.
    public init(store: DefaultsStore, bundle: SettingsBundle) {
        self.store = store
        self.bundle = bundle
    }

    public func applicationDidFinishLaunching(_ application: Application) {
        pendingWarnings += store.takeStartupWarnings()
        pendingWarnings += bundle.errors.prefix(3).map { "Settings.bundle: \($0)" }
    }

    public func applicationDidPresentFirstFrame(_ application: Application) { tellPendingWarnings(application) }

    public func applicationDidBecomeIdle(_ application: Application) {
        store.processExternalChanges()
        store.flushIfDue()
        pendingWarnings += store.takeStartupWarnings()
        tellPendingWarnings(application)
    }

    public func applicationDidWake(_ application: Application) {
        store.processExternalChanges()
        tellPendingWarnings(application)
    }

    public func nextIdleDeadline(_ application: Application) -> Double? { store.nextDeadline }

    public func wakeDescriptors(_ application: Application) -> [Int32] {
        store.wakeupFileDescriptor.map { [$0] } ?? []
    }

    public func applicationWillEnterForeground(_ application: Application) {
        // Another process (`wonderland settings`, `wonderland defaults write`) may have
        // changed values while we were stopped: UIKit's "refresh on return to foreground".
        store.processExternalChanges()
    }

    public func applicationDidEnterBackground(_ application: Application) { flush() }

    public func applicationWillTerminate(_ application: Application, reason: TerminationReason) {
        flush()
        exitWarnings += store.takeStartupWarnings()
    }

    private func flush() {
        do { try store.flush() } catch let failure as CollectionsSaveFailure {
            exitWarnings.append("could not save notes, bookmarks or reading places (what changed in this run is lost): \(failure)")
        } catch {
            exitWarnings.append("could not save settings: \(error)")
        }
    }

    private func tellPendingWarnings(_ application: Application) {
        guard !pendingWarnings.isEmpty, application.state == .active else { return }
        let message = pendingWarnings.joined(separator: "\n")
        pendingWarnings = []
        let alert = Alert(title: "Settings", message: message)
        alert.passesOtherKeysOn = true  // it came unasked: the key typed as it appears is the user's
        application.presentModal(alert)
    }
}
