import Terminal
import Testing
@testable import MapFront

@Suite struct RendererLabelTests {
    func place(_ name: String, rank: Int = 0, population: Int = 0) -> Place {
        Place(name: name, country: "", coordinate: GeoPoint(latitude: 0, longitude: 0), population: population, rank: rank)
    }

    @Test func labelsNeverOverlapAndKeepAGap() {
        var placer = LabelPlacer(columns: 30, rows: 3)
        var generator = SplitMix(seed: 1)
        var placed: [PlacedLabel] = []
        for index in 0..<300 {
            let name = String(repeating: "x", count: 1 + Int(generator.next() % 8)) + "\(index)"
            if let label = placer.place(place(name), column: Int(generator.next() % 30), row: Int(generator.next() % 3)) { placed.append(label) }
        }
        #expect(placed.count >= 3)
        for (i, a) in placed.enumerated() {
            #expect(a.columns.lowerBound >= 0 && a.columns.upperBound < 30)
            for b in placed[(i + 1)...] where a.row == b.row {
                let apart = a.columns.upperBound + 1 < b.columns.lowerBound || b.columns.upperBound + 1 < a.columns.lowerBound
                #expect(apart, "\(a.place.name) at \(a.columns) and \(b.place.name) at \(b.columns) on row \(a.row)")
            }
        }
    }

    @Test func aLabelGoesLeftWhenTheRightIsTakenOrOffTheEdge() throws {
        var placer = LabelPlacer(columns: 20, rows: 1)
        let perth = placer.place(place("Perth"), column: 18, row: 0)
        let edge = try #require(perth)
        #expect(edge.textColumn == 13 && edge.markerColumn == 18)
        let fremantle = placer.place(place("Fremantle"), column: 17, row: 0)
        #expect(fremantle == nil, "its marker would sit inside Perth's label")
        let ab = placer.place(place("Ab"), column: 3, row: 0)
        let first = try #require(ab)
        #expect(first.textColumn == 4)
    }

    @Test func cellsKeptClearForTheScreensOwnMarksTakeNoLabel() throws {
        // The current location sits right beside Paris's dot, with the pin's title after it.
        var placer = LabelPlacer(columns: 30, rows: 2)
        placer.reserve(Rect(x: 11, y: 0, width: 8, height: 1))
        let placed = placer.place(place("Paris"), column: 10, row: 0)
        let paris = try #require(placed)
        #expect(paris.textColumn == 5, "pushed to the left of its dot: \(paris)")
        let inside = placer.place(place("Lyon"), column: 14, row: 0)
        #expect(inside == nil, "a dot inside the kept-clear span is not labelled")
        let below = placer.place(place("Lyon"), column: 14, row: 1)
        #expect(below != nil, "the next row is free")
    }

    @Test func zoomingInLetsLessProminentPlacesIn() {
        #expect(LabelPlacer.maximumRank(atZoom: 0) < LabelPlacer.maximumRank(atZoom: 6))
        #expect(LabelPlacer.maximumRank(atZoom: 14) == 10)
    }
}
