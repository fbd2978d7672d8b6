import Defaults
import Foundation
@testable import MapFront
import PropertyList
import Restoration
import Screens
import Terminal
import Testing

/// The app's first frame is its complete one: the map screen has its data loaded for the
/// viewport it shows before that frame is drawn, and only then; later frames never wait.
@Suite("Map: the first frame is complete")
struct MapFirstFrameTests {
    let step = 360.0 / 256  // degrees a dot at zoom 0

    /// One square island north-east of (0°, 0°) at every scale, and one town on it.
    func island() throws -> FixtureMapData {
        let data = try FixtureMapData()
        try data.writeWorld(land: [[ShapefileWriter.square(west: 0, south: 0, east: 16 * step, north: 16 * step)]],
                            places: [(name: "Alpha", x: 2 * step, y: 14 * step, rank: 0, population: 900)])
        return data
    }

    /// The map screen alone in an app on an 80×24 headless terminal, launched (first frame drawn).
    func launch(_ renderer: ShapefileMapRenderer, mapType: Int = 0, zoom: Int = 0) -> (HeadlessTerminal, Application, MapScreen) {
        let store = InMemoryPreferenceStore(registration: ["HPMapType": .integer(Int64(mapType)), "HPFollowHeading": .integer(0), "WLUnits": .string("km")])
        let screen = MapScreen(drawer: renderer, location: MovingLocationSource(), store: store)
        screen.state.viewport = MapViewport(exactly: GeoPoint(latitude: 0, longitude: 0), zoom: zoom)
        let terminal = HeadlessTerminal(size: Size(columns: 80, rows: 24), capabilities: .init(colors: false, unicode: true))
        let app = Application(terminal: terminal, root: screen)
        app.launch()
        return (terminal, app, screen)
    }

    @Test func theFirstFrameShowsTheLoadedMapNotAPlaceholder() throws {
        let data = try island()
        let renderer = ShapefileMapRenderer(catalog: data.catalog, notify: {})
        let (terminal, app, screen) = launch(renderer)
        #expect(app.framesRendered == 1)
        #expect(screen.dataStatus == .ready)
        #expect(!terminal.lines.joined().contains("loading"))
        #expect(terminal.lines.prefix(20).contains { $0.contains { ("\u{2801}"..."\u{28FF}").contains($0) } }, "the island's dots")
        #expect(renderer.loadedResolutions == [.coarse], "only the scale the zoom shows")
    }

    @Test func theFirstFrameHasTheRestoredZoomsScale() throws {
        let data = try island()
        let renderer = ShapefileMapRenderer(catalog: data.catalog, notify: {})
        let (_, _, screen) = launch(renderer, zoom: 4)
        #expect(screen.dataStatus == .ready)
        #expect(renderer.loadedResolutions.contains(.medium))
    }

    @Test func aMadeScreenReadsNothingUntilAskedThenReadsItsScaleBeforeAnyFrame() throws {
        let data = try island()
        let renderer = ShapefileMapRenderer(catalog: data.catalog, notify: {})
        let store = InMemoryPreferenceStore(registration: ["HPMapType": .integer(0), "HPFollowHeading": .integer(0)])
        let screen = MapScreen(drawer: renderer, location: MovingLocationSource(), store: store)
        renderer.finishLoading()
        #expect(renderer.loadedResolutions.isEmpty, "a map that may not be shown first reads nothing")
        screen.beginLoadingForFirstFrame()
        renderer.finishLoading()
        #expect(renderer.loadedResolutions == [.coarse], "the new user's whole world, read while the app launches")
    }

    /// A map at zoom 4 saved inside a tab bar whose shown tab is `shownTab`, restored into a
    /// fresh tree: what its renderer read without any frame asking.
    func readAfterRestoring(shownTab: Int) throws -> [MapResolution] {
        let data = try island()
        let store = InMemoryPreferenceStore(registration: ["HPMapType": .integer(0), "HPFollowHeading": .integer(0)])
        func tree(_ drawer: MapDrawing) -> (TabScreen, MapScreen) {
            let map = MapScreen(drawer: drawer, location: MovingLocationSource(), store: store)
            return (TabScreen(title: "Tabs", tabs: [map, Screen(title: "Other", restorationIdentifier: "Other")], restorationIdentifier: "Tabs"), map)
        }
        let (savedTabs, savedMap) = tree(FakeDrawer())
        savedMap.state.viewport = MapViewport(exactly: GeoPoint(latitude: 0, longitude: 0), zoom: 4)
        savedTabs.select(shownTab)
        let header = RestorationHeader(appVersion: "test", timestamp: Date(), terminalColumns: 80, terminalRows: 24)
        let archive = try RestorationEngine(duplicatePolicy: .fail).preserve(root: savedTabs, header: header).data
        let renderer = ShapefileMapRenderer(catalog: data.catalog, notify: {})
        let (tabs, _) = tree(renderer)
        _ = try RestorationEngine().restore(from: archive, root: tabs)
        renderer.finishLoading()
        return renderer.loadedResolutions
    }

    @Test func aRestoredMapThatIsShownStartsReadingItsOwnScaleWhenDecoded() throws {
        #expect(try readAfterRestoring(shownTab: 0) == [.medium])
    }

    @Test func aRestoredMapBehindAnotherTabReadsNothingBeforeItIsShown() throws {
        #expect(try readAfterRestoring(shownTab: 1) == [])
    }

    @Test func theHybridMapsFirstFrameHasItsPlaceNames() throws {
        let data = try island()
        let renderer = ShapefileMapRenderer(catalog: data.catalog, notify: {})
        let (terminal, _, screen) = launch(renderer, mapType: 2)
        #expect(screen.dataStatus == .ready)
        #expect(terminal.lines.joined().contains("Alpha"))
    }

    @Test func aFrameAfterTheFirstNeverWaits() throws {
        let data = try island()
        let renderer = ShapefileMapRenderer(catalog: data.catalog, notify: {})
        let (_, app, screen) = launch(renderer)
        screen.state.viewport = MapViewport(exactly: GeoPoint(latitude: 0, longitude: 0), zoom: 4)
        app.render()
        // The frame did not wait: it says the scale is loading, unless the loader's thread
        // (a tiny fixture, mapped from its index) finished between the frame's start of the
        // load and its look at what had arrived, which the renderer draws at once by design.
        #expect(screen.dataStatus == .loading("loading the 1:50m map…") || screen.dataStatus == .ready)
        renderer.finishLoading()
        app.render()
        #expect(screen.dataStatus == .ready)
    }

    @Test func missingDataIsSaidOnTheFirstFrameWithoutWaiting() throws {
        let data = try FixtureMapData()  // folders, no files
        let renderer = ShapefileMapRenderer(catalog: data.catalog, notify: {})
        let (terminal, _, screen) = launch(renderer)
        #expect(screen.dataStatus == .missing(MapDataCatalog.installHint))
        #expect(terminal.lines.joined().contains("libmagics++-data"))
    }
}
