import Defaults
@testable import MapFront
import PropertyList
import Screens
import ScreensTesting
import Terminal
import Testing

/// How the map behaves with what the app wires it with: a store whose command line outranks
/// what the map writes, and the wheel while following.
@Suite("Map screen: wiring")
struct MapScreenWiringTests {
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
        let pilot = Pilot(screen, columns: 100, rows: 24)
        #expect(pilot.lines[22].hasPrefix(" Hybrid"))
        try pilot.press("m")
        #expect(store.inner.values["HPMapType"] == .integer(0), "written at once all the same")
        pilot.expectRow(22, equals: " Saved, but -HPMapType on the command line decides for this run.")
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
