import Foundation
@testable import MapFront

/// Writes tiny shapefiles and dBASE tables byte by byte, as the format specifications lay them
/// out, so reader tests know exactly what is in the file (and can break it on purpose).
enum ShapefileWriter {
    enum Shape {
        case null
        case point(x: Double, y: Double)
        /// Polyline (3) or polygon (5): parts of (x, y) points.
        case parts(type: Int, [[(Double, Double)]])
    }

    static func shp(type: Int, _ shapes: [Shape]) -> [UInt8] {
        var records: [UInt8] = []
        for (index, shape) in shapes.enumerated() {
            var content: [UInt8] = []
            switch shape {
            case .null:
                content += le32(0)
            case .point(let x, let y):
                content += le32(1) + leDouble(x) + leDouble(y)
            case .parts(let type, let parts):
                let points = parts.flatMap { $0 }
                content += le32(type)
                content += leDouble(points.map(\.0).min() ?? 0) + leDouble(points.map(\.1).min() ?? 0)
                content += leDouble(points.map(\.0).max() ?? 0) + leDouble(points.map(\.1).max() ?? 0)
                content += le32(parts.count) + le32(points.count)
                var start = 0
                for part in parts {
                    content += le32(start)
                    start += part.count
                }
                for point in points { content += leDouble(point.0) + leDouble(point.1) }
            }
            records += be32(index + 1) + be32(content.count / 2) + content
        }
        var header = be32(9994) + [UInt8](repeating: 0, count: 20) + be32((100 + records.count) / 2)
        header += le32(1000) + le32(type)
        header += [UInt8](repeating: 0, count: 64)
        return header + records
    }

    /// A .shx index listing records at (offset, content length) in bytes.
    static func shx(_ records: [(Int, Int)], shpLength: Int) -> [UInt8] {
        var bytes = be32(9994) + [UInt8](repeating: 0, count: 20) + be32((100 + records.count * 8) / 2) + le32(1000) + le32(3)
        bytes += [UInt8](repeating: 0, count: 64)
        for (offset, length) in records { bytes += be32(offset / 2) + be32(length / 2) }
        return bytes
    }

    struct Column {
        var name: String
        var type: Character  // "C" text, "N" number
        var length: Int
    }

    /// A dBASE III table; `languageDriver` 0x57 declares code page 1252, as Natural Earth does.
    static func dbf(_ columns: [Column], _ rows: [[String]], languageDriver: UInt8 = 0x57, encode: (String) -> [UInt8] = latin1) -> [UInt8] {
        let recordLength = 1 + columns.reduce(0) { $0 + $1.length }
        let headerLength = 32 + 32 * columns.count + 1
        var bytes: [UInt8] = [0x03, 124, 1, 1] + le32(rows.count)
        bytes += [UInt8(headerLength & 0xFF), UInt8(headerLength >> 8), UInt8(recordLength & 0xFF), UInt8(recordLength >> 8)]
        bytes += [UInt8](repeating: 0, count: 17) + [languageDriver, 0, 0]
        for column in columns {
            var name = Array(column.name.utf8.prefix(10))
            name += [UInt8](repeating: 0, count: 11 - name.count)
            bytes += name + [UInt8(column.type.asciiValue!)] + [0, 0, 0, 0] + [UInt8(column.length), 0] + [UInt8](repeating: 0, count: 14)
        }
        bytes.append(0x0D)
        for row in rows {
            bytes.append(0x20)
            for (column, value) in zip(columns, row) {
                var field = Array(encode(value).prefix(column.length))
                if column.type == "N" {
                    field = [UInt8](repeating: 0x20, count: column.length - field.count) + field
                } else {
                    field += [UInt8](repeating: 0x20, count: column.length - field.count)
                }
                bytes += field
            }
        }
        bytes.append(0x1A)
        return bytes
    }

    static func latin1(_ text: String) -> [UInt8] { text.unicodeScalars.map { $0.value <= 0xFF ? UInt8($0.value) : 0x3F } }

    static func le32(_ value: Int) -> [UInt8] { withUnsafeBytes(of: Int32(value).littleEndian, Array.init) }
    static func be32(_ value: Int) -> [UInt8] { withUnsafeBytes(of: Int32(value).bigEndian, Array.init) }
    static func leDouble(_ value: Double) -> [UInt8] { withUnsafeBytes(of: value.bitPattern.littleEndian, Array.init) }

    /// A closed square ring, clockwise as shapefile outer rings are.
    static func square(west: Double, south: Double, east: Double, north: Double) -> [(Double, Double)] {
        [(west, south), (west, north), (east, north), (east, south), (west, south)]
    }
}

/// A map data folder laid out like /usr/share/magics, written with fixture files.
final class FixtureMapData {
    let directory: URL
    var catalog: MapDataCatalog { MapDataCatalog(directory: directory.path) }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("wl-map-\(UUID().uuidString)")
        for resolution in MapResolution.allCases {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(resolution.rawValue), withIntermediateDirectories: true)
        }
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    func write(_ bytes: [UInt8], _ resolution: MapResolution, _ layer: String, _ ext: String = "shp") throws {
        let url = directory.appendingPathComponent("\(resolution.rawValue)/ne_\(resolution.rawValue)_\(layer).\(ext)")
        try Data(bytes).write(to: url)
    }

    /// Every scale: the given land polygons and border lines; places at 1:10m.
    func writeWorld(land: [[[(Double, Double)]]], borders: [[(Double, Double)]] = [], places: [(name: String, x: Double, y: Double, rank: Int, population: Int)] = []) throws {
        for resolution in MapResolution.allCases {
            try write(ShapefileWriter.shp(type: 5, land.map { .parts(type: 5, $0) }), resolution, "land")
            try write(ShapefileWriter.shp(type: 3, borders.map { .parts(type: 3, [$0]) }), resolution, "admin_0_boundary_lines_land")
        }
        try write(ShapefileWriter.shp(type: 1, places.map { .point(x: $0.x, y: $0.y) }), .fine, "populated_places_simple")
        let columns = [ShapefileWriter.Column(name: "name", type: "C", length: 30), .init(name: "nameascii", type: "C", length: 30),
                       .init(name: "adm0name", type: "C", length: 20), .init(name: "pop_max", type: "N", length: 10),
                       .init(name: "scalerank", type: "N", length: 4)]
        let rows = places.map { [$0.name, $0.name, "Fixture", String($0.population), String($0.rank)] }
        try write(ShapefileWriter.dbf(columns, rows), .fine, "populated_places_simple", "dbf")
    }
}
