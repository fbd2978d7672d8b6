@testable import MapFront
import Screens
import Terminal
import Testing

/// Pan and zoom by keys and mouse, on an 80×20-cell map area (160×80 dots).
@Suite("Map screen: moving the map")
struct MapScreenNavigationTests {
    /// Zoom 2: 360° over 1,024 dots.
    let degreesAtZoom2 = 360.0 / 1024

    @Test func arrowsAndViKeysPanByAQuarterOfTheView() throws {
        let map = MapHarness()
        map.show(MapViewport(center: GeoPoint(latitude: 0, longitude: 0), zoom: 2))
        try map.press(.right)
        // A quarter of 80 columns is 20 cells, 40 dots.
        #expect(near(map.viewport.center.longitude, 40 * degreesAtZoom2))
        try map.press(.character("h"))
        #expect(near(map.viewport.center.longitude, 0))
        try map.press(.up)
        // A quarter of 20 rows is 5 rows, 20 dots.
        #expect(near(map.viewport.center.latitude, 20 * degreesAtZoom2))
        try map.press(.character("j"), .character("j"))
        #expect(near(map.viewport.center.latitude, -20 * degreesAtZoom2))
        try map.press(.character("l"), .left, .down, .character("k"))
        #expect(near(map.viewport.center.longitude, 0) && near(map.viewport.center.latitude, -20 * degreesAtZoom2))
        #expect(map.position.contains("7.0313° S, 0.0° E"))
    }

    @Test func panningPastTheAntimeridianWrapsAndThePolesStopIt() throws {
        let map = MapHarness()
        map.show(MapViewport(center: GeoPoint(latitude: 80, longitude: 170), zoom: 2))
        try map.press(.right)
        #expect(near(map.viewport.center.longitude, 170 + 40 * degreesAtZoom2 - 360))
        try map.press(.left, .left)
        #expect(near(map.viewport.center.longitude, 170 - 40 * degreesAtZoom2))
        try map.press(.up, .up)
        #expect(map.viewport.center.latitude == 90)
        try map.press(.down)
        #expect(near(map.viewport.center.latitude, 90 - 20 * degreesAtZoom2))
        map.show(MapViewport(center: GeoPoint(latitude: -85, longitude: -179), zoom: 0))
        try map.press(.down, .left)
        #expect(map.viewport.center.latitude == -90)
        #expect(map.viewport.center.longitude > 0, "-179° less a step is far east")
    }

    @Test func plusMinusAndEqualsZoomAroundTheCentreWithinTheLevels() throws {
        let map = MapHarness()
        let center = GeoPoint(latitude: 10, longitude: 20)
        map.show(MapViewport(center: center, zoom: 3))
        try map.press(.character("+"))
        #expect(map.viewport.zoom == 4)
        try map.press(.character("="))
        #expect(map.viewport.zoom == 5)
        try map.press(.character("-"), .character("-"), .character("-"))
        #expect(map.viewport.zoom == 2)
        #expect(map.viewport.center == center)
        #expect(map.position.hasPrefix(" Zoom 2/14"))
        for _ in 0..<20 { try map.press(.character("+")) }
        #expect(map.viewport.zoom == 14)
        for _ in 0..<20 { try map.press(.character("-")) }
        #expect(map.viewport.zoom == 0)
    }

    @Test func draggingMovesTheWorldWithThePointer() throws {
        let map = MapHarness()
        map.show(MapViewport(center: GeoPoint(latitude: 0, longitude: 0), zoom: 2))
        try map.send(.mouse(MouseEvent(.press, at: Point(x: 40, y: 10))),
                     .mouse(MouseEvent(.drag, at: Point(x: 44, y: 12))))
        // 4 cells right is 8 dots, 2 rows down is 8 dots: the centre moves west and north.
        #expect(near(map.viewport.center.longitude, -8 * degreesAtZoom2))
        #expect(near(map.viewport.center.latitude, 8 * degreesAtZoom2))
        try map.send(.mouse(MouseEvent(.drag, at: Point(x: 38, y: 10))), .mouse(MouseEvent(.release, at: Point(x: 38, y: 10))))
        #expect(near(map.viewport.center.longitude, 4 * degreesAtZoom2) && near(map.viewport.center.latitude, 0))
        // After the release a stray drag does nothing.
        try map.send(.mouse(MouseEvent(.drag, at: Point(x: 0, y: 0))))
        #expect(near(map.viewport.center.longitude, 4 * degreesAtZoom2))
    }

    @Test func aDragWhoseMovesWereLostEndsWhereTheButtonCameUp() throws {
        // What curses hands over from a busy terminal: the press and the release, no moves.
        let map = MapHarness()
        map.show(MapViewport(center: GeoPoint(latitude: 0, longitude: 0), zoom: 2))
        try map.send(.mouse(MouseEvent(.press, at: Point(x: 40, y: 10))))
        #expect(map.modes.hasPrefix(" Dragging · Standard"), "\(map.modes)")
        try map.send(.mouse(MouseEvent(.release, at: Point(x: 44, y: 12))))
        #expect(near(map.viewport.center.longitude, -8 * degreesAtZoom2) && near(map.viewport.center.latitude, 8 * degreesAtZoom2))
        #expect(!map.modes.contains("Dragging"))
        // A click (press and release in one place) moves nothing.
        let before = map.viewport
        try map.send(.mouse(MouseEvent(.press, at: Point(x: 30, y: 5))), .mouse(MouseEvent(.release, at: Point(x: 30, y: 5))))
        #expect(map.viewport == before)
    }

    @Test func aDragStartedOutsideTheMapMovesNothing() throws {
        let map = MapHarness()
        map.show(MapViewport(center: GeoPoint(latitude: 0, longitude: 0), zoom: 2))
        try map.send(.mouse(MouseEvent(.press, at: Point(x: 10, y: 21))), .mouse(MouseEvent(.drag, at: Point(x: 30, y: 5))))
        #expect(map.viewport.center == GeoPoint(latitude: 0, longitude: 0))
    }

    @Test func theWheelZoomsAroundThePointer() throws {
        let map = MapHarness()
        map.show(MapViewport(center: GeoPoint(latitude: 30, longitude: 10), zoom: 3))
        func pointUnder(x: Int, y: Int) -> GeoPoint {
            MapProjection(viewport: map.viewport, dotWidth: 160, dotHeight: 80).point(atDotX: Double(x * 2 + 1), y: Double(y * 4 + 2))
        }
        let before = pointUnder(x: 60, y: 4)
        try map.send(.mouse(MouseEvent(.wheelUp, button: .none, at: Point(x: 60, y: 4))))
        #expect(map.viewport.zoom == 4)
        let after = pointUnder(x: 60, y: 4)
        #expect(near(before.latitude, after.latitude, 1e-9) && near(before.longitude, after.longitude, 1e-9))
        try map.send(.mouse(MouseEvent(.wheelDown, button: .none, at: Point(x: 60, y: 4))))
        #expect(map.viewport.zoom == 3)
        #expect(near(map.viewport.center.latitude, 30) && near(map.viewport.center.longitude, 10))
    }

    @Test func theDrawerIsAskedForTheViewportTypeAndTheMapAreaOnly() throws {
        let map = MapHarness(values: ["HPMapType": .integer(1)])
        let last = try #require(map.drawer.drawn.last)
        #expect(last.size == Size(columns: 80, rows: 20))
        #expect(last.type == .satellite)
        #expect(last.viewport == map.viewport)
    }

    @Test func theStatusLinesShowZoomScaleCentreTypeTrackingLocationAndData() throws {
        let map = MapHarness(fix: LocationFix(coordinate: paris))
        map.drawer.status = .loading("loading 1:10m detail")
        try map.press(.character("-"))
        #expect(map.position.hasPrefix(" Zoom 3/14  ├"))
        #expect(map.position.hasSuffix(" km  48.8566° N, 2.3522° E"))
        #expect(map.modes == " Standard · Follow · fake: fix · loading 1:10m detail")
        #expect(map.panel == " No pin yet: r remembers this place")
    }

    @Test func missingOrDamagedDataIsSaidInTheMapAndTheRestKeepsWorking() throws {
        let map = MapHarness()
        map.drawer.status = .missing("Map data not installed: sudo apt-get install libmagics++-data")
        try map.press(.character("+"))
        #expect(map.lines[0].contains("Map data not installed: sudo apt-get install libmagics++-data"))
        #expect(map.modes.hasSuffix("· no map data"))
        map.drawer.status = .damaged("ne_10m_land.shp: truncated record 12")
        try map.press(.right)
        #expect(map.lines[0].contains("ne_10m_land.shp: truncated record 12"))
        #expect(map.modes.hasSuffix("· map data damaged"))
        #expect(map.viewport.zoom == 1)
    }

    @Test func scaleBarsAreRoundDistancesInTheChosenUnits() {
        let equator = MapViewport(center: GeoPoint(latitude: 0, longitude: 0), zoom: 0)
        // Zoom 0: a cell is 2.8125° of longitude, about 313 km at the equator.
        let km = try! #require(ScaleBar(viewport: equator, units: .kilometres, maximumCells: 12))
        #expect(km.label == "2,000 km" && km.cells == 6)
        let miles = try! #require(ScaleBar(viewport: equator, units: .miles, maximumCells: 12))
        #expect(miles.label == "2,000 mi" && miles.cells == 10)
        let close = try! #require(ScaleBar(viewport: MapViewport(center: GeoPoint(latitude: 0, longitude: 0), zoom: 14), units: .kilometres))
        #expect(close.label == "200 m" && close.cells == 10)
        let closeMiles = try! #require(ScaleBar(viewport: MapViewport(center: GeoPoint(latitude: 0, longitude: 0), zoom: 14), units: .miles))
        #expect(closeMiles.label == "0.1 mi" && closeMiles.cells == 8)
        #expect(ScaleBar(viewport: MapViewport(center: GeoPoint(latitude: 90, longitude: 0), zoom: 3), units: .kilometres) == nil)
        #expect(km.bar == "├────┤")
    }
}
