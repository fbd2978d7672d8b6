import Foundation
import KeyedArchive
@testable import MapFront
import Restoration
import Screens
import Terminal
import Testing

/// A relaunch through the real restoration engine: the map comes back as a place and a zoom
/// level, whatever the terminal size, and a damaged archive costs only what is damaged.
@Suite("Map screen: restoration")
struct MapScreenRestorationTests {
    private func archive(_ root: Screen) throws -> Data {
        let header = RestorationHeader(appVersion: "test", timestamp: Date(), terminalColumns: 80, terminalRows: 24)
        return try RestorationEngine(duplicatePolicy: .fail).preserve(root: root, header: header).data
    }

    @Test func theViewportAndTheSelectedPlaceComeBackOnTheFirstFrame() throws {
        let zurich = Place(name: "Zürich", asciiName: "Zurich", country: "Switzerland", coordinate: GeoPoint(latitude: 47.37, longitude: 8.54), population: 1_108_000, rank: 1)
        let first = MapHarness(places: [zurich])
        try first.press(.character("/"))
        try first.type("zurich")
        try first.press(.enter, .character("+"), .character("+"), .right)
        let saved = first.viewport
        #expect(saved.zoom == 8)
        let data = try archive(first.screen)

        // Another terminal size, a fresh screen, restored before its first frame.
        var report: RestorationEngine.Report?
        let second = MapHarness(columns: 120, rows: 40) { screen in
            report = try? RestorationEngine().restore(from: data, root: screen)
        }
        #expect(report?.restoredPaths == ["Map"])
        #expect(second.terminal.framesPresented == 1)
        #expect(second.viewport == saved)
        #expect(second.screen.state.selectedPlace == SelectedPlace(name: "Zürich", coordinate: zurich.coordinate))
        #expect(second.lines[37].contains("Zoom 8/14") && second.lines[37].contains(saved.center.description))
        #expect(second.lines.contains { $0.contains("◆ Zürich") })
    }

    @Test func aHalfTypedPinTitleComesBackAndStillSavesThePin() throws {
        let first = MapHarness(fix: LocationFix(coordinate: paris))
        try first.press(.character("r"))
        try first.press(.control("u"))
        try first.type("Café de Fl")
        let header = RestorationHeader(appVersion: "test", timestamp: Date(), terminalColumns: 80, terminalRows: 24)
        let data = try RestorationEngine(duplicatePolicy: .fail)
            .preserve(root: first.screen, modals: first.app.restorableModals, header: header).data
        #expect(first.store.values["HPLocation"] == nil, "nothing is pinned until Enter")

        var restoredModals: [any Restorable] = []
        var report: RestorationEngine.Report?
        let second = MapHarness(fix: LocationFix(coordinate: london)) { screen in
            var registry = RestorationClassRegistry()
            RememberPlacePrompt.register(in: &registry, store: screen.store)
            report = try? RestorationEngine(registry: registry).restore(from: data, root: screen) { restoredModals.append($0) }
        }
        #expect(report?.restoredPaths == ["Map", "Modals/RememberPlacePrompt"])
        let prompt = try #require(restoredModals.first as? RememberPlacePrompt)
        #expect(prompt.field.text == "Café de Fl" && prompt.field.cursor == 10)
        #expect(prompt.target == paris, "the pin goes where it was going, not to where the location is now")
        second.app.presentModal(prompt)
        try second.type("ore")
        try second.press(.enter)
        #expect(MapPin(propertyList: second.store.values["HPLocation"]) == MapPin(paris, title: "Café de Flore"))
        #expect(second.screen.pin?.title == "Café de Flore", "the map follows the key the restored prompt wrote")
    }

    @Test func aPinTitleSavedUnderThePromptsFormerIdentifierComesBack() throws {
        let first = MapHarness(fix: LocationFix(coordinate: paris))
        try first.press(.character("r"))
        try first.press(.control("u"))
        try first.type("Café")
        let prompt = try #require(first.app.restorableModals.first as? RememberPlacePrompt)
        prompt.restorationIdentifier = "RememberPlace"  // as every archive before the rename
        let header = RestorationHeader(appVersion: "test", timestamp: Date(), terminalColumns: 80, terminalRows: 24)
        let data = try RestorationEngine(duplicatePolicy: .fail)
            .preserve(root: first.screen, modals: first.app.restorableModals, header: header).data

        var restoredModals: [any Restorable] = []
        var report: RestorationEngine.Report?
        _ = MapHarness(fix: LocationFix(coordinate: london)) { screen in
            var registry = RestorationClassRegistry()
            RememberPlacePrompt.register(in: &registry, store: screen.store)
            report = try? RestorationEngine(registry: registry).restore(from: data, root: screen) { restoredModals.append($0) }
        }
        #expect(report?.restoredPaths == ["Map", "Modals/RememberPlace"])
        let restored = try #require(restoredModals.first as? RememberPlacePrompt)
        #expect(restored.field.text == "Café")
        #expect(restored.restorationIdentifier == "RememberPlacePrompt", "saved under its new name from now on")
    }

    @Test func aPausedFollowStaysWhereItWasAndALiveOneFollowsAgain() throws {
        let first = MapHarness(fix: LocationFix(coordinate: paris))
        try first.press(.left, .character("-"))
        let data = try archive(first.screen)
        let paused = MapHarness(fix: LocationFix(coordinate: paris)) { _ = try? RestorationEngine().restore(from: data, root: $0) }
        #expect(paused.viewport == first.viewport)
        #expect(paused.modes.contains("Follow (paused: . resumes)"))

        // Following, not paused: the relaunch centres on where the location is now, at the
        // saved zoom.
        let live = MapHarness(fix: LocationFix(coordinate: paris))
        try live.press(.character("+"), .character("+"))
        let liveData = try archive(live.screen)
        let moved = MapHarness(fix: LocationFix(coordinate: london)) { _ = try? RestorationEngine().restore(from: liveData, root: $0) }
        #expect(moved.viewport == MapViewport(exactly: london, zoom: 6))
    }

    /// Saves values of the wrong types and off the globe under the map's keys.
    private final class DamagedMap: Screen {
        let values: (KeyedArchiver) throws -> Void
        init(_ values: @escaping (KeyedArchiver) throws -> Void) {
            self.values = values
            super.init(title: "Map", restorationIdentifier: "Map")
        }
        override func encodeRestorableState(with coder: KeyedArchiver) throws { try values(coder) }
    }

    @Test func wrongTypesAndImpossibleValuesKeepTheDefaults() throws {
        let damaged = try archive(DamagedMap { coder in
            try coder.encode("north", forKey: "centerLatitude")
            coder.encode(10.0, forKey: "centerLongitude")
            coder.encode(99, forKey: "zoom")
            try coder.encode("yes", forKey: "trackingPaused")
            coder.encode(5, forKey: "selectedPlaceName")
        })
        let map = MapHarness { _ = try? RestorationEngine().restore(from: damaged, root: $0) }
        #expect(map.viewport == .world)
        #expect(map.screen.state.selectedPlace == nil)

        let offTheGlobe = try archive(DamagedMap { coder in
            coder.encode(120.0, forKey: "centerLatitude")
            coder.encode(10.0, forKey: "centerLongitude")
            coder.encode(3, forKey: "zoom")
            coder.encode(Double.nan, forKey: "selectedPlaceLatitude")
            coder.encode(1.0, forKey: "selectedPlaceLongitude")
            try coder.encode("Nowhere", forKey: "selectedPlaceName")
        })
        let partly = MapHarness { _ = try? RestorationEngine().restore(from: offTheGlobe, root: $0) }
        #expect(partly.viewport == MapViewport(center: MapViewport.world.center, zoom: 3), "the good zoom is kept, the bad centre is not")
        #expect(partly.screen.state.selectedPlace == nil)

        let empty = try archive(DamagedMap { _ in })
        let untouched = MapHarness { _ = try? RestorationEngine().restore(from: empty, root: $0) }
        #expect(untouched.viewport == .world)
    }

    @Test func theSavedStateIsAPlaceAndAZoomNeverCells() throws {
        let map = MapHarness()
        map.show(MapViewport(exactly: GeoPoint(latitude: -17, longitude: 180), zoom: 5))
        let data = try archive(map.screen)
        let description = try RestorationEngine().describe(data)
        let values = try #require(description.nodes.first { $0.path == "Map" }).values
        #expect(Set(values.map(\.key)) == ["centerLatitude", "centerLongitude", "zoom", "trackingPaused"])
        #expect(values.contains { $0.key == "centerLongitude" && $0.value == .real(180) })
    }
}
