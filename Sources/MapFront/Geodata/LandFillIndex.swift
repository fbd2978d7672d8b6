/// The edges of the land polygons, sorted into latitude bands, for scanline filling: a row
/// of dots at latitude φ needs only the edges that cross φ, and those are all in φ's band.
/// Bands are sized so that each holds a few hundred edges on average whatever the
/// resolution, which keeps the per-row cost flat from 1:110m to 1:10m.
public struct LandFillIndex: Sendable {
    /// An edge with y0 < y1 (horizontal edges cross no row and are dropped).
    public struct Edge: Sendable {
        public var x0: Double
        public var y0: Double
        public var y1: Double
        /// Degrees of longitude per degree of latitude along the edge.
        public var slope: Double

        @inline(__always) func crosses(_ latitude: Double) -> Bool { latitude >= y0 && latitude < y1 }
        @inline(__always) func x(at latitude: Double) -> Double { x0 + (latitude - y0) * slope }
    }

    public let bandHeight: Double
    public private(set) var bands: [[Edge]]
    public private(set) var edgeCount = 0

    static let targetEdgesPerBand = 400

    init(polygons shapes: ShapefileContents) {
        let total = shapes.xs.count
        let bandCount = min(3_600, max(36, total / Self.targetEdgesPerBand))
        bandHeight = 180 / Double(bandCount)
        bands = Array(repeating: [], count: bandCount)
        for part in 0..<shapes.partCount {
            let range = shapes.points(ofPart: part)
            guard range.count >= 2 else { continue }
            // Rings are closed in the file; closing them again here costs nothing if they are
            // and keeps the fill right if one is not.
            var previous = range.upperBound - 1
            for index in range {
                add(x0: shapes.xs[previous], y0: shapes.ys[previous], x1: shapes.xs[index], y1: shapes.ys[index])
                previous = index
            }
        }
    }

    private mutating func add(x0: Double, y0: Double, x1: Double, y1: Double) {
        guard y0 != y1 else { return }
        let (ax, ay, by) = y0 < y1 ? (x0, y0, y1) : (x1, y1, y0)
        let slope = (x1 - x0) / (y1 - y0)
        let edge = Edge(x0: ax, y0: ay, y1: by, slope: slope)
        for band in band(of: ay)...band(of: by) { bands[band].append(edge) }
        edgeCount += 1
    }

    @inline(__always) func band(of latitude: Double) -> Int {
        min(bands.count - 1, max(0, Int((latitude + 90) / bandHeight)))
    }

    /// Calls `crossing` with the longitude of every edge crossing `latitude`, in no order.
    @inline(__always) func forEachCrossing(at latitude: Double, _ crossing: (Double) -> Void) {
        guard latitude > -90, latitude < 90 else { return }
        for edge in bands[band(of: latitude)] where edge.crosses(latitude) { crossing(edge.x(at: latitude)) }
    }
}
