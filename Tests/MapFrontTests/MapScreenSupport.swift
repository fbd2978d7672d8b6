import Defaults
@testable import MapFront
import PropertyList
import Screens
import ScreensTesting
import Terminal

/// A drawer that draws nothing but remembers what it was asked, says what a test tells it to,
/// and has places to search and news to deliver on wake.
final class FakeDrawer: MapDrawing {
    var status: MapDataStatus = .ready
    var placeList: [Place] = []
    var drawn: [(viewport: MapViewport, type: MapType, size: Size)] = []
    /// What `takeLoadedData` hands over next, as background loading would.
    var finishedLoading: (status: MapDataStatus, places: [Place])?

    func draw(_ viewport: MapViewport, type: MapType, in canvas: Canvas, keepingClear: [Rect]) -> MapDataStatus {
        drawn.append((viewport, type, Size(columns: canvas.width, rows: canvas.height)))
        return status
    }

    func places() -> [Place] { placeList }

    func placesStatus() -> MapDataStatus { status }

    func takeLoadedData() -> Bool {
        guard let finished = finishedLoading else { return false }
        status = finished.status
        placeList = finished.places
        finishedLoading = nil
        return true
    }
}

/// A location source that moves when the test says: fixes queued by `arrive` are taken one
/// by one by `refresh`, as a gpsd reader's would be after a wake-up.
final class MovingLocationSource: LocationSource {
    private(set) var currentFix: LocationFix?
    private var queued: [LocationFix] = []
    private(set) var started = 0
    private(set) var stopped = 0
    var statusText: String { currentFix == nil ? "fake: waiting" : "fake: fix" }

    init(_ fix: LocationFix? = nil) { currentFix = fix }

    func arrive(_ fix: LocationFix) { queued.append(fix) }
    func start() { started += 1 }
    func stop() { stopped += 1 }
    func refresh() -> Bool {
        guard !queued.isEmpty else { return false }
        currentFix = queued.removeFirst()
        return true
    }
}

/// The map screen as the only screen of an app on an 80×24 headless terminal: the map area is
/// then 80 columns by 20 rows (160×80 dots), with the three info lines and the hint bar below.
final class MapHarness: Pilot {
    let store: InMemoryPreferenceStore
    let drawer: FakeDrawer
    let source: MovingLocationSource
    let screen: MapScreen

    init(fix: LocationFix? = nil, values: [String: PropertyListValue] = [:], places: [Place] = [],
         columns: Int = 80, rows: Int = 24, unicode: Bool = true, prepare: (MapScreen) -> Void = { _ in }) {
        let store = InMemoryPreferenceStore(values: values, registration: [
            "HPMapType": .integer(0), "HPFollowHeading": .integer(1), "WLUnits": .string("km"),
        ])
        let drawer = FakeDrawer()
        drawer.placeList = places
        let source = MovingLocationSource(fix)
        let screen = MapScreen(drawer: drawer, location: source, store: store)
        prepare(screen)
        self.store = store
        self.drawer = drawer
        self.source = source
        self.screen = screen
        super.init(screen, columns: columns, rows: rows, capabilities: .init(colors: true, unicode: unicode))
    }

    var viewport: MapViewport { screen.state.viewport }
    /// The three lines under the map: panel, position, modes.
    var panel: String { lines[20] }
    var position: String { lines[21] }
    var modes: String { lines[22] }

    /// The text of the cell at column x of row y (a glyph, or a braille pattern).
    func cell(_ x: Int, _ y: Int) -> String { terminal.frame[x, y].text }

    /// Shows the view on `viewport`, with following paused so no fix moves it.
    func show(_ viewport: MapViewport) {
        screen.state.viewport = viewport
        screen.state.trackingPaused = true
        app.setNeedsDisplay()
        try? app.processPendingEvents()
    }
}

func near(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

let paris = GeoPoint(latitude: 48.8566, longitude: 2.3522)
let london = GeoPoint(latitude: 51.5074, longitude: -0.1278)
let newYork = GeoPoint(latitude: 40.7128, longitude: -74.0060)
