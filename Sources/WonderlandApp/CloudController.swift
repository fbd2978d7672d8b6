import Cloud
import Defaults
import Foundation
import Screens
import Terminal

/// Connects the synced store to the app's lifecycle. The mirror opens the store when a Sync
/// toggle is on and closes it when all are off, live; this controller gives it the folder (and
/// opens it again when the folder setting changes), delivers the store's news on wake-ups and
/// idle ticks (the defaults follow, and the screens through their defaults observers), stops the
/// worker at Ctrl-Z and quit (sending what is queued) and starts it again at `fg`, keeps the
/// tab bar's status line, and tells the user once of a damaged local copy or a refused write.
///
/// Nothing here waits for the folder: the store reads and writes its local copy, and only its
/// worker thread touches the backend.
public final class CloudController: ApplicationLifecycleObserver {
    /// Made on first use, so its store opener can refer to this controller.
    public private(set) lazy var mirror = PreferenceMirror(defaults: services.store, rules: CloudSettings.rules,
                                                           startsWorker: factory.startsWorker) { [unowned self] in self.openStore() }
    public private(set) var folder: URL
    private let services: AppServices
    private let factory: CloudStoreFactory
    private let onNews: @Sendable () -> Void
    private var settingsObservation: PreferenceObservation?
    private var pendingNotices: [String] = []
    private var toldNotices = Set<String>()

    public init(services: AppServices, factory: CloudStoreFactory, onNews: @escaping @Sendable () -> Void = { Wakeup.post() }) {
        self.services = services
        self.factory = factory
        self.onNews = onNews
        folder = CloudSettings.folder(store: services.store, environment: services.launch.environment, dataFolder: services.launch.dataFolder)
    }

    private func openStore() -> UbiquitousKeyValueStore {
        let (store, warning) = factory.open(folder: folder, onNews: onNews)
        if let warning { pendingNotices.append(warning) }
        return store
    }

    /// The app's factory: the sync folder's backend and this machine's copy in the data folder.
    public static func standard(services: AppServices) -> CloudController {
        CloudController(services: services, factory: CloudStoreFactory(replicas: .standard(dataFolder: services.launch.dataFolder)))
    }

    /// Follows the folder setting and opens the store if a toggle is on.
    public func start() {
        guard settingsObservation == nil else { return }
        settingsObservation = services.store.addChangeObserver { [weak self] keys in
            guard let self, keys.contains(CloudSettings.syncFolderKey) else { return }
            self.folderMayHaveChanged()
        }
        mirror.activate()
        refreshStatus()
    }

    private func folderMayHaveChanged() {
        let now = CloudSettings.folder(store: services.store, environment: services.launch.environment, dataFolder: services.launch.dataFolder)
        guard now != folder else { return }
        folder = now
        if mirror.store != nil { mirror.reopen() }
        refreshStatus()
    }

    /// Delivers the store's news; true when the status line changed.
    @discardableResult
    public func processChanges() -> Bool {
        mirror.processExternalChanges()
        return refreshStatus()
    }

    @discardableResult
    private func refreshStatus() -> Bool {
        let text = CloudStatusBoard.describe(mirror.store?.status)
        guard text != services.cloudStatus.text else { return false }
        services.cloudStatus.text = text
        return true
    }

    // MARK: lifecycle

    public func applicationDidFinishLaunching(_ application: Application) { start() }

    public func applicationDidPresentFirstFrame(_ application: Application) { tellNotices(application) }

    public func applicationDidWake(_ application: Application) { update(application) }

    public func applicationDidBecomeIdle(_ application: Application) { update(application) }

    public func applicationDidEnterBackground(_ application: Application) {
        mirror.suspend()
    }

    public func applicationWillEnterForeground(_ application: Application) {
        mirror.resume()
        update(application)
    }

    public func applicationWillTerminate(_ application: Application, reason: TerminationReason) {
        mirror.deactivate()
        settingsObservation = nil
    }

    private func update(_ application: Application) {
        if processChanges() { application.setNeedsDisplay() }
        tellNotices(application)
    }

    /// Each notice once per launch, in one alert.
    private func tellNotices(_ application: Application) {
        pendingNotices += mirror.takeNotices().map(\.description)
        guard !pendingNotices.isEmpty, application.state == .active else { return }
        let fresh = pendingNotices.filter { toldNotices.insert($0).inserted }
        pendingNotices = []
        guard !fresh.isEmpty else { return }
        application.presentModal(Alert(title: "Sync", message: fresh.joined(separator: "\n")))
    }
}
