import FoundationEssentials
import Platform
import Terminal

/// Reads and indexes map data in the background, each job (a scale, the place names) on a
/// thread of its own, so the first frame never waits for a file it does not show and a wait for
/// one job never waits for another. Results wait in a lock-protected box until the main thread
/// takes them (after `Event.wake`); `notify` (by default `Wakeup.post()`) tells the run loop.
/// Threads rather than a dispatch queue: a load starts while the app is still launching, and
/// starting libdispatch's pool would cost that launch more than the thread does.
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
    private let condition = Condition()
    private var running: Set<Job> = []
    private var finished: [Outcome] = []

    init(catalog: MapDataCatalog, notify: @escaping @Sendable () -> Void) {
        self.catalog = catalog
        self.notify = notify
    }

    func start(_ job: Job) {
        let catalog = self.catalog
        condition.withLock { _ = running.insert(job) }
        let work: @Sendable () -> Void = { [self] in
            let outcome = Self.run(job, catalog: catalog)
            condition.withLock { finished.append(outcome) }
            notify()
            // Only then is the job over: a wait that returns has seen its notice sent too.
            condition.withLock {
                running.remove(job)
                condition.broadcast()
            }
        }
        // Without a thread the job runs here: slower, but the map still comes.
        if !startThread(name: "wonderland-map", work) { work() }
    }

    private static func run(_ job: Job, catalog: MapDataCatalog) -> Outcome {
        switch job {
        case .level(let resolution):
            return .level(resolution, Result { () throws(GeodataError) in try MapLevel.load(resolution, from: catalog) })
        case .places:
            return .places(Result { () throws(GeodataError) in
                try PlacesReader.read(shapefile: catalog.placesShapefile, table: catalog.placesTable)
            })
        }
    }

    func takeFinished() -> [Outcome] {
        condition.withLock {
            defer { finished = [] }
            return finished
        }
    }

    /// The place names, waiting for them if their load has started and not finished; the
    /// scales that finished meanwhile stay for `takeFinished()`.
    func waitForPlaces() -> Outcome? {
        condition.withLock {
            while running.contains(.places) { condition.wait() }
            guard let index = finished.firstIndex(where: { if case .places = $0 { true } else { false } }) else { return nil }
            return finished.remove(at: index)
        }
    }

    /// Blocks until none of `jobs` is running (the first frame waits for what it shows only).
    func wait(for jobs: Set<Job>) {
        condition.withLock {
            while !running.isDisjoint(with: jobs) { condition.wait() }
        }
    }

    /// Blocks until every job started so far has finished (benchmarks and tests only; the
    /// app never waits).
    func waitUntilIdle() {
        condition.withLock {
            while !running.isEmpty { condition.wait() }
        }
    }
}
