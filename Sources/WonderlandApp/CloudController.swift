import Cloud
import Defaults
import FoundationEssentials
import Platform
import PropertyList
import Screens
import Terminal
#if canImport(Glibc)
import Glibc
#endif

/// Connects the synced store to the app's lifecycle. The mirror opens the store when a Sync
/// toggle is on and closes it when all are off, live; this controller gives it the folder or
/// the server (and opens it again when the Sync Folder or Sync Server setting changes), keeps
/// a password out of the settings file (one found there is removed, used for this run, and the
/// user told), delivers the store's news on wake-ups and
/// idle moments (the defaults follow, and the screens through their defaults observers), stops the
/// worker at Ctrl-Z and quit (sending what is queued) and starts it again at `fg`, keeps the
/// tab bar's status line, and tells the user once of a damaged local copy (an alert) or a
/// refused write (a message in the log: the value stays here, and nothing the user does waits).
///
/// Nothing here waits for the folder: the store reads and writes its local copy, and only its
/// worker thread touches the backend.
public final class CloudController: ApplicationLifecycleObserver {
    /// Made on first use, so its store opener can refer to this controller.
    public private(set) lazy var mirror = PreferenceMirror(defaults: services.store, rules: CloudSettings.rules,
                                                           startsWorker: factory.startsWorker) { [unowned self] in self.openStore() }
    /// The Sync Folder (the setting, or WONDERLAND_SYNC_FOLDER, or the default), whether or
    /// not a server is used instead.
    public private(set) var folder: URL
    /// Where the store syncs now.
    public private(set) var place: CloudSyncPlace
    /// A password taken out of the Sync Server setting this run.
    private var removedPassword: CloudSettings.RemovedPassword?
    private let services: AppServices
    private let factory: CloudStoreFactory
    private let onNews: @Sendable () -> Void
    private var settingsObservation: PreferenceObservation?
    private var pendingNotices: [String] = []
    private var toldNotices = Set<String>()
    /// Where this process tells `wonderland cloud status` its sync state; nil for a launch
    /// with no state folder of its own (a test).
    private let runningFiles: RunningSyncFiles?
    /// What was last written there, so the file is written only when the state changes.
    private var writtenState: RunningSyncState?

    public init(services: AppServices, factory: CloudStoreFactory, onNews: @escaping @Sendable () -> Void = { Wakeup.post() }) {
        self.services = services
        self.factory = factory
        self.onNews = onNews
        runningFiles = RunningSyncFiles.standard(environment: services.launch.environment)
        folder = CloudSettings.folder(store: services.store, environment: services.launch.environment, dataFolder: services.launch.dataFolder)
        place = CloudSettings.place(store: services.store, environment: services.launch.environment, dataFolder: services.launch.dataFolder)
    }

    private func openStore() -> UbiquitousKeyValueStore {
        let (store, warning) = factory.open(place, onNews: onNews)
        if let warning { pendingNotices.append(warning) }
        switch place.kind {
        case .server(_, let lookup):
            if let warning = lookup.warning { pendingNotices.append(place.redacting(warning)) }
        case .unusableServer(let reason):
            pendingNotices.append("Syncing is paused: \(reason). This machine's copy is kept; it syncs once the address is put right.")
        case .folder:
            break
        }
        return store
    }

    /// The app's factory: the sync folder's backend and this machine's copy in the data folder.
    public static func standard(services: AppServices) -> CloudController {
        CloudController(services: services, factory: CloudStoreFactory(replicas: .standard(dataFolder: services.launch.dataFolder)))
    }

    /// Follows the folder and server settings and opens the store if a toggle is on.
    public func start() {
        guard settingsObservation == nil else { return }
        settingsObservation = services.store.addChangeObserver { [weak self] keys in
            guard let self, keys.contains(CloudSettings.syncFolderKey) || keys.contains(CloudSettings.syncServerKey) else { return }
            if keys.contains(CloudSettings.syncServerKey) { self.removePasswordFromSettings() }
            self.placeMayHaveChanged()
        }
        removePasswordFromSettings()
        placeMayHaveChanged()
        mirror.activate()
        refreshStatus()
    }

    private func placeMayHaveChanged() {
        let environment = services.launch.environment
        folder = CloudSettings.folder(store: services.store, environment: environment, dataFolder: services.launch.dataFolder)
        let now = CloudSettings.place(store: services.store, environment: environment, dataFolder: services.launch.dataFolder,
                                      removedPassword: removedPassword)
        guard now != place else { return }
        place = now
        if mirror.store != nil { mirror.reopen() }
        refreshStatus()
    }

    /// A password in the Sync Server setting (written by another tool: the settings screens
    /// refuse one) is taken out of the settings file at once, kept in memory for this run,
    /// and the user told. Only the saved value is rewritten: a `-WLSyncServer` argument lives
    /// for this run only and is not written anywhere.
    private func removePasswordFromSettings() {
        let key = CloudSettings.syncServerKey
        let saved: PropertyListValue?
        if let defaults = services.store as? DefaultsStore { saved = defaults.persistentDomain[key] } else { saved = services.store.object(forKey: key) }
        guard let text = saved.flatMap(DefaultsConversion.string), let split = URLPassword.split(from: text) else { return }
        removedPassword = CloudSettings.RemovedPassword(address: split.address.trimmingSpaces(), password: split.password)
        services.store.set(.string(split.address), forKey: key)
        pendingNotices.append("The Sync Server setting held a password. It was removed from the settings file; this run still uses it. "
                              + CloudServerCredentials.advice)
    }

    /// Delivers the store's news; true when the status line changed.
    @discardableResult
    public func processChanges() -> Bool {
        mirror.processExternalChanges()
        return refreshStatus()
    }

    @discardableResult
    private func refreshStatus() -> Bool {
        var server: String?
        if case .server = place.kind { server = mirror.store?.backendName }
        let text = CloudStatusBoard.describe(mirror.store?.status, server: server, shares: mirror.shareSummaries()).map(place.redacting)
        tellRunningState()
        guard text != services.cloudStatus.text else { return false }
        services.cloudStatus.text = text
        return true
    }

    /// Writes this process's sync state for `wonderland cloud status` when it changed, and
    /// removes the file while nothing syncs.
    private func tellRunningState() {
        guard let runningFiles else { return }
        var state: RunningSyncState?
        if let status = mirror.store?.status {
            let address: String
            switch place.kind {
            case .folder(let folder): address = folder.path
            case .server(let server, _): address = server.description
            case .unusableServer(let reason): address = "unusable: \(reason)"
            }
            state = RunningSyncState(pid: getpid(), address: place.redacting(address), isServer: place.isServer,
                                     reached: status.isReachable, lastSync: status.lastSync,
                                     problem: status.isReachable == false ? place.redacting(status.problem ?? "unknown reason") : nil)
        }
        guard state != writtenState, state?.isOnlyALaterSync(than: writtenState) != true else { return }
        if let state {
            // A state folder that cannot be written leaves `cloud status` without it; nothing more.
            guard (try? runningFiles.write(state)) != nil else { return }
        } else {
            runningFiles.remove(pid: getpid())
        }
        writtenState = state
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
        if writtenState != nil { runningFiles?.remove(pid: getpid()) }
        writtenState = nil
    }

    private func update(_ application: Application) {
        if processChanges() { application.setNeedsDisplay() }
        tellNotices(application)
    }

    /// Each notice once per launch: a quiet one among the messages, the others in one alert
    /// that a key it does not use closes and passes on, so a key typed as it appears is kept.
    private func tellNotices(_ application: Application) {
        var quiet = false
        for notice in mirror.takeNotices() {
            guard notice.isQuiet else {
                pendingNotices.append(notice.description)
                continue
            }
            let text = place.redacting(notice.description)
            if toldNotices.insert(text).inserted {
                services.cloudStatus.addNote("Sync: " + text)
                quiet = true
            }
        }
        if quiet { application.setNeedsDisplay() }
        guard !pendingNotices.isEmpty, application.state == .active else { return }
        let fresh = pendingNotices.map(place.redacting).filter { toldNotices.insert($0).inserted }
        pendingNotices = []
        guard !fresh.isEmpty else { return }
        let alert = Alert(title: "Sync", message: fresh.joined(separator: "\n"))
        alert.passesOtherKeysOn = true
        application.presentModal(alert)
    }
}
