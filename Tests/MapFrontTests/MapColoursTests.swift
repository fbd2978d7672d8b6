import Defaults
import Foundation
@testable import MapFront
import Screens
import ScreensTesting
import Terminal
import Testing

/// The map as the Map tab draws it from real (fixture) data, in every map type, with a town's
/// label, the pin, the found place, the current location and the pin's arrow on the edge:
/// every character's style resolved against the common palettes. Words and marks are held to
/// 4.5:1; the braille of land, coasts and borders is a picture, held to WCAG's 3:1 for the
/// parts of a picture needed to understand it.
@Suite("Map: colours people can read")
struct MapColoursTests {
    let step = 360.0 / 256  // degrees a dot at zoom 0

    /// An island with a border across it and a town, as in the first-frame tests.
    func island() throws -> FixtureMapData {
        let data = try FixtureMapData()
        try data.writeWorld(land: [[ShapefileWriter.square(west: 0, south: 0, east: 24 * step, north: 24 * step)]],
                            borders: [[(12 * step, 0), (12 * step, 24 * step)]],
                            places: [(name: "Alpha", x: 4 * step, y: 20 * step, rank: 0, population: 900)])
        return data
    }

    private func walk(mapType: Int, colors: Bool, into drawn: inout DrawnStyles) throws {
        let data = try island()
        let store = InMemoryPreferenceStore(registration: ["HPMapType": .integer(Int64(mapType)), "HPFollowHeading": .integer(0), "WLUnits": .string("km")])
        let here = GeoPoint(latitude: 6 * step, longitude: 18 * step)
        let screen = MapScreen(drawer: ShapefileMapRenderer(catalog: data.catalog, notify: {}),
                               location: MovingLocationSource(LocationFix(coordinate: here, course: 40)), store: store)
        screen.state.viewport = MapViewport(exactly: GeoPoint(latitude: 12 * step, longitude: 12 * step), zoom: 0)
        screen.state.selectedPlace = SelectedPlace(name: "Beta", coordinate: GeoPoint(latitude: 10 * step, longitude: 6 * step))
        let pilot = Pilot(screen, columns: 80, rows: 24, capabilities: .init(colors: colors, unicode: true))
        #expect(screen.dataStatus == .ready)
        if mapType == 2 { #expect(pilot.lines.contains { $0.contains("•Alpha") }, "the town's label: \(pilot.lines)") }
        drawn.collect(pilot.terminal.frame)
        try pilot.type("r")
        try pilot.type("Home")
        drawn.collect(pilot.terminal.frame)
        try pilot.press(.enter)
        drawn.collect(pilot.terminal.frame)
        for _ in 0..<10 { try pilot.press(.left) }  // the pin off screen: its arrow on the edge
        drawn.collect(pilot.terminal.frame)
        try pilot.type("t")  // following with heading: the location as an arrow
        drawn.collect(pilot.terminal.frame)
    }

    @Test("in every map type, with colours and without", arguments: [true, false])
    func everyMapType(colors: Bool) throws {
        var drawn = DrawnStyles()
        for mapType in 0...2 { try walk(mapType: mapType, colors: colors, into: &drawn) }
        #expect(!drawn.graphics.isEmpty, "the walk drew land and lines")
        let problems = drawn.contrastProblems()
        let weakest = drawn.weakestTextContrast().map { "\($0.palette) \(DrawnStyles.ratio($0.ratio)):1 (\($0.style))" }
        #expect(problems.isEmpty, "\(problems.count) pairs under the minimum; weakest text per palette: \(weakest.joined(separator: "; "))\n\(problems.joined(separator: "\n"))")
    }
}
