import Testing
@testable import MapFront

@Suite struct BrailleRasterTests {
    @Test func dotsUseUnicodesBitLayout() {
        // (x, y) within a cell → the braille dot number's bit.
        let expected: [(Int, Int, UInt32)] = [(0, 0, 0x01), (0, 1, 0x02), (0, 2, 0x04), (1, 0, 0x08), (1, 1, 0x10), (1, 2, 0x20), (0, 3, 0x40), (1, 3, 0x80)]
        for (x, y, bit) in expected {
            var raster = BrailleRaster(columns: 1, rows: 1)
            raster.set(x: x, y: y)
            #expect(BrailleRaster.character(raster[0, 0]) == Character(Unicode.Scalar(0x2800 + bit)!), "dot (\(x), \(y))")
        }
        var full = BrailleRaster(columns: 2, rows: 1)
        for y in 0..<4 { full.setSpan(y: y, from: 0, to: 2) }
        #expect(BrailleRaster.character(full[0, 0]) == "⣿" && full[1, 0] == 0)
        #expect(BrailleRaster.character(0) == "\u{2800}")
    }

    @Test func dotsOutsideAreIgnored() {
        var raster = BrailleRaster(columns: 2, rows: 2)
        raster.set(x: -1, y: 0)
        raster.set(x: 4, y: 0)
        raster.set(x: 0, y: 8)
        raster.setSpan(y: 9, from: 0, to: 4)
        raster.setSpan(y: 0, from: -10, to: -2)
        #expect(raster.dotCount == 0)
        raster.setSpan(y: 5, from: -3, to: 100)
        #expect(raster.dotCount == 4 && raster[0, 1] == 0x12 && raster[1, 1] == 0x12)
    }

    @Test func linesSetEveryDotBetweenTheirEnds() {
        var raster = BrailleRaster(columns: 4, rows: 2)
        raster.drawLine(fromX: 0.5, y: 0.5, toX: 7.5, y: 0.5)
        #expect((0..<8).allSatisfy { raster.isSet(x: $0, y: 0) } && raster.dotCount == 8)
        #expect(BrailleRaster.character(raster[0, 0]) == "⠉")

        var diagonal = BrailleRaster(columns: 4, rows: 2)
        diagonal.drawLine(fromX: 0.5, y: 0.5, toX: 7.5, y: 7.5)
        #expect((0..<8).allSatisfy { diagonal.isSet(x: $0, y: $0) } && diagonal.dotCount == 8)
    }

    @Test func linesFromFarOffScreenAreClippedNotWalked() {
        var raster = BrailleRaster(columns: 4, rows: 2)
        raster.drawLine(fromX: -1e12, y: 3.5, toX: 1e12, y: 3.5)
        #expect(raster.dotCount == 8 && (0..<8).allSatisfy { raster.isSet(x: $0, y: 3) })
        raster.drawLine(fromX: -50, y: -50, toX: -10, y: 100)
        raster.drawLine(fromX: .nan, y: 0, toX: 3, y: 3)
        #expect(raster.dotCount == 8)
    }

    @Test func aSegmentInsideIsClippedToTheSameEndsAsTheEdgesGive() {
        // Inside the margin the edges leave t0 = 0 and t1 = 1; the short way must give back the
        // very same doubles (x0 + dx, not x1), or a dot on a boundary would move.
        var generator = SystemRandomNumberGenerator()
        let width = 160.0, height = 88.0
        func coordinate(_ limit: Double) -> Double {
            switch Int.random(in: 0..<8, using: &generator) {
            case 0: -1
            case 1: limit + 1
            case 2: Double(Int.random(in: 0...Int(limit), using: &generator))
            default: Double.random(in: -1...(limit + 1), using: &generator)
            }
        }
        var endsMoved = 0
        for _ in 0..<20_000 {
            let x0 = coordinate(width), y0 = coordinate(height), x1 = coordinate(width), y1 = coordinate(height)
            let short = BrailleRaster.clip(x0, y0, x1, y1, width: width, height: height)
            let edges = BrailleRaster.clipToEdges(x0, y0, x1, y1, width: width, height: height)
            #expect(short.map { [$0.0, $0.1, $0.2, $0.3] } == edges.map { [$0.0, $0.1, $0.2, $0.3] }, "\(x0), \(y0) to \(x1), \(y1)")
            if let short, short.2 != x1 || short.3 != y1 { endsMoved += 1 }
        }
        // The sample reaches ends where x0 + (x1 - x0) is not x1, which returning x1 would miss.
        #expect(endsMoved > 0)
    }
}

@Suite struct BrailleFillTests {
    /// At zoom 0 a dot is 1.40625°, so edges on multiples of it fall between dot centres.
    let step = 360.0 / 256

    func index(_ rings: [[(Double, Double)]]) throws -> LandFillIndex {
        LandFillIndex(polygons: try ShapefileReader.read(bytes: ShapefileWriter.shp(type: 5, [.parts(type: 5, rings)]), file: "t.shp"))
    }

    func window(center: GeoPoint, zoom: Int = 0, columns: Int, rows: Int) -> DotWindow {
        DotWindow(projection: MapProjection(viewport: MapViewport(center: center, zoom: zoom), dotWidth: columns * 2, dotHeight: rows * 4))
    }

    @Test func aSquareFillsExactlyTheDotsWhoseCentresItCovers() throws {
        let square = try index([ShapefileWriter.square(west: 0, south: 0, east: 8 * step, north: 8 * step)])
        var raster = BrailleRaster(columns: 40, rows: 20)
        LandMask.fill(square, window: window(center: GeoPoint(latitude: 0, longitude: 0), columns: 40, rows: 20), into: &raster)
        // The view's centre (0°, 0°) is dot (40, 40); the square is 8 × 8 dots up and right of it.
        #expect(raster.dotCount == 64)
        for y in 32..<40 { for x in 40..<48 { #expect(raster.isSet(x: x, y: y), "dot (\(x), \(y))") } }
        #expect(raster[20, 8] == 0xFF && raster[23, 9] == 0xFF, "whole cells are all eight dots")
    }

    @Test func holesAreCutOutByTheEvenOddRule() throws {
        let ring = try index([ShapefileWriter.square(west: 0, south: 0, east: 8 * step, north: 8 * step),
                              ShapefileWriter.square(west: 2 * step, south: 2 * step, east: 6 * step, north: 6 * step)])
        var raster = BrailleRaster(columns: 40, rows: 20)
        LandMask.fill(ring, window: window(center: GeoPoint(latitude: 0, longitude: 0), columns: 40, rows: 20), into: &raster)
        #expect(raster.dotCount == 64 - 16)
        #expect(!raster.isSet(x: 43, y: 35) && raster.isSet(x: 41, y: 35))
    }

    @Test func landCutAtTheAntimeridianFillsAcrossItWithoutASeam() throws {
        // As Natural Earth stores it: one piece ending at 180°, one starting at -180°.
        let land = try index([ShapefileWriter.square(west: 170, south: 0, east: 180, north: 10),
                              ShapefileWriter.square(west: -180, south: 0, east: -170, north: 10)])
        var raster = BrailleRaster(columns: 40, rows: 20)
        let view = window(center: GeoPoint(latitude: 5, longitude: 180), zoom: 3, columns: 40, rows: 20)
        LandMask.fill(land, window: view, into: &raster)
        let row = Int(view.y(latitude: 5))
        let dots = (0..<80).filter { raster.isSet(x: $0, y: row) }
        // 20° at 360/2048 degrees a dot is 113.8 dots, wider than the view: the row is full.
        #expect(dots.count == 80)
        #expect(raster.isSet(x: 39, y: row) && raster.isSet(x: 40, y: row))
    }

    @Test func aViewWiderThanTheWorldRepeatsIt() throws {
        let land = try index([ShapefileWriter.square(west: 160, south: 0, east: 160 + 8 * step, north: 8 * step)])
        var raster = BrailleRaster(columns: 200, rows: 20)  // 400 dots = 562.5° at zoom 0
        LandMask.fill(land, window: window(center: GeoPoint(latitude: 0, longitude: 0), columns: 200, rows: 20), into: &raster)
        #expect(raster.dotCount == 128, "two copies of 64 dots")
        let first = 200 + Int((160 / step - 0.5).rounded(.up))
        #expect(raster.isSet(x: first, y: 35) && raster.isSet(x: first - 256, y: 35))
    }

    @Test func thePolesDrawWithoutGoingPastThem() throws {
        // Antarctica as Natural Earth closes it: along the south pole and the antimeridian.
        let antarctica = try index([[(-180, -80), (-180, -90), (180, -90), (180, -80), (-180, -80)]])
        var raster = BrailleRaster(columns: 40, rows: 20)
        let view = window(center: GeoPoint(latitude: -90, longitude: 0), zoom: 1, columns: 40, rows: 20)
        LandMask.fill(antarctica, window: view, into: &raster)
        // Above the pole (top half of the view) is land down to -90; below it is off the world.
        let poleRow = Int(view.y(latitude: -90))
        #expect(poleRow == 40)
        #expect((0..<80).allSatisfy { raster.isSet(x: $0, y: poleRow - 1) })
        #expect(!(0..<80).contains { raster.isSet(x: $0, y: poleRow) })
        #expect(!(0..<80).contains { raster.isSet(x: $0, y: Int(view.y(latitude: -79))) })
    }
}
