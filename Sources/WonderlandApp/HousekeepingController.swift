import Cloud
import FileSafety
import FoundationEssentials
import Platform
import Screens

/// Lets go, once a launch, of what only grows: files moved aside past
/// `MovedAside.KeepRule.standard` and the sync copies of backends unused for
/// `LocalReplicaFolder.unusedFor`. After the first frame and on a thread of its own, so a
/// launch never waits for a folder listing; what it removes, `state clean` would have.
public final class HousekeepingController: ApplicationLifecycleObserver {
    private let environment: [String: String]
    private let currentBackend: () -> String?
    private var started = false

    /// `currentBackend` is asked on the main thread after the first frame; nil keeps every
    /// sync copy.
    public init(environment: [String: String], currentBackend: @escaping () -> String?) {
        self.environment = environment
        self.currentBackend = currentBackend
    }

    public func applicationDidPresentFirstFrame(_ application: Application) {
        guard !started else { return }
        started = true
        let environment = environment
        let backend = currentBackend()
        _ = startThread(name: "wonderland-housekeeping") {
            Housekeeping.run(places: SavedDataPlaces(environment: environment), currentBackend: backend)
        }
    }
}

public enum Housekeeping {
    /// Removes what the keep rules let go; returns the paths removed.
    @discardableResult
    public static func run(places: SavedDataPlaces, currentBackend: String?, now: Date = Date()) -> [String] {
        var removed = places.movedAsideFolders.flatMap { MovedAside.prune(inFolder: $0, now: now).map(\.path) }
        if let currentBackend {
            removed += places.replicas.removeUnusedCopies(currentBackend: currentBackend, now: now).map(\.path)
        }
        return removed
    }
}
