@testable import MapFront
import PropertyList
import Screens
import Terminal
import Testing

/// Map type and tracking mode: written to the store the moment they change (capture at
/// change), shown at once when changed elsewhere; following a moving location.
@Suite("Map screen: settings and tracking")
struct MapScreenSettingsTests {
    @Test func mCyclesTheMapTypeAndWritesItAtOnce() throws {
        let map = MapHarness()
        #expect(map.modes.hasPrefix(" Standard"))
        try map.press(.character("m"))
        #expect(map.store.values["HPMapType"] == .integer(1))
        #expect(map.modes.hasPrefix(" Satellite"))
        #expect(map.drawer.drawn.last?.type == .satellite)
        try map.press(.character("m"), .character("m"))
        #expect(map.store.values["HPMapType"] == .integer(0))
        #expect(map.store.writes.map(\.key) == ["HPMapType", "HPMapType", "HPMapType"])
    }

    @Test func tCyclesTheTrackingModeAndWritesItAtOnce() throws {
        let map = MapHarness(fix: LocationFix(coordinate: paris, course: 123))
        #expect(map.modes.contains("· Follow ·"), "the registered default is Follow, as in Pigeon")
        try map.press(.character("t"))
        #expect(map.store.values["HPFollowHeading"] == .integer(2))
        #expect(map.modes.contains("Follow with heading, course 123°"))
        try map.press(.character("t"))
        #expect(map.store.values["HPFollowHeading"] == .integer(0))
        #expect(map.modes.contains("Tracking off"))
        try map.press(.character("t"))
        #expect(map.store.values["HPFollowHeading"] == .integer(1))
    }

    @Test func aChangeMadeElsewhereRedrawsAtOnce() throws {
        let map = MapHarness()
        let frames = map.app.framesRendered
        map.store.simulateExternalChange(["HPMapType": .integer(2), "WLUnits": .string("mi")])
        try map.app.processPendingEvents()
        #expect(map.app.framesRendered == frames + 1)
        #expect(map.modes.hasPrefix(" Hybrid"))
        #expect(map.drawer.drawn.last?.type == .hybrid)
        #expect(map.position.contains(" mi  "))
        // A key nobody on the map cares about draws nothing.
        map.store.simulateExternalChange(["WLTheme": .integer(1)])
        try map.app.processPendingEvents()
        #expect(map.app.framesRendered == frames + 1)
    }

    @Test func valuesFromTheCommandLineAsTextAndNonsenseFallBack() throws {
        let text = MapHarness(values: ["HPMapType": .string("2"), "HPFollowHeading": .string("0")])
        #expect(text.screen.preferences == MapPreferences(mapType: .hybrid, tracking: .none))
        let nonsense = MapHarness(values: ["HPMapType": .integer(7), "HPFollowHeading": .data(.init([1])), "WLUnits": .string("parsecs")])
        #expect(nonsense.screen.preferences == MapPreferences(mapType: .standard, tracking: .follow, units: .kilometres))
    }

    @Test func followKeepsTheLocationCentredAsFixesArriveOnWake() throws {
        let map = MapHarness(fix: LocationFix(coordinate: paris))
        #expect(map.viewport == MapViewport(exactly: paris, zoom: MapScreen.locationZoom))
        #expect(map.source.started == 1)
        map.source.arrive(LocationFix(coordinate: london))
        try map.send(.wake)
        #expect(map.viewport.center == london)
        // The location marker sits in the middle of the map (cell 40 of row 10).
        #expect(map.cell(40, 10) == "◉")
        map.source.arrive(LocationFix(coordinate: GeoPoint(latitude: 10, longitude: 179.99)))
        map.source.arrive(LocationFix(coordinate: GeoPoint(latitude: 10, longitude: -179.99)))
        try map.send(.wake)
        try map.send(.wake)
        #expect(map.viewport.center == GeoPoint(latitude: 10, longitude: -179.99))
    }

    @Test func aHandPanPausesFollowingUntilDotOrT() throws {
        let map = MapHarness(fix: LocationFix(coordinate: paris))
        try map.press(.right)
        #expect(map.modes.contains("Follow (paused: . resumes)"))
        map.source.arrive(LocationFix(coordinate: london))
        try map.send(.wake)
        #expect(map.viewport.center != london, "paused: the map stays where the user put it")
        #expect(map.store.values["HPFollowHeading"] == nil, "the setting is not touched by a pan")
        try map.press(.character("."))
        #expect(map.viewport.center == london)
        #expect(map.modes.contains("· Follow ·"))
        try map.press(.left)
        map.store.simulateExternalChange(["HPFollowHeading": .integer(2)])
        try map.app.processPendingEvents()
        #expect(map.viewport.center == london, "a tracking mode chosen elsewhere resumes following")
    }

    @Test func followWithHeadingShowsTheCourseAtTheLocation() throws {
        let map = MapHarness(fix: LocationFix(coordinate: paris, course: 123, speed: 3), values: ["HPFollowHeading": .integer(2)])
        #expect(map.modes.contains("Follow with heading, course 123°"))
        #expect(map.cell(40, 10) == "↘")
        map.source.arrive(LocationFix(coordinate: london))
        try map.send(.wake)
        #expect(map.modes.contains("Follow with heading, course unknown"))
        #expect(map.cell(40, 10) == "◉")
    }

    @Test func withoutALocationTheStatusSaysSoAndDotExplains() throws {
        let map = MapHarness()
        #expect(map.modes == " Standard · Follow (no location yet) · fake: waiting")
        try map.press(.character("."))
        #expect(map.modes == " No current location yet (fake: waiting).")
        try map.press(.character("+"))
        #expect(map.modes.hasPrefix(" Standard"), "a notice lasts until the next key")
    }

    @Test func wakeTakesLoadedDataAndRedrawsOnlyWhenSomethingChanged() throws {
        let map = MapHarness()
        let frames = map.app.framesRendered
        try map.send(.wake)
        #expect(map.app.framesRendered == frames, "no news, no frame")
        map.drawer.finishedLoading = (.ready, [Place(name: "Paris", country: "France", coordinate: paris, population: 2_000_000, rank: 0)])
        try map.send(.wake)
        #expect(map.app.framesRendered == frames + 1)
        #expect(map.screen.placeSearch.count == 1)
    }

    @Test func theHelpListsEveryKeyWithItsWords() throws {
        let map = MapHarness()
        try map.press(.character("?"))
        let help = map.lines.joined(separator: "\n")
        for words in ["Pan (a quarter of the view; pauses following)", "Zoom (in and out", "Find a place", "Remember this place", "Map type", "Tracking", "Centre on me", "Drag pans"] {
            #expect(help.contains(words), "help lacks “\(words)”")
        }
        #expect(!help.contains("…"), "no help text is cut short")
        try map.press(.escape)
        #expect(map.lines[23].hasPrefix("←↑↓→ Pan  +/- Zoom  / Find a place  r Remember this place"))
    }
}
