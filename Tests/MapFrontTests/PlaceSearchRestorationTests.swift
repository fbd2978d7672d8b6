import Foundation
@testable import MapFront
import Restoration
import Screens
import Terminal
import Testing

/// "Find a place" open at a relaunch comes back open, with the name as typed and its matches.
@Suite("Map screen: the place finder through a relaunch")
struct PlaceSearchRestorationTests {
    private let towns = [
        Place(name: "Zürich", asciiName: "Zurich", country: "Switzerland", coordinate: GeoPoint(latitude: 47.37, longitude: 8.54), population: 1_108_000, rank: 1),
        Place(name: "Zug", country: "Switzerland", coordinate: GeoPoint(latitude: 47.17, longitude: 8.52), population: 30_000, rank: 5),
    ]

    private func archive(_ harness: MapHarness) throws -> Data {
        let header = RestorationHeader(appVersion: "test", timestamp: Date(), terminalColumns: 80, terminalRows: 24)
        return try RestorationEngine(duplicatePolicy: .fail).preserve(root: harness.screen, modals: harness.app.restorableModals, header: header).data
    }

    @Test func aHalfTypedNameComesBackInTheFinderAndStillFindsThePlace() throws {
        let first = MapHarness(places: towns)
        try first.press(.character("/"))
        try first.type("zuri")
        try first.press(.left)
        let data = try archive(first)

        let second = MapHarness(places: towns) { screen in _ = try? RestorationEngine().restore(from: data, root: screen) }
        let finder = try #require(second.app.modals.last as? PlaceSearchScreen)
        #expect(finder.field.text == "zuri" && finder.field.cursor == 3)
        #expect(second.lines.contains { $0.contains("Name: zuri") })
        #expect(second.lines.contains { $0.contains("▸ Zürich, Switzerland") })
        try second.type("c")
        #expect(finder.field.text == "zurci")
        try second.press(.backspace, .end, .character("c"), .enter)
        #expect(second.screen.state.selectedPlace?.name == "Zürich", "the restored finder centres the restored map")
    }

    @Test func aClosedFinderIsNotAskedAgain() throws {
        let first = MapHarness(places: towns)
        try first.press(.character("/"))
        try first.type("zu")
        try first.press(.escape)
        let data = try archive(first)
        let second = MapHarness(places: towns) { screen in _ = try? RestorationEngine().restore(from: data, root: screen) }
        #expect(second.app.modals.isEmpty)
    }
}
