// An ESRI shapefile (.shp) reader of our own, rather than shapelib (Debian libshp-dev):
// - it needs no second system library target, C headers or package on the user's machine
//   beyond the data itself;
// - every read is bounds-checked (ByteReader) and a truncated or corrupt file gives a
//   `GeodataError` that names the file, the record and the offset — shapelib reports failure
//   through NULL returns and stderr text the app could not show, and it has had out-of-bounds
//   reads on crafted files (CVE-2022-0699 and others);
// - the app needs only the x/y coordinates of three shape kinds (points, polylines, polygons
//   and their Z/M variants), about 150 lines, and reads them straight into the flat arrays
//   the renderer indexes, with no per-shape C allocation to copy out of.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What kind of geometry a shapefile holds (Z and M variants read as their plain kind: the
/// map only draws x and y).
public enum ShapeKind: Sendable, Hashable {
    case point
    case polyline
    case polygon

    init?(shapeType: Int) {
        switch shapeType {
        case 1, 11, 21, 8, 18, 28: self = .point
        case 3, 13, 23: self = .polyline
        case 5, 15, 25: self = .polygon
        default: return nil
        }
    }
}

/// A whole shapefile as flat coordinate arrays: the points of every part of every record
/// one after another, x = longitude and y = latitude in degrees.
public struct ShapefileContents: Sendable {
    public let kind: ShapeKind
    public var xs: [Double] = []
    public var ys: [Double] = []
    /// Start of each part in `xs`/`ys`, with one more entry at the end (= xs.count).
    public var partStarts: [Int] = [0]
    /// Per record (in file order, null shapes included so they line up with the .dbf rows):
    /// its parts as a range of indices into `partStarts`.
    public var recordParts: [Range<Int>] = []

    public var recordCount: Int { recordParts.count }
    public var partCount: Int { partStarts.count - 1 }
    public func points(ofPart part: Int) -> Range<Int> { partStarts[part]..<partStarts[part + 1] }
}

public enum ShapefileReader {
    static let headerLength = 100

    /// Reads `path` through its .shx index when there is one, as shapelib and GDAL do:
    /// Natural Earth's 1:10m borders have unused bytes between records that only the index
    /// skips. Without an index, records are read one after another.
    public static func read(path: String) throws(GeodataError) -> ShapefileContents {
        let shp = try ByteReader.contents(ofFile: path)
        let indexPath = (path.hasSuffix(".shp") ? String(path.dropLast(4)) : path) + ".shx"
        let index = access(indexPath, R_OK) == 0 ? try ByteReader.contents(ofFile: indexPath) : nil
        return try read(shp, index: index)
    }

    public static func read(bytes: [UInt8], file: String, index: [UInt8]? = nil, indexFile: String = "index.shx") throws(GeodataError) -> ShapefileContents {
        try read(ByteReader(bytes: bytes, file: file), index: index.map { ByteReader(bytes: $0, file: indexFile) })
    }

    static func read(_ reader: ByteReader, index: ByteReader?) throws(GeodataError) -> ShapefileContents {
        guard reader.count >= headerLength else {
            throw reader.error("only \(reader.count) bytes: a shapefile starts with a 100-byte header; the file is truncated")
        }
        guard try reader.int32BE(at: 0) == 9994 else { throw reader.error("not a shapefile (its first bytes are not the file code 9994)") }
        let declaredLength = try reader.int32BE(at: 24) * 2
        guard declaredLength >= headerLength else { throw reader.error("its header gives an impossible length of \(declaredLength) bytes") }
        guard declaredLength <= reader.count else {
            throw reader.error("its header says \(declaredLength) bytes but the file has \(reader.count): the file is truncated")
        }
        let shapeType = try reader.int32LE(at: 32)
        guard let kind = ShapeKind(shapeType: shapeType) else { throw reader.error("shape type \(shapeType) is not points, lines or polygons") }

        var contents = ShapefileContents(kind: kind)
        if let index {
            for (number, (offset, length)) in try recordsListed(in: index).enumerated() {
                let start = offset + 8
                guard offset >= headerLength, length >= 4, start <= declaredLength - length else {
                    throw reader.error("record \(number + 1) is listed in \(index.file) at byte \(offset) with \(length) bytes, outside the file's \(declaredLength) bytes: the file is truncated or the index does not belong to it")
                }
                try RecordReader(reader: reader, start: start, length: length, number: number + 1).read(into: &contents, kind: kind)
            }
            return contents
        }
        var offset = headerLength
        while offset < declaredLength {
            let recordNumber = contents.recordCount + 1
            try reader.require(offset, 8, "the header of record \(recordNumber)")
            let contentLength = try reader.int32BE(at: offset + 4) * 2
            let start = offset + 8
            guard contentLength >= 4, start + contentLength <= declaredLength else {
                throw reader.error("record \(recordNumber) at byte \(offset) claims \(contentLength) bytes, past the end of the data (\(declaredLength) bytes): the file is truncated or corrupt")
            }
            let record = RecordReader(reader: reader, start: start, length: contentLength, number: recordNumber)
            try record.read(into: &contents, kind: kind)
            offset = start + contentLength
        }
        return contents
    }

    /// The (offset, content length) in bytes of every record, from a .shx index.
    static func recordsListed(in index: ByteReader) throws(GeodataError) -> [(Int, Int)] {
        guard index.count >= headerLength, try index.int32BE(at: 0) == 9994 else {
            throw index.error("not a shapefile index (too short, or its first bytes are not the file code 9994)")
        }
        let declaredLength = try index.int32BE(at: 24) * 2
        guard declaredLength >= headerLength, declaredLength <= index.count, (declaredLength - headerLength) % 8 == 0 else {
            throw index.error("its header says \(declaredLength) bytes but the file has \(index.count): the file is truncated or corrupt")
        }
        var records: [(Int, Int)] = []
        records.reserveCapacity((declaredLength - headerLength) / 8)
        for entry in stride(from: headerLength, to: declaredLength, by: 8) {
            records.append((try index.int32BE(at: entry) * 2, try index.int32BE(at: entry + 4) * 2))
        }
        return records
    }
}

/// One record's content, every read kept inside the record's declared length.
private struct RecordReader {
    let reader: ByteReader
    let start: Int
    let length: Int
    let number: Int

    func fail(_ reason: String) -> GeodataError { reader.error("record \(number): \(reason)") }

    func read(into contents: inout ShapefileContents, kind: ShapeKind) throws(GeodataError) {
        let type = try reader.int32LE(at: start)
        let firstPart = contents.partCount
        if type == 0 {  // a null shape: no geometry, but the record still lines up with the .dbf row
            contents.recordParts.append(firstPart..<firstPart)
            return
        }
        guard ShapeKind(shapeType: type) == kind else { throw fail("shape type \(type) in a file of \(kind) shapes") }
        switch type {
        case 1, 11, 21:
            guard length >= 20 else { throw fail("a point needs 20 bytes, the record has \(length)") }
            try appendPoint(at: start + 4, to: &contents)
            contents.partStarts.append(contents.xs.count)
        case 8, 18, 28:
            guard length >= 40 else { throw fail("too short for a multipoint (\(length) bytes)") }
            let count = try reader.int32LE(at: start + 36)
            guard count >= 0, 40 + count * 16 <= length else { throw fail("\(count) points do not fit in its \(length) bytes") }
            for index in 0..<count {
                try appendPoint(at: start + 40 + index * 16, to: &contents)
                contents.partStarts.append(contents.xs.count)
            }
        default:
            try readParts(into: &contents)
        }
        contents.recordParts.append(firstPart..<contents.partCount)
    }

    private func readParts(into contents: inout ShapefileContents) throws(GeodataError) {
        guard length >= 44 else { throw fail("too short for a line or polygon (\(length) bytes)") }
        let partCount = try reader.int32LE(at: start + 36)
        let pointCount = try reader.int32LE(at: start + 40)
        guard partCount >= 0, pointCount >= 0, partCount <= length, pointCount <= length,
              44 + partCount * 4 + pointCount * 16 <= length else {
            throw fail("\(partCount) parts and \(pointCount) points do not fit in its \(length) bytes")
        }
        if partCount == 0 { return }  // no parts: nothing to draw, whatever points it lists
        var partOffsets: [Int] = []
        partOffsets.reserveCapacity(partCount)
        for index in 0..<partCount {
            let first = try reader.int32LE(at: start + 44 + index * 4)
            guard first >= 0, first < pointCount, first >= (partOffsets.last ?? -1) + (index == 0 ? 0 : 1) else {
                throw fail("part \(index) starts at point \(first), outside 0..<\(pointCount) or before the part ahead of it")
            }
            partOffsets.append(first)
        }
        guard partOffsets.first ?? 0 == 0 else { throw fail("its first part does not start at point 0") }
        let pointsStart = start + 44 + partCount * 4
        try reader.require(pointsStart, pointCount * 16, "the points of record \(number)")
        let base = contents.xs.count  // (no reserveCapacity per record: it would defeat the arrays' doubling)
        for index in 0..<pointCount {
            let x = reader.unsafeDoubleLE(pointsStart + index * 16)
            let y = reader.unsafeDoubleLE(pointsStart + index * 16 + 8)
            try check(x: x, y: y, point: index)
            contents.xs.append(x)
            contents.ys.append(min(90, max(-90, y)))
        }
        for index in 1..<partCount { contents.partStarts.append(base + partOffsets[index]) }
        contents.partStarts.append(base + pointCount)
    }

    private func appendPoint(at offset: Int, to contents: inout ShapefileContents) throws(GeodataError) {
        let x = try reader.doubleLE(at: offset), y = try reader.doubleLE(at: offset + 8)
        try check(x: x, y: y, point: 0)
        contents.xs.append(x)
        contents.ys.append(min(90, max(-90, y)))
    }

    /// The map reads longitude/latitude data only; a coordinate far outside it means a
    /// projected file or garbage, and drawing it would only scatter lines.
    private func check(x: Double, y: Double, point: Int) throws(GeodataError) {
        guard x.isFinite, y.isFinite, abs(x) <= 180.5, abs(y) <= 90.5 else {
            throw fail("point \(point) is (\(x), \(y)), not a longitude and latitude in degrees")
        }
    }
}
