import Dispatch
import FoundationEssentials
import Platform
import Terminal

/// Reads and indexes map data in the background, the scales on one queue in the order asked and
/// the place names on one of their own (so a wait for them never waits for a scale), so the
/// first frame never waits for a file. Results wait in a lock-protected box until the main thread
/// takes them (after `Event.wake`); `notify` (by default `Wakeup.post()`) tells the run loop.
final class MapDataLoader: @unchecked Sendable {
    enum Job: Hashable, Sendable {
        case level(MapResolution)
        case places
    }

    enum Outcome: Sendable {
        case level(MapResolution, Result<MapLevel, GeodataError>)
        case places(Result<[Place], GeodataError>)
    }

    let catalog: MapDataCatalog
    private let notify: @Sendable () -> Void
    private let queue = DispatchQueue(label: "wonderland.map-data", qos: .userInitiated)
    private let placesQueue = DispatchQueue(label: "wonderland.map-places", qos: .userInitiated)
    private let lock = Lock()
    private var finished: [Outcome] = []

    init(catalog: MapDataCatalog, notify: @escaping @Sendable () -> Void) {
        self.catalog = catalog
        self.notify = notify
    }

    func start(_ job: Job) {
        let catalog = self.catalog
        let queue = job == .places ? placesQueue : queue
        queue.async { [self] in
            let outcome: Outcome
            switch job {
            case .level(let resolution):
                outcome = .level(resolution, Result { () throws(GeodataError) in try MapLevel.load(resolution, from: catalog) })
            case .places:
                outcome = .places(Result { () throws(GeodataError) in
                    try PlacesReader.read(shapefile: catalog.placesShapefile, table: catalog.placesTable)
                })
            }
            lock.withLock { finished.append(outcome) }
            notify()
        }
    }

    func takeFinished() -> [Outcome] {
        lock.withLock {
            defer { finished = [] }
            return finished
        }
    }

    /// The place names, waiting for them if their load has started and not finished; the
    /// scales that finished meanwhile stay for `takeFinished()`.
    func waitForPlaces() -> Outcome? {
        placesQueue.sync {}
        return lock.withLock {
            guard let index = finished.firstIndex(where: { if case .places = $0 { true } else { false } }) else { return nil }
            return finished.remove(at: index)
        }
    }

    /// Blocks until every job started so far has finished (benchmarks and tests only; the
    /// app never waits).
    func waitUntilIdle() {
        queue.sync {}
        placesQueue.sync {}
    }
}
