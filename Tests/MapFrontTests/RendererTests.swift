import Foundation
import Testing
import Terminal
@testable import MapFront

@Suite struct RendererTests {
    let step = 360.0 / 256  // degrees a dot at zoom 0

    /// A world with one square island 16 × 16 dots at zoom 0, north-east of (0°, 0°).
    func island() throws -> FixtureMapData {
        let data = try FixtureMapData()
        try data.writeWorld(land: [[ShapefileWriter.square(west: 0, south: 0, east: 16 * step, north: 16 * step)]],
                            borders: [[(8 * step, 0), (8 * step, 16 * step)]],
                            places: [(name: "Alpha", x: 2 * step, y: 14 * step, rank: 0, population: 900),
                                     (name: "Beta", x: 2.5 * step, y: 13.5 * step, rank: 1, population: 800),
                                     (name: "Gamma", x: 12 * step, y: 4 * step, rank: 1, population: 100)])
        return data
    }

    @Test func theFirstFrameNeverWaitsAndTheLoadedDataArrivesByWake() throws {
        let data = try island()
        let renderer = ShapefileMapRenderer(catalog: data.catalog, notify: {})
        let harness = RendererHarness(renderer: renderer, viewport: MapViewport(center: GeoPoint(latitude: 0, longitude: 0), zoom: 0), type: .satellite)
        // Never waited for; a fixture this small may still have loaded before the frame looked.
        #expect(harness.status == .loading("loading the 1:110m map…") || harness.status == .ready)
        renderer.finishLoading()
        harness.render()
        #expect(harness.status == .ready)
        #expect(renderer.loadedResolutions == [.coarse])
    }

    @Test func satelliteWithoutColourShowsLandAsDotsAndSeaBlank() throws {
        let data = try island()
        let renderer = ShapefileMapRenderer(catalog: data.catalog, notify: {})
        let harness = RendererHarness(renderer: renderer, viewport: MapViewport(center: GeoPoint(latitude: 0, longitude: 0), zoom: 0), type: .satellite)
        renderer.finishLoading()
        harness.render()
        // 40 × 11 cells = 80 × 44 dots; (0°, 0°) is dot (40, 22): the island covers columns
        // 20–27 and dot rows 6–21, i.e. text rows 1 (lower half), 2–4 and 5 (upper half).
        let lines = harness.mapLines
        #expect(lines[0] == "")
        #expect(lines[1] == String(repeating: " ", count: 20) + String(repeating: "⣤", count: 8))
        #expect(lines[2] == String(repeating: " ", count: 20) + String(repeating: "⣿", count: 8))
        #expect(lines[5] == String(repeating: " ", count: 20) + String(repeating: "⠛", count: 8))
        #expect(lines[6] == "")
    }

    @Test func standardDrawsOutlinesAndBorders() throws {
        let data = try island()
        let renderer = ShapefileMapRenderer(catalog: data.catalog, notify: {})
        let harness = RendererHarness(renderer: renderer, viewport: MapViewport(center: GeoPoint(latitude: 0, longitude: 0), zoom: 0), type: .standard, colors: true)
        renderer.finishLoading()
        harness.render()
        let row = harness.terminal.frame.text(row: 3)
        let cells = Array(row)
        #expect(cells[20] != " " && cells[28] != " ", "the coast's west and east sides (east edge on dot 56, column 28)")
        #expect(cells[21] == " " && cells[22] == " ", "outlines, not filled")
        #expect(cells[24] != " ", "the border down the middle")
        // Drawn on black, on which white and yellow lines read in every common palette.
        #expect(harness.terminal.frame[24, 3].style == Style(foreground: .yellow, background: .black))
        #expect(harness.terminal.frame[20, 3].style == Style(foreground: .white, background: .black))
        #expect(harness.terminal.frame[22, 3].style.background == .black, "the sea between the lines too")
    }

    @Test func colourSatelliteTellsLandFromSeaByBackground() throws {
        let data = try island()
        let renderer = ShapefileMapRenderer(catalog: data.catalog, notify: {})
        let harness = RendererHarness(renderer: renderer, viewport: MapViewport(center: GeoPoint(latitude: 0, longitude: 0), zoom: 0), type: .satellite, colors: true)
        renderer.finishLoading()
        harness.render()
        let frame = harness.terminal.frame
        #expect(frame[22, 3].style.background == .green && frame[22, 3].text == " ")
        #expect(frame[5, 8].style.background == .black && frame[5, 8].text == " ")
        #expect(frame[22, 1].style == Style(foreground: .green, background: .black) && frame[22, 1].text == "⣤", "a shore cell: land dots on the sea")
    }

    @Test func hybridLabelsCitiesWithAMarkerAndNeverOverlaps() throws {
        let data = try island()
        let renderer = ShapefileMapRenderer(catalog: data.catalog, notify: {})
        let harness = RendererHarness(renderer: renderer, viewport: MapViewport(center: GeoPoint(latitude: 0, longitude: 0), zoom: 0), type: .hybrid)
        renderer.finishLoading()
        harness.render()
        #expect(harness.status == .ready)
        let labels = renderer.lastLabels
        // Alpha and Beta are in neighbouring cells: only the more prominent one is named.
        #expect(labels.map(\.place.name).sorted() == ["Alpha", "Gamma"])
        let alpha = try #require(labels.first { $0.place.name == "Alpha" })
        #expect(harness.mapLines[alpha.row].contains("•Alpha"))
        #expect(Array(harness.mapLines[alpha.row])[alpha.markerColumn] == "•" && alpha.markerColumn == 21)
    }

    @Test func noOutlineWhereNaturalEarthCutsLandAtTheAntimeridian() throws {
        let data = try FixtureMapData()
        try data.writeWorld(land: [[ShapefileWriter.square(west: 170, south: 0, east: 180, north: 10)],
                                   [ShapefileWriter.square(west: -180, south: 0, east: -170, north: 10)]])
        let renderer = ShapefileMapRenderer(catalog: data.catalog, notify: {})
        // 14° × 7.7° around (5°, 180°): inside the land, away from every real coast.
        let harness = RendererHarness(renderer: renderer, viewport: MapViewport(center: GeoPoint(latitude: 5, longitude: 180), zoom: 3), type: .standard)
        renderer.finishLoading()
        harness.render()
        #expect(harness.status == .ready)
        #expect(harness.mapLines.allSatisfy { $0.isEmpty }, "\(harness.mapLines)")
        harness.render(type: .satellite)
        #expect(harness.mapLines.allSatisfy { $0 == String(repeating: "⣿", count: 40) })
    }

    @Test func missingDataSaysHowToInstallItAndDrawsNothing() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("wl-no-map-\(UUID().uuidString)").path
        let renderer = ShapefileMapRenderer(catalog: MapDataCatalog(directory: empty), notify: {})
        let harness = RendererHarness(renderer: renderer, viewport: MapViewport.world, type: .hybrid)
        #expect(harness.status == .missing("install the map data: sudo apt-get install libmagics++-data"))
        renderer.finishLoading()
        harness.render(MapViewport(center: GeoPoint(latitude: 0, longitude: 0), zoom: 9))
        #expect(harness.status == .missing(MapDataCatalog.installHint))
        #expect(harness.mapLines.allSatisfy { $0.isEmpty })
        #expect(renderer.places().isEmpty)
    }

    @Test func aTruncatedFileIsReportedByNameAndACoarserScaleStillDraws() throws {
        let data = try island()
        let good = ShapefileWriter.shp(type: 5, [.parts(type: 5, [ShapefileWriter.square(west: 0, south: 0, east: 10, north: 10)])])
        try data.write(Array(good.prefix(150)), .medium, "land")
        let renderer = ShapefileMapRenderer(catalog: data.catalog, notify: {})
        let harness = RendererHarness(renderer: renderer, viewport: MapViewport(center: GeoPoint(latitude: 5, longitude: 5), zoom: 4), type: .satellite)
        // The first frame takes what finished before it looked: loading, or already damaged.
        switch harness.status {
        case .loading?, .damaged?: break
        default: Issue.record("expected loading or damaged, got \(String(describing: harness.status))")
        }
        renderer.finishLoading()
        harness.render()
        guard case .damaged(let message) = harness.status else { Issue.record("expected damaged, got \(String(describing: harness.status))"); return }
        #expect(message.hasPrefix("ne_50m_land.shp: ") && message.contains("truncated"))
        #expect(harness.mapLines.contains { $0.contains("⣿") }, "the 1:110m land is drawn meanwhile")
    }

    @Test func aFinerScaleLoadsWhileTheCoarserOneIsDrawn() throws {
        let data = try island()
        let counter = WakeCounter()
        let renderer = ShapefileMapRenderer(catalog: data.catalog, notify: { counter.add() })
        let harness = RendererHarness(renderer: renderer, viewport: MapViewport(center: GeoPoint(latitude: 5, longitude: 5), zoom: 0), type: .satellite)
        renderer.finishLoading()
        let wakes = counter.count
        #expect(wakes >= 1)
        harness.render(MapViewport(center: GeoPoint(latitude: 5, longitude: 5), zoom: 7))
        // The frame takes whatever finished before it is drawn: a fixture this small may load
        // on its thread before the frame looks, and is then drawn at once.
        if harness.status == .ready {
            #expect(renderer.loadedResolutions.contains(.fine))
        } else {
            #expect(harness.status == .loading("loading the 1:10m map…"))
        }
        #expect(harness.mapLines.contains { $0.contains("⣿") }, "drawn from 1:110m meanwhile, or from 1:10m")
        renderer.finishLoading()
        harness.render()
        #expect(harness.status == .ready && renderer.loadedResolutions.contains(.fine))
    }

    @Test(.requires(.naturalEarth)) func theAntimeridianAndThePolesDrawFromRealData() throws {
        let renderer = ShapefileMapRenderer(notify: {})
        let harness = RendererHarness(renderer: renderer, viewport: MapViewport(center: GeoPoint(latitude: 65, longitude: 180), zoom: 3), type: .standard, columns: 60, rows: 20)
        renderer.finishLoading()
        harness.render()
        try #require(harness.status == .ready, "\(String(describing: harness.status))")
        // Chukotka's coasts on both sides of 180°.
        let lines = harness.mapLines
        #expect(lines.contains { $0.prefix(30).contains { $0 != " " } } && lines.contains { $0.dropFirst(30).contains { $0 != " " } })

        harness.render(MapViewport(center: GeoPoint(latitude: -90, longitude: 0), zoom: 2), type: .satellite)
        let south = harness.mapLines
        #expect(south[0..<9].contains { $0.contains("⣿") }, "Antarctica above the pole")
        #expect(south[10...].allSatisfy { $0.isEmpty }, "nothing below the south pole")
        harness.render(MapViewport(center: GeoPoint(latitude: -90, longitude: 0), zoom: 2), type: .standard)
        #expect(!harness.mapLines[9].contains("⠤⠤⠤⠤⠤⠤"), "no line along the pole where Antarctica is closed")
    }

    @Test(.requires(.naturalEarth)) func realLandIsWhereItShouldBe() throws {
        let renderer = ShapefileMapRenderer(notify: {})
        for resolution in MapResolution.allCases { renderer.preload(resolution) }
        renderer.finishLoading()
        let probes: [(GeoPoint, Bool)] = [(GeoPoint(latitude: 48.85, longitude: 2.35), true), (GeoPoint(latitude: 40, longitude: -40), false),
                                          (GeoPoint(latitude: -25, longitude: 135), true), (GeoPoint(latitude: 0, longitude: -150), false),
                                          (GeoPoint(latitude: 42, longitude: 50.5), false)]
        for resolution in MapResolution.allCases {
            for (point, isLand) in probes {
                let mask = try #require(renderer.landMask(for: MapViewport(center: point, zoom: 6), columns: 10, rows: 5, resolution: resolution))
                #expect(mask.isSet(x: 10, y: 10) == isLand, "\(resolution.rawValue) at \(point) (the Caspian is sea)")
            }
        }
    }
}

final class WakeCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func add() { lock.withLock { value += 1 } }
    var count: Int { lock.withLock { value } }
}
