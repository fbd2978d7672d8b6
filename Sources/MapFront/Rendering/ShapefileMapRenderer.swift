#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Screens
import Terminal

/// Draws the world from Natural Earth shapefiles (Debian's libmagics++-data). It picks the
/// scale by zoom, loads each scale once in the background, and meanwhile draws whatever
/// scale it already has, so no frame waits for a file; only the app's first frame asks
/// (`loadNow`) for its scale to be there, and the screen starts that load as soon as it knows
/// its viewport (`beginLoading`), so the file is read while the rest of the app launches. Nothing is read before something needs it: the 1:10m
/// land only once the zoom calls for it, the place names (1:10m, the largest file) only for the
/// hybrid map's labels, the place finder or a pin's title. A missing package or a damaged file
/// becomes a status for the map to show; nothing here stops the app.
public final class ShapefileMapRenderer: MapDrawing {
    public let catalog: MapDataCatalog
    private let loader: MapDataLoader
    private var levels: [MapResolution: MapLevel] = [:]
    private var failures: [MapResolution: GeodataError] = [:]
    private var started: Set<MapDataLoader.Job> = []
    private var loadedPlaces: [Place]?
    private var placesFailure: GeodataError?
    private var presence: [String: Bool] = [:]
    /// The labels of the last hybrid frame (for tests and for a screen that wants to know).
    public private(set) var lastLabels: [PlacedLabel] = []

    /// `notify` runs on the loading queue when something finished: by default it wakes the
    /// app's run loop, which then calls `takeLoadedData()` on the main thread.
    public init(catalog: MapDataCatalog = MapDataCatalog(), notify: @escaping @Sendable () -> Void = { Wakeup.post() }) {
        self.catalog = catalog
        loader = MapDataLoader(catalog: catalog, notify: notify)
    }

    // MARK: MapDrawing

    public func draw(_ viewport: MapViewport, type: MapType, in canvas: Canvas, keepingClear: [Rect]) -> MapDataStatus {
        let wanted = MapResolution.forZoom(viewport.zoom)
        startLoads(wanted: wanted, labels: type == .hybrid)
        // A scale mapped from its index is there already: drawn now, not a frame later.
        _ = takeLoadedData()
        lastLabels = []
        if let level = levelToDraw(wanted) {
            lastLabels = MapComposer.draw(level, places: loadedPlaces ?? [], viewport: viewport, type: type, in: canvas,
                                          keepingClear: keepingClear)
        }
        return status(wanted: wanted, type: type)
    }

    public func places() -> [Place] {
        if loadedPlaces == nil { start(.places) }
        return loadedPlaces ?? []
    }

    public func placesWaitingForLoad() -> [Place] {
        if loadedPlaces == nil && placesFailure == nil && exists([catalog.placesShapefile, catalog.placesTable]) {
            start(.places)
            switch loader.waitForPlaces() {
            case .places(.success(let places)): loadedPlaces = places
            case .places(.failure(let error)): placesFailure = error
            default: break
            }
        }
        return loadedPlaces ?? []
    }

    public func placesStatus() -> MapDataStatus {
        if let placesFailure { return .damaged(placesFailure.description) }
        if !exists([catalog.placesShapefile, catalog.placesTable]) { return .missing(MapDataCatalog.installHint) }
        if loadedPlaces == nil { return .loading("loading place names…") }
        return .ready
    }

    public func takeLoadedData() -> Bool {
        let outcomes = loader.takeFinished()
        for outcome in outcomes {
            switch outcome {
            case .level(let resolution, .success(let level)): levels[resolution] = level
            case .level(let resolution, .failure(let error)): failures[resolution] = error
            case .places(.success(let places)): loadedPlaces = places
            case .places(.failure(let error)): placesFailure = error
            }
        }
        return !outcomes.isEmpty
    }

    /// Just what this frame shows, so the wait is as short as the frame allows: not the coarse
    /// scale first, and the place names only for the map that labels them. The queue is
    /// serial, so this also waits for anything started before.
    public func beginLoading(_ viewport: MapViewport, type: MapType) {
        _ = startFirstFrameJobs(viewport, type: type)
    }

    public func loadNow(_ viewport: MapViewport, type: MapType) {
        let jobs = startFirstFrameJobs(viewport, type: type)
        guard !jobs.isEmpty else { return }
        loader.wait(for: jobs)
        _ = takeLoadedData()
    }

    /// Starts what a frame of `viewport` shows and is neither loaded nor known to be missing or
    /// damaged: its scale, and the place names for the hybrid map. The jobs a wait must cover.
    private func startFirstFrameJobs(_ viewport: MapViewport, type: MapType) -> Set<MapDataLoader.Job> {
        _ = takeLoadedData()
        let wanted = MapResolution.forZoom(viewport.zoom)
        var jobs: Set<MapDataLoader.Job> = []
        if levels[wanted] == nil && failures[wanted] == nil && exists(catalog.files(for: wanted)) {
            jobs.insert(.level(wanted))
        }
        if type == .hybrid && loadedPlaces == nil && placesFailure == nil && exists([catalog.placesShapefile, catalog.placesTable]) {
            jobs.insert(.places)
        }
        for job in jobs { start(job) }
        return jobs
    }

    // MARK: for benchmarks and tests

    /// Blocks until every load started so far has finished, then takes the results. The app
    /// never calls this; benchmarks and tests use it to measure and check loaded frames.
    public func finishLoading() {
        loader.waitUntilIdle()
        _ = takeLoadedData()
    }

    /// Starts loading a scale now (a benchmark preloads every scale before timing frames).
    public func preload(_ resolution: MapResolution) {
        start(.level(resolution))
    }

    public var loadedResolutions: [MapResolution] { levels.keys.sorted() }

    /// The scale as it is drawn now (for tests: built in memory, or mapped from its index).
    func loadedLevel(_ resolution: MapResolution) -> MapLevel? { levels[resolution] }

    /// The filled land of one scale at dot resolution for a viewport: what the satellite and
    /// hybrid maps draw, for comparison with another rasteriser. Nil until that scale is loaded.
    public func landMask(for viewport: MapViewport, columns: Int, rows: Int, resolution: MapResolution) -> BrailleRaster? {
        guard let level = levels[resolution] else { return nil }
        let window = DotWindow(projection: MapProjection(viewport: viewport, dotWidth: columns * 2, dotHeight: rows * 4))
        var raster = BrailleRaster(columns: columns, rows: rows)
        LandMask.fill(level.land, window: window, into: &raster)
        return raster
    }

    // MARK: loading

    private func startLoads(wanted: MapResolution, labels: Bool) {
        // The coarse scale first: it loads in milliseconds and fills the view while a finer
        // one is read.
        if wanted != .coarse && levels[wanted] == nil && exists(catalog.files(for: .coarse)) { start(.level(.coarse)) }
        if exists(catalog.files(for: wanted)) { start(.level(wanted)) }
        if labels && exists([catalog.placesShapefile, catalog.placesTable]) { start(.places) }
    }

    private func start(_ job: MapDataLoader.Job) {
        guard !started.contains(job) else { return }
        started.insert(job)
        loader.start(job)
    }

    private func exists(_ paths: [String]) -> Bool {
        paths.allSatisfy { path in
            if let known = presence[path] { return known }
            let found = access(path, R_OK) == 0
            presence[path] = found
            return found
        }
    }

    /// The wanted scale if loaded, else the nearest coarser one, else the nearest finer one.
    private func levelToDraw(_ wanted: MapResolution) -> MapLevel? {
        if let level = levels[wanted] { return level }
        let all = MapResolution.allCases
        if let coarser = all.filter({ $0 < wanted }).reversed().first(where: { levels[$0] != nil }) { return levels[coarser] }
        return all.filter { $0 > wanted }.first { levels[$0] != nil }.flatMap { levels[$0] }
    }

    private func status(wanted: MapResolution, type: MapType) -> MapDataStatus {
        if let failure = failures[wanted] { return .damaged(failure.description) }
        if !exists(catalog.files(for: wanted)) { return .missing(MapDataCatalog.installHint) }
        if levels[wanted] == nil { return .loading("loading the 1:\(wanted.rawValue) map…") }
        if type == .hybrid {
            if let placesFailure { return .damaged(placesFailure.description) }
            if !exists([catalog.placesShapefile, catalog.placesTable]) { return .missing(MapDataCatalog.installHint) }
            if loadedPlaces == nil { return .loading("loading place names…") }
        }
        return .ready
    }
}
