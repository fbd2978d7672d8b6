import FoundationEssentials
import Platform
import Terminal

/// Reads and indexes map data in the background, each job (a scale, the place names) on a
/// thread of its own, so the first frame never waits for a file it does not show and a wait for
/// one job never waits for another. Results wait in a lock-protected box until the main thread
/// takes them (after `Event.wake`); `notify` (by default `Wakeup.post()`) tells the run loop.
/// Threads rather than a dispatch queue: a load starts while the app is still launching, and
/// starting libdispatch's pool would cost that launch more than the thread does. A scale with a
/// current index in the catalog's `levelCache` needs no thread: it is mapped when started; one
/// read from its shapefiles has its index written by its thread after the result is handed over.
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
    /// Jobs done whose follow-up (writing a map index) is still running.
    private var afterwardsPending = 0

    init(catalog: MapDataCatalog, notify: @escaping @Sendable () -> Void) {
        self.catalog = catalog
        self.notify = notify
    }

    func start(_ job: Job) {
        let catalog = self.catalog
        // A scale whose index is current is mapped here and now, which costs less than starting
        // a thread; the caller takes it with the next `takeFinished()`, so no wake is sent.
        if case .level(let resolution) = job, let cache = catalog.levelCache,
           let level = cache.read(resolution, sources: MapSources(catalog: catalog, resolution: resolution)) {
            condition.withLock { finished.append(.level(resolution, .success(level))) }
            return
        }
        condition.withLock { _ = running.insert(job) }
        let work: @Sendable () -> Void = { [self] in
            let (outcome, afterwards) = Self.run(job, catalog: catalog)
            condition.withLock { finished.append(outcome) }
            notify()
            // Only then is the job over: a wait that returns has seen its notice sent too.
            condition.withLock {
                running.remove(job)
                if afterwards != nil { afterwardsPending += 1 }
                condition.broadcast()
            }
            if let afterwards {
                let replacement = afterwards()
                condition.withLock {
                    if let replacement { finished.append(replacement) }
                    afterwardsPending -= 1
                    condition.broadcast()
                }
                if replacement != nil { notify() }
            }
        }
        // Without a thread the job runs here: slower, but the map still comes.
        if !startThread(name: "wonderland-map", work) { work() }
    }

    /// The job's outcome, and what to do once whoever waits for it has it: a scale made from its
    /// shapefiles is then written as its map index, which no frame waits for, and the index,
    /// mapped, replaces the scale built in memory (the same values, in pages the file holds and
    /// every instance shares, instead of tens of megabytes of the process's own at 1:10m).
    private static func run(_ job: Job, catalog: MapDataCatalog) -> (Outcome, afterwards: (@Sendable () -> Outcome?)?) {
        switch job {
        case .level(let resolution):
            guard let cache = catalog.levelCache else {
                return (.level(resolution, Result { () throws(GeodataError) in try MapLevel.load(resolution, from: catalog) }), nil)
            }
            // Stamped before the shapefiles are read: one changed meanwhile leaves an index
            // that the next launch finds stale, never one that looks current.
            let sources = MapSources(catalog: catalog, resolution: resolution)
            let result = Result { () throws(GeodataError) in try MapLevel.load(resolution, from: catalog) }
            guard case .success(let level) = result else { return (.level(resolution, result), nil) }
            // A cache that cannot be written (a full disk, a read-only folder) only means the
            // shapefiles are read again next time.
            return (.level(resolution, result), {
                guard (try? cache.write(level, sources: sources)) != nil,
                      let mapped = cache.read(resolution, sources: sources) else { return nil }
                return .level(resolution, .success(mapped))
            })
        case .places:
            return (.places(Result { () throws(GeodataError) in
                try PlacesReader.read(shapefile: catalog.placesShapefile, table: catalog.placesTable)
            }), nil)
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

    /// Blocks until every job started so far has finished, with what it does afterwards
    /// (benchmarks and tests only; the app never waits).
    func waitUntilIdle() {
        condition.withLock {
            while !running.isEmpty || afterwardsPending > 0 { condition.wait() }
        }
    }
}
