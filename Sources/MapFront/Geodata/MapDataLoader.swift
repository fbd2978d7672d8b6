import Foundation
import Terminal

/// Reads and indexes map data on one background queue, in the order asked, so the first
/// frame never waits for a file. Results wait in a lock-protected box until the main thread
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
    private let lock = NSLock()
    private var finished: [Outcome] = []

    init(catalog: MapDataCatalog, notify: @escaping @Sendable () -> Void) {
        self.catalog = catalog
        self.notify = notify
    }

    func start(_ job: Job) {
        let catalog = self.catalog
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

    /// Blocks until every job started so far has finished (benchmarks and tests only; the
    /// app never waits).
    func waitUntilIdle() { queue.sync {} }
}
