import Defaults
import Terminal

/// The map's one location source: it chooses (see `LocationSourceFactory`), says in its status
/// what was wrong with any input it passed over, and chooses again when the Manual Location or
/// gpsd Address setting changes while the app runs. The map screen creates it once, calls
/// `start()` when it appears, `refresh()` in `handleWake()`, and `stop()` at quit.
public final class CurrentLocation: LocationSource {
    public private(set) var choice: LocationChoice
    public private(set) var source: LocationSource
    private let commandLine: String?
    private let store: PreferenceStore
    private let environment: [String: String]
    private let gpsd: GPSDConfiguration
    private var observation: PreferenceObservation?
    private var running = false
    private var swapped = false

    public init(commandLine: String?, store: PreferenceStore, environment: [String: String],
                gpsd: GPSDConfiguration = GPSDConfiguration()) {
        self.commandLine = commandLine
        self.store = store
        self.environment = environment
        self.gpsd = gpsd
        choice = LocationSourceFactory.choose(commandLine: commandLine, store: store, environment: environment)
        source = LocationSourceFactory.makeSource(for: choice.origin, gpsd: gpsd)
        observation = store.addChangeObserver { [weak self] keys in
            guard let self, !keys.isDisjoint(with: LocationSourceFactory.settingKeys) else { return }
            self.chooseAgain()
        }
    }

    /// What was wrong with the inputs passed over, for an alert or a second line.
    public var problems: [String] { choice.problems }

    public var currentFix: LocationFix? { source.currentFix }

    /// The user's own mistake comes first: a status line is cut at the terminal's edge, and
    /// "why is my --location ignored" matters more than what gpsd is doing.
    public var statusText: String {
        (choice.problems + [source.statusText]).joined(separator: " · ")
    }

    public func start() {
        running = true
        source.start()
    }

    public func stop() {
        running = false
        source.stop()
    }

    public func refresh() -> Bool {
        let changed = source.refresh()
        defer { swapped = false }
        return changed || swapped
    }

    private func chooseAgain() {
        let fresh = LocationSourceFactory.choose(commandLine: commandLine, store: store, environment: environment)
        guard fresh != choice else { return }
        let sameSource = fresh.origin == choice.origin
        choice = fresh
        swapped = true
        if !sameSource {
            source.stop()
            source = LocationSourceFactory.makeSource(for: fresh.origin, gpsd: gpsd)
            if running { source.start() }
        }
        gpsd.notify()
    }

    deinit { source.stop() }
}
