import Foundation
import Testing
@testable import MapFront

@Suite struct GeodataShapefileTests {
    typealias W = ShapefileWriter

    @Test func readsPolygonsWithHolesAsPartsInOrder() throws {
        let outer = W.square(west: 0, south: 0, east: 10, north: 10)
        let hole = W.square(west: 4, south: 4, east: 6, north: 6).reversed().map { $0 }
        let bytes = W.shp(type: 5, [.parts(type: 5, [outer, hole]), .parts(type: 5, [W.square(west: 20, south: 20, east: 21, north: 21)])])
        let contents = try ShapefileReader.read(bytes: bytes, file: "t.shp")
        #expect(contents.kind == .polygon)
        #expect(contents.recordCount == 2)
        #expect(contents.partCount == 3)
        #expect(contents.recordParts[0] == 0..<2 && contents.recordParts[1] == 2..<3)
        #expect(contents.points(ofPart: 1) == 5..<10)
        #expect(contents.xs[5] == 4 && contents.ys[5] == 4)
        #expect(contents.xs.count == 15)
    }

    @Test func readsPolylinesAndPointsWithNullRecordsKeptInLine() throws {
        let lines = try ShapefileReader.read(bytes: W.shp(type: 3, [.parts(type: 3, [[(1, 2), (3, 4), (5, 6)]])]), file: "l.shp")
        #expect(lines.kind == .polyline && lines.partCount == 1 && lines.ys == [2, 4, 6])

        let points = try ShapefileReader.read(bytes: W.shp(type: 1, [.point(x: 2.35, y: 48.85), .null, .point(x: -180, y: -90)]), file: "p.shp")
        #expect(points.kind == .point)
        #expect(points.recordCount == 3)
        #expect(points.recordParts[1].isEmpty, "a null shape keeps its place, so record 3 still matches .dbf row 3")
        #expect(points.xs == [2.35, -180] && points.ys == [48.85, -90])
    }

    @Test func everyTruncationGivesAnErrorNamingTheFile() {
        let bytes = W.shp(type: 5, [.parts(type: 5, [W.square(west: 0, south: 0, east: 10, north: 10)]), .point(x: 0, y: 0)].prefix(1).map { $0 })
        for length in 0..<bytes.count {
            do {
                _ = try ShapefileReader.read(bytes: Array(bytes.prefix(length)), file: "ne_50m_land.shp")
                Issue.record("a file cut to \(length) of \(bytes.count) bytes was accepted")
            } catch {
                #expect(error.file == "ne_50m_land.shp")
                #expect(error.description.hasPrefix("ne_50m_land.shp: "))
                #expect(error.reason.contains("truncated"), "\(length) bytes: \(error.reason)")
            }
        }
    }

    @Test func corruptRecordsAreRefusedWithTheReason() {
        let good = W.shp(type: 5, [.parts(type: 5, [W.square(west: 0, south: 0, east: 10, north: 10)])])
        func reason(_ patch: (inout [UInt8]) -> Void) -> String? {
            var bytes = good
            patch(&bytes)
            do {
                _ = try ShapefileReader.read(bytes: bytes, file: "x.shp")
                return nil
            } catch { return error.reason }
        }
        #expect(reason { $0[3] = 0 }?.contains("not a shapefile") == true)
        #expect(reason { $0.replaceSubrange(32..<36, with: W.le32(31)) }?.contains("shape type 31") == true)
        // 1 part but 1,000,000 points claimed in a record of 128 bytes.
        #expect(reason { $0.replaceSubrange(148..<152, with: W.le32(1_000_000)) }?.contains("do not fit") == true)
        #expect(reason { $0.replaceSubrange(152..<156, with: W.le32(7)) }?.contains("part 0 starts at point 7") == true)
        #expect(reason { $0.replaceSubrange(156..<164, with: W.leDouble(.nan)) }?.contains("not a longitude and latitude") == true)
        #expect(reason { $0.replaceSubrange(156..<164, with: W.leDouble(500_000)) }?.contains("not a longitude and latitude") == true)
        #expect(reason { $0.replaceSubrange(104..<108, with: W.be32(0x7FFF_FFF0)) }?.contains("record 1") == true)
        #expect(reason { $0.replaceSubrange(108..<112, with: W.le32(3)) }?.contains("shape type 3 in a file of polygon") == true)
    }

    @Test func theIndexFindsRecordsPastUnusedBytes() throws {
        let first = W.shp(type: 3, [.parts(type: 3, [[(0, 0), (1, 1)]])])
        let second = W.shp(type: 3, [.parts(type: 3, [[(5, 5), (6, 6), (7, 7)]])])
        // Record 1, 24 bytes of junk, then record 2 (renumbered), as in ne_10m_admin_0_boundary_lines_land.
        let junk = [UInt8](repeating: 0xEE, count: 24)
        var bytes = Array(first[0..<first.count]) + junk + Array(second[100...])
        bytes.replaceSubrange(24..<28, with: W.be32(bytes.count / 2))
        let firstLength = first.count - 108, secondOffset = first.count + junk.count
        let index = W.shx([(100, firstLength), (secondOffset, second.count - 108)], shpLength: bytes.count)
        let contents = try ShapefileReader.read(bytes: bytes, file: "b.shp", index: index)
        #expect(contents.recordCount == 2 && contents.ys == [0, 1, 5, 6, 7])
        #expect(throws: GeodataError.self, "read in sequence, the junk is not a record") { try ShapefileReader.read(bytes: bytes, file: "b.shp") }

        let pastTheEnd = W.shx([(100, firstLength), (bytes.count, 40)], shpLength: bytes.count)
        do {
            _ = try ShapefileReader.read(bytes: bytes, file: "b.shp", index: pastTheEnd, indexFile: "b.shx")
            Issue.record("an index pointing past the end was accepted")
        } catch {
            #expect(error.file == "b.shp" && error.reason.contains("b.shx") && error.reason.contains("record 2"))
        }
        #expect(throws: GeodataError.self, "a truncated index") {
            try ShapefileReader.read(bytes: bytes, file: "b.shp", index: Array(index.dropLast(3)))
        }
    }

    @Test func randomDamageNeverCrashes() {
        let good = W.shp(type: 5, [.parts(type: 5, [W.square(west: 0, south: 0, east: 10, north: 10), W.square(west: 1, south: 1, east: 2, north: 2)]),
                                    .parts(type: 5, [W.square(west: -5, south: -5, east: -1, north: -1)])])
        var generator = SplitMix(seed: 6)
        var refused = 0
        for _ in 0..<2_000 {
            var bytes = good
            for _ in 0..<(1 + Int(generator.next() % 4)) {
                bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
            }
            if (try? ShapefileReader.read(bytes: bytes, file: "x.shp")) == nil { refused += 1 }
        }
        #expect(refused > 0, "some of the damage must be noticed")
    }
}

@Suite struct GeodataDBFTests {
    typealias W = ShapefileWriter
    let columns = [W.Column(name: "NAME", type: "C", length: 12), .init(name: "POP_MAX", type: "N", length: 9)]

    @Test func readsColumnsByNameWhateverTheirCaseAndDecodesCodePage1252() throws {
        let table = try DBFTable.read(bytes: W.dbf(columns, [["São Paulo", "18845000"], ["Zürich", "1108000"], ["", "7"]]), file: "p.dbf")
        #expect(table.recordCount == 3)
        let name = try #require(table.field(named: "name")), population = try #require(table.field(named: "Pop_Max"))
        #expect(table.string(0, name) == "São Paulo")
        #expect(table.string(1, name) == "Zürich")
        #expect(table.string(2, name) == nil)
        #expect(table.int(0, population) == 18_845_000)
        #expect(table.field(named: "nothing") == nil)
    }

    @Test func readsUTF8WhenNoCodePageIsDeclared() throws {
        let table = try DBFTable.read(bytes: W.dbf(columns, [["São Paulo", "1"]], languageDriver: 0, encode: { Array($0.utf8) }), file: "p.dbf")
        #expect(table.string(0, table.fields[0]) == "São Paulo")
    }

    @Test func truncatedOrInconsistentTablesAreRefused() {
        let bytes = W.dbf(columns, [["Paris", "11000000"], ["Lyon", "1400000"]])
        for length in [0, 10, 40, 70, bytes.count - 20] {
            #expect(throws: GeodataError.self, "\(length) bytes") { try DBFTable.read(bytes: Array(bytes.prefix(length)), file: "p.dbf") }
        }
        do {
            _ = try DBFTable.read(bytes: Array(bytes.prefix(bytes.count - 20)), file: "ne_10m_populated_places_simple.dbf")
        } catch {
            #expect(error.description.hasPrefix("ne_10m_populated_places_simple.dbf: ") && error.reason.contains("truncated"))
        }
        var wrongLength = bytes
        wrongLength[10] = 99
        #expect(throws: GeodataError.self) { try DBFTable.read(bytes: wrongLength, file: "p.dbf") }
    }

    @Test func randomDamageToATableNeverCrashes() throws {
        let good = W.dbf(columns, (0..<20).map { ["Place \($0)", String($0 * 1000)] })
        let shapes = try ShapefileReader.read(bytes: W.shp(type: 1, (0..<20).map { .point(x: Double($0), y: Double($0)) }), file: "p.shp")
        var generator = SplitMix(seed: 9)
        var read = 0
        for _ in 0..<2_000 {
            var bytes = good
            for _ in 0..<(1 + Int(generator.next() % 4)) {
                bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
            }
            guard let table = try? DBFTable.read(bytes: bytes, file: "p.dbf") else { continue }
            read += 1
            // Reading every field of every row, and turning rows into places, must not trap.
            for record in 0..<table.recordCount { for field in table.fields { _ = table.string(record, field); _ = table.int(record, field) } }
            _ = try? PlacesReader.places(shapes, table)
        }
        #expect(read > 0)
    }

    @Test func placesComeSortedByRankThenPopulationWithAsciiNamesOnlyWhenTheyDiffer() throws {
        let shapes = try ShapefileReader.read(bytes: W.shp(type: 1, [.point(x: 1, y: 1), .point(x: 2, y: 2), .point(x: 3, y: 3)]), file: "p.shp")
        let cols = [W.Column(name: "NAME", type: "C", length: 12), .init(name: "NAMEASCII", type: "C", length: 12),
                    .init(name: "ADM0NAME", type: "C", length: 8), .init(name: "POP_MAX", type: "N", length: 9), .init(name: "SCALERANK", type: "N", length: 3)]
        let table = try DBFTable.read(bytes: W.dbf(cols, [["Town", "Town", "A", "500", "5"], ["São Paulo", "Sao Paulo", "Brazil", "18845000", "0"],
                                                        ["Paris", "Paris", "France", "11000000", "0"]]), file: "p.dbf")
        let places = try PlacesReader.places(shapes, table)
        #expect(places.map(\.name) == ["São Paulo", "Paris", "Town"])
        #expect(places[0].asciiName == "Sao Paulo" && places[1].asciiName == nil)
        #expect(places[0].coordinate == GeoPoint(latitude: 2, longitude: 2) && places[0].country == "Brazil" && places[0].rank == 0)

        let short = try ShapefileReader.read(bytes: W.shp(type: 1, [.point(x: 1, y: 1)]), file: "p.shp")
        #expect(throws: GeodataError.self, "a .dbf with more rows than the .shp has points") { try PlacesReader.places(short, table) }
    }
}

@Suite(.requires(.naturalEarth)) struct GeodataNaturalEarthTests {
    let catalog = MapDataCatalog()

    @Test func theInstalledFilesReadWhole() throws {
        // scripts/setup installs libmagics++-data; without it this fails and says so.
        let path = catalog.land(.coarse)
        try #require(FileManager.default.fileExists(atPath: path), "\(path) is missing: \(MapDataCatalog.installHint)")
        let land = try ShapefileReader.read(path: path)
        #expect(land.kind == .polygon && land.recordCount == 127)
        let level = try MapLevel.load(.coarse, from: catalog)
        #expect(level.land.edgeCount > 5_000 && level.coastlines.segmentCount > 5_000 && level.boundaries.segmentCount > 500)
        let places = try PlacesReader.read(shapefile: catalog.placesShapefile, table: catalog.placesTable)
        #expect(places.count > 7_000)
        let paris = try #require(places.first { $0.name == "Paris" && $0.country == "France" })
        #expect(abs(paris.coordinate.latitude - 48.87) < 0.1 && abs(paris.coordinate.longitude - 2.33) < 0.1 && paris.rank == 0)
        #expect(places.contains { $0.name == "Västerås" && $0.asciiName == "Vasteraas" }, "code page 1252 names decode")
        #expect(places.contains { $0.name == "Panevežys" }, "including 1252's own letters in 0x80–0x9F")
        // The 1:10m borders have unused bytes between records: only the .shx finds them.
        let borders = try ShapefileReader.read(path: catalog.boundaries(.fine))
        #expect(borders.kind == .polyline && borders.recordCount > 400)
    }
}

/// A small deterministic generator for damage tests.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
