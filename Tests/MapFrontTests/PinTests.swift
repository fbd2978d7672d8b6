import Defaults
import Foundation
@testable import MapFront
import PropertyList
import Screens
import Terminal
import Testing

/// Remember this place: the HPLocation dictionary, saving and clearing it from the map, and
/// Pigeon's arrow (bearing and distance) in the panel.
@Suite("Pin: the remembered place")
struct PinTests {
    @Test func thePinIsTheSeedsDictionaryOfThreeKeys() {
        let pin = MapPin(latitude: 51.5074, longitude: -0.1278, title: "Home")
        #expect(pin.propertyList == .dictionary(["lat": .real(51.5074), "long": .real(-0.1278), "title": .string("Home")]))
        #expect(MapPin(propertyList: pin.propertyList) == pin)
    }

    @Test func readingIsLenientAboutNumbersAndStrictAboutTheGlobe() {
        #expect(MapPin(propertyList: .dictionary(["lat": .integer(10), "long": .string("-20.5"), "title": .string("X")]))
                == MapPin(latitude: 10, longitude: -20.5, title: "X"))
        #expect(MapPin(propertyList: .dictionary(["lat": .real(1), "long": .real(2)]))?.title == "")
        #expect(MapPin(propertyList: .dictionary(["lat": .real(1), "long": .real(2)]))?.displayTitle == "Pin")
        #expect(MapPin(propertyList: .dictionary(["lat": .real(91), "long": .real(0), "title": .string("X")])) == nil)
        #expect(MapPin(propertyList: .dictionary(["lat": .real(.nan), "long": .real(0)])) == nil)
        #expect(MapPin(propertyList: .dictionary(["lat": .string("north"), "long": .real(0)])) == nil)
        #expect(MapPin(propertyList: .dictionary(["long": .real(0)])) == nil)
        #expect(MapPin(propertyList: .array([.real(1), .real(2)])) == nil)
        #expect(MapPin(propertyList: nil) == nil)
    }

    @Test func mapTypeTrackingAndClearingThePinAreOnDiskAtTheKey() throws {
        let map = MapHarness(fix: LocationFix(coordinate: london), values: ["HPLocation": MapPin(london, title: "Office").propertyList])
        try map.press(.character("m"))
        #expect(map.store.saves == [map.store.writes.count])
        try map.press(.character("t"))
        #expect(map.store.saves.count == 2 && map.store.saves.last == map.store.writes.count)
        try map.press(.character("c"))
        try map.press(.character("y"))
        #expect(map.store.values["HPLocation"] == nil)
        #expect(map.store.saves.count == 3 && map.store.saves.last == map.store.writes.count)
    }

    @Test func rememberWritesTheDictionaryAtOnceWithTheTitleTyped() throws {
        let map = MapHarness(fix: LocationFix(coordinate: london))
        try map.press(.character("r"))
        #expect(map.lines.joined().contains("Title for the pin at 51.5074° N, 0.1278° W (your"))
        #expect(map.lines.contains { $0.contains("51.5074° N, 0.1278° W") && !$0.contains("Title") }, "the coordinates are offered as the title")
        try map.press(.control("u"))
        try map.type("Home")
        try map.press(.enter)
        guard case .dictionary(var saved)? = map.store.values["HPLocation"] else { Issue.record("no pin dictionary"); return }
        // The stamp of the change rides along; the rest is Pigeon's dictionary.
        #expect(saved.removeValue(forKey: "modified").flatMap(DefaultsConversion.double).map { $0 > 0 } == true)
        #expect(saved.removeValue(forKey: "device") != nil)
        #expect(saved == ["lat": .real(51.5074), "long": .real(-0.1278), "title": .string("Home")])
        #expect(map.store.writes.count == 1)
        #expect(map.store.saves == [1], "on disk before the screen said so")
        #expect(map.panel == " ⚑ Home: here · 0 m")
        // The pin is drawn where it is, with its title: the middle of the map while following.
        #expect(map.cell(40, 10) == "◉", "the location is drawn over the pin")
        #expect(map.lines[10].contains("Home"))
    }

    @Test func theSuggestedTitleIsTheNearestPlaceOrTheCoordinates() throws {
        let places = [Place(name: "London", country: "United Kingdom", coordinate: GeoPoint(latitude: 51.5, longitude: -0.12), population: 9_000_000, rank: 0),
                      Place(name: "Paris", country: "France", coordinate: paris, population: 2_100_000, rank: 0)]
        let map = MapHarness(fix: LocationFix(coordinate: london), places: places)
        try map.press(.character("r"), .enter)
        #expect(MapPin.load(from: map.store)?.title == "London")
        let atSea = MapHarness(fix: LocationFix(coordinate: GeoPoint(latitude: 45, longitude: -30)), places: places)
        try atSea.press(.character("r"), .enter)
        #expect(MapPin.load(from: atSea.store)?.title == "45.0° N, 30.0° W")
    }

    @Test func withoutALocationThePinGoesToTheMapCentreAndSaysSo() throws {
        let map = MapHarness()
        map.show(MapViewport(center: GeoPoint(latitude: -33.9, longitude: 151.2), zoom: 5))
        try map.press(.character("r"))
        #expect(map.lines.joined().contains("(the map centre:"))
        #expect(map.lines.joined().contains("there is no current location)"))
        try map.press(.enter)
        #expect(MapPin.load(from: map.store) == MapPin(latitude: -33.9, longitude: 151.2, title: "33.9° S, 151.2° E"))
        #expect(map.modes == " Pinned the map centre: there is no current location.")
        #expect(map.panel.hasSuffix("no current location to measure from"))
    }

    @Test func escapeInThePromptSavesNothing() throws {
        let map = MapHarness(fix: LocationFix(coordinate: london))
        try map.press(.character("r"), .escape)
        #expect(map.store.writes.isEmpty)
        #expect(map.screen.pin == nil)
    }

    @Test func clearingAsksFirstThenRemovesTheKey() throws {
        let map = MapHarness(fix: LocationFix(coordinate: paris), values: ["HPLocation": MapPin(london, title: "Office").propertyList])
        #expect(map.screen.pin?.title == "Office", "read at launch")
        try map.press(.character("c"))
        #expect(map.lines.joined().contains("Forget “Office”"))
        try map.press(.character("n"))
        #expect(map.store.values["HPLocation"] != nil)
        try map.press(.character("c"), .character("y"))
        #expect(map.store.values["HPLocation"] == nil)
        #expect(map.store.writes.count == 1 && map.store.writes[0].key == "HPLocation" && map.store.writes[0].value == nil)
        #expect(map.panel == " No pin yet: r remembers this place")
        // c and p belong to a pin: without one they are not offered.
        #expect(!map.screen.keyBindings.contains { $0.keys.contains(.character("c")) })
    }

    @Test func thePanelShowsBearingAndDistanceInKilometresAndMiles() throws {
        let map = MapHarness(fix: LocationFix(coordinate: paris), values: ["HPLocation": MapPin(london, title: "London").propertyList])
        #expect(map.panel == " ⚑ London: ↖ 330° NW · 344 km")
        map.store.simulateExternalChange(["WLUnits": .string("mi")])
        try map.app.processPendingEvents()
        #expect(map.panel == " ⚑ London: ↖ 330° NW · 213 mi")
        map.source.arrive(LocationFix(coordinate: newYork))
        try map.send(.wake)
        #expect(map.panel == " ⚑ London: ↗ 51° NE · 3,461 mi · off screen, p goes there")
        map.store.simulateExternalChange(["WLUnits": .string("km")])
        try map.app.processPendingEvents()
        #expect(map.panel == " ⚑ London: ↗ 51° NE · 5,570 km · off screen, p goes there")
    }

    @Test func anOffScreenPinGetsAnArrowOnTheEdgeAndPGoesThere() throws {
        let map = MapHarness(fix: LocationFix(coordinate: newYork), values: ["HPLocation": MapPin(london, title: "London").propertyList])
        // New York at zoom 4 in the middle: London is 841 dots east and 123 dots north, so the
        // arrow sits on the right edge, above the middle (dot row 28, cell row 7), pointing east.
        #expect(map.lines[7].hasSuffix("→⚑"))
        #expect(map.lines.prefix(20).filter { $0.contains("⚑") }.count == 1)
        try map.press(.character("p"))
        #expect(map.viewport.center == london)
        #expect(map.cell(40, 10) == "⚑")
        #expect(map.lines[10].contains("⚑ London"))
        #expect(!map.panel.contains("off screen"))
    }

    @Test func aPinChangedElsewhereIsShownAtOnce() throws {
        let map = MapHarness(fix: LocationFix(coordinate: paris))
        map.store.simulateExternalChange(["HPLocation": MapPin(london, title: "Synced").propertyList])
        try map.app.processPendingEvents()
        #expect(map.panel.hasPrefix(" ⚑ Synced: ↖ 330° NW"))
        map.store.simulateExternalChange(["HPLocation": nil])
        try map.app.processPendingEvents()
        #expect(map.panel == " No pin yet: r remembers this place")
        map.store.simulateExternalChange(["HPLocation": .string("garbage")])
        try map.app.processPendingEvents()
        #expect(map.panel == " No pin yet: r remembers this place", "a damaged pin is not drawn")
    }

    @Test func pinsAtThePolesAndOnTheAntimeridianDraw() throws {
        let north = MapHarness(values: ["HPLocation": MapPin(latitude: 90, longitude: 0, title: "Pole").propertyList])
        north.show(MapViewport(center: GeoPoint(latitude: 80, longitude: 0), zoom: 2))
        // 10° north of the centre is 28.4 dots up from dot row 40: dot row 11.6, cell row 2.
        #expect(north.cell(40, 2) == "⚑")
        north.show(MapViewport(center: GeoPoint(latitude: 90, longitude: 0), zoom: 3))
        #expect(north.cell(40, 10) == "⚑", "centred on the pole itself")

        let dateLine = MapHarness(values: ["HPLocation": MapPin(latitude: -17, longitude: 180, title: "Date line").propertyList])
        dateLine.show(MapViewport(center: GeoPoint(latitude: -17, longitude: -179.5), zoom: 4))
        // 180° is 0.5° west of -179.5°: 5.7 dots left of dot 80, dot 74.3, so cell 37.
        #expect(dateLine.cell(37, 10) == "⚑")
        dateLine.show(MapViewport(center: GeoPoint(latitude: -17, longitude: 179.5), zoom: 4))
        #expect(dateLine.cell(42, 10) == "⚑")
    }

    @Test func atZoomZeroOnAWideTerminalEveryCopyOfThePinIsDrawn() throws {
        let map = MapHarness(values: ["HPLocation": MapPin(latitude: 0, longitude: 150, title: "East").propertyList], columns: 220, rows: 24)
        map.show(MapViewport(center: GeoPoint(latitude: 0, longitude: 0), zoom: 0))
        // 440 dots show 618.75° of longitude: 150° E is at dot 326.7 (cell 163), and its copy
        // one world (256 dots) west at dot 70.7 (cell 35).
        #expect(map.cell(163, 10) == "⚑")
        #expect(map.cell(35, 10) == "⚑")
        #expect(map.lines[10].filter { $0 == "⚑" }.count == 2)
    }

    @Test func theGuideMeasuresOnTheSphere() {
        let guide = PinGuide(from: paris, to: london)
        #expect(guide.wholeDegrees == 330 && guide.arrow == "↖")
        #expect(abs(guide.distance - 343_557) < 1)
        #expect(PinGuide(from: GeoPoint(latitude: 0, longitude: 179), to: GeoPoint(latitude: 0, longitude: -179)).wholeDegrees == 90,
                "across the antimeridian the short way is east")
        #expect(PinGuide(from: london, to: GeoPoint(latitude: 90, longitude: 0)).text(units: .kilometres) == "↑ 0° N · 4,280 km")
        #expect(PinGuide(from: GeoPoint(latitude: 10, longitude: 20), to: GeoPoint(latitude: 9.99999, longitude: 20)).wholeDegrees == 180)
    }

    @Test func asciiTerminalsGetLettersForTheMarks() throws {
        let map = MapHarness(fix: LocationFix(coordinate: paris), values: ["HPLocation": MapPin(london, title: "London").propertyList], unicode: false)
        #expect(map.panel == " P London: \\ 330 NW | 344 km")
        #expect(map.position.hasSuffix(" km  48.8566 N, 2.3522 E"))
        #expect(map.position.contains("+------+"), "the scale bar in the terminal's ASCII stand-ins")
        #expect(map.cell(40, 10) == "@")
    }
}
