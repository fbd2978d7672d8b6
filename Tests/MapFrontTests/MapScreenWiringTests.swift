import Defaults
@testable import MapFront
import PropertyList
import Screens
import Terminal
import Testing

/// What the app wires the map with when nothing better is there: `--location`, the
/// graticule drawer, and a store whose command line outranks what the map writes.
@Suite("Map screen: wiring and fallbacks")
struct MapScreenWiringTests {
    @Test func locationArgumentsParseOrSayWhatIsWrong() throws {
        #expect(try LocationArgument.parse("48.8566,2.3522").get() == GeoPoint(latitude: 48.8566, longitude: 2.3522))
        #expect(try LocationArgument.parse("-33.9, 151.2").get() == GeoPoint(latitude: -33.9, longitude: 151.2))
        #expect(try LocationArgument.parse("90 -180").get() == GeoPoint(latitude: 90, longitude: -180))
        for bad in ["", "48.8", "a,b", "1,2,3", "nan,0", "inf,0"] {
            guard case .failure(let error) = LocationArgument.parse(bad) else { Issue.record("“\(bad)” parsed"); continue }
            #expect(error.message.contains("is not LAT,LON"))
        }
        guard case .failure(let error) = LocationArgument.parse("91,0") else { Issue.record("91° parsed"); return }
        #expect(error.message.contains("off the globe"))
        let source = LocationArgument.source(for: "x")
        #expect(source.currentFix == nil && source.statusText == "no location: --location “x” is not LAT,LON (e.g. 48.8566,2.3522)")
        #expect(LocationArgument.source(for: "1,2").currentFix?.coordinate == GeoPoint(latitude: 1, longitude: 2))
    }

    @Test func theGraticuleDrawsLinesAndThePolesAndSaysThereIsNoData() throws {
        let drawer = GraticuleDrawer()
        let screen = MapScreen(drawer: drawer, location: MovingLocationSource(), store: InMemoryPreferenceStore())
        let terminal = HeadlessTerminal(size: Size(columns: 80, rows: 24))
        let app = Application(terminal: terminal, root: screen)
        screen.state.viewport = MapViewport(center: GeoPoint(latitude: 80, longitude: 0), zoom: 1)
        app.launch()
        // Zoom 1: 0.703° a dot, 10° lines every 14.2 dots. The north pole is 10° above the
        // centre (dot row 40): dot row 25 (25.8 down), the second dot row of cell row 6, drawn
        // solid from edge to edge (dots 2 and 5 of every cell: bits 0x02 and 0x10).
        let poleRow = terminal.lines[6]
        #expect(poleRow.unicodeScalars.count == 80)
        #expect(poleRow.unicodeScalars.allSatisfy { (0x2800...0x28FF).contains($0.value) && $0.value & 0x12 == 0x12 })
        #expect(terminal.lines[0].contains("No map data in this build yet"))
        // Above the pole there is no world: nothing drawn in the rows above, but meridians below.
        #expect(terminal.lines[4].unicodeScalars.allSatisfy { $0.value == 0x2800 || $0 == " " })
        #expect(terminal.lines[10].unicodeScalars.contains { $0.value > 0x2800 })
        #expect(GraticuleDrawer.spacing(degreesPerDot: MapViewport(center: .init(latitude: 0, longitude: 0), zoom: 14).degreesPerDot) == 0.002)
    }

    /// A store whose `-HPMapType 2` on the command line wins over anything written.
    private final class CommandLineStore: PreferenceStore {
        let inner = InMemoryPreferenceStore(registration: ["HPFollowHeading": .integer(1)])
        func object(forKey key: String) -> PropertyListValue? { key == "HPMapType" ? .string("2") : inner.object(forKey: key) }
        func set(_ value: PropertyListValue?, forKey key: String) { inner.set(value, forKey: key) }
        func register(defaults: [String: PropertyListValue]) { inner.register(defaults: defaults) }
        func addChangeObserver(_ handler: @escaping (Set<String>) -> Void) -> PreferenceObservation { inner.addChangeObserver(handler) }
    }

    @Test func whenTheCommandLineDecidesTheMapSaysSo() throws {
        let store = CommandLineStore()
        let screen = MapScreen(drawer: FakeDrawer(), location: MovingLocationSource(), store: store)
        let terminal = HeadlessTerminal(size: Size(columns: 100, rows: 24))
        let app = Application(terminal: terminal, root: screen)
        app.launch()
        #expect(terminal.lines[22].hasPrefix(" Hybrid"))
        terminal.enqueue(.key(.character("m")))
        try app.processPendingEvents()
        #expect(store.inner.values["HPMapType"] == .integer(0), "written at once all the same")
        #expect(terminal.lines[22] == " Saved, but -HPMapType on the command line decides for this run.")
        #expect(screen.preferences.mapType == .hybrid)
    }

    @Test func theWheelWhileFollowingZoomsAroundTheLocation() throws {
        let map = MapHarness(fix: LocationFix(coordinate: paris))
        try map.send(.mouse(MouseEvent(.wheelUp, button: .none, at: Point(x: 70, y: 3))))
        #expect(map.viewport == MapViewport(exactly: paris, zoom: 5))
        // Below the map (the info lines) the wheel zooms around the centre too.
        map.show(MapViewport(exactly: london, zoom: 5))
        try map.send(.mouse(MouseEvent(.wheelDown, button: .none, at: Point(x: 70, y: 21))))
        #expect(map.viewport == MapViewport(exactly: london, zoom: 4))
    }
}
