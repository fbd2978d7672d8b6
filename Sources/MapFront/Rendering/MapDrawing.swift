import Screens
import Terminal

/// What the map screen asks of whatever draws the world. The screen owns the viewport, the
/// pin and the panels; the drawer owns the geodata, its loading and the braille raster.
public protocol MapDrawing: AnyObject {
    /// Draws the world for `viewport` into the whole of `canvas` (one braille cell per canvas
    /// cell). City labels stay out of `keepingClear` (canvas cells), where the screen will put
    /// its own marks: the current location, the pin and their titles. Never blocks on loading:
    /// data that is not ready yet is drawn from a coarser level or not at all, and the status
    /// says so (`loadNow` is the one call that waits).
    func draw(_ viewport: MapViewport, type: MapType, in canvas: Canvas, keepingClear: [Rect]) -> MapDataStatus

    /// The populated places at the finest level loaded so far (empty until one is). Asking
    /// starts their loading if nothing else did.
    func places() -> [Place]

    /// The populated places, waiting for them if they are still loading: for a one-off answer
    /// the user is waiting on (the pin's default title), never for drawing.
    func placesWaitingForLoad() -> [Place]

    /// Whether the places are loaded, loading, missing or damaged (what the place finder says
    /// while it has nothing to search).
    func placesStatus() -> MapDataStatus

    /// Main thread, after `Event.wake`: takes what background loading finished; true if the
    /// map should be drawn again.
    func takeLoadedData() -> Bool

    /// Starts loading, without waiting, the data `draw` will need for this viewport and type:
    /// called as soon as the screen knows its viewport, so `loadNow` has less to wait for.
    func beginLoading(_ viewport: MapViewport, type: MapType)

    /// Blocks until the data `draw` needs for this viewport and type is loaded (or known to be
    /// missing or damaged). Only for the app's first frame, which must be the complete one.
    func loadNow(_ viewport: MapViewport, type: MapType)
}

/// What the map can tell the user about its data, shown in the map's status line.
public enum MapDataStatus: Hashable, Sendable {
    case ready
    /// A finer level is loading; a coarser one (or nothing) is drawn meanwhile.
    case loading(String)
    /// The data package is not installed: how to install it.
    case missing(String)
    /// A file could not be read: which and why. The rest of the app goes on.
    case damaged(String)
}

extension MapDrawing {
    /// Drawers that hold their places from the start have nothing to wait for.
    public func placesStatus() -> MapDataStatus { .ready }

    public func placesWaitingForLoad() -> [Place] { places() }

    /// Drawers that hold their data from the start have nothing to load.
    public func beginLoading(_ viewport: MapViewport, type: MapType) {}

    public func loadNow(_ viewport: MapViewport, type: MapType) {}

    /// The world with nothing of the screen's to keep clear (benchmarks, tests).
    public func draw(_ viewport: MapViewport, type: MapType, in canvas: Canvas) -> MapDataStatus {
        draw(viewport, type: type, in: canvas, keepingClear: [])
    }
}
