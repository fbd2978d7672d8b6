/// The edges of the land polygons, sorted into latitude bands, for scanline filling: a row
/// of dots at latitude φ needs only the edges that cross φ, and those are all in φ's band.
/// Bands are sized so that each holds a few hundred edges on average whatever the
/// resolution, which keeps the per-row cost flat from 1:110m to 1:10m. The bands lie one after
/// another in one flat run of edges (`bandStarts` says where each begins), the form a map index
/// keeps on disk and maps back (`MapLevelFile`).
public struct LandFillIndex: Sendable {
    /// An edge with y0 < y1 (horizontal edges cross no row and are dropped).
    public struct Edge: Sendable, BitwiseCopyable, Equatable {
        public var x0: Double
        public var y0: Double
        public var y1: Double
        /// Degrees of longitude per degree of latitude along the edge.
        public var slope: Double

        @inline(__always) func crosses(_ latitude: Double) -> Bool { latitude >= y0 && latitude < y1 }
        @inline(__always) func x(at latitude: Double) -> Double { x0 + (latitude - y0) * slope }
    }

    public let bandHeight: Double
    /// Every band's edges, band after band; an edge spanning several bands is in each.
    public let edges: FlatArray<Edge>
    /// Where each band starts in `edges`, and one more entry: `edges.count`.
    public let bandStarts: FlatArray<Int>
    /// Distinct edges (before the copies in neighbouring bands).
    public let edgeCount: Int

    static let targetEdgesPerBand = 400
    /// The most bands any resolution gets (1:10m's 0.05°).
    static let maximumBandCount = 3_600

    public var bandCount: Int { bandStarts.count - 1 }

    /// An index read back from a map index: its parts were checked there (`bandStarts` rises
    /// from 0 to `edges.count`).
    init(edges: FlatArray<Edge>, bandStarts: FlatArray<Int>, edgeCount: Int) {
        self.edges = edges
        self.bandStarts = bandStarts
        self.edgeCount = edgeCount
        bandHeight = 180 / Double(bandStarts.count - 1)
    }

    /// Two passes over the rings: one counts each band's edges, the other puts them in place,
    /// so no band's array ever grows and copies itself.
    init(polygons shapes: ShapefileContents) {
        let bandCount = min(Self.maximumBandCount, max(36, shapes.xs.count / Self.targetEdgesPerBand))
        let height = 180 / Double(bandCount)
        bandHeight = height
        func band(of latitude: Double) -> Int { Self.band(of: latitude, count: bandCount, height: height) }

        var starts = [Int](repeating: 0, count: bandCount + 1)
        var distinct = 0
        Self.forEachEdge(of: shapes) { edge in
            distinct += 1
            for band in band(of: edge.y0)...band(of: edge.y1) { starts[band + 1] += 1 }
        }
        for band in 0..<bandCount { starts[band + 1] += starts[band] }
        var next = starts
        edges = FlatArray(count: starts[bandCount]) { buffer in
            Self.forEachEdge(of: shapes) { edge in
                for band in band(of: edge.y0)...band(of: edge.y1) {
                    (buffer.baseAddress! + next[band]).initialize(to: edge)
                    next[band] += 1
                }
            }
        }
        bandStarts = FlatArray(starts)
        edgeCount = distinct
    }

    /// Every non-horizontal edge of every ring, lower end first. Rings are closed in the file;
    /// closing them again here costs nothing if they are and keeps the fill right if one is not.
    private static func forEachEdge(of shapes: ShapefileContents, _ body: (Edge) -> Void) {
        shapes.xs.withUnsafeBufferPointer { xs in
            shapes.ys.withUnsafeBufferPointer { ys in
                for part in 0..<shapes.partCount {
                    let range = shapes.points(ofPart: part)
                    guard range.count >= 2 else { continue }
                    var previous = range.upperBound - 1
                    for index in range {
                        let (x0, y0, x1, y1) = (xs[previous], ys[previous], xs[index], ys[index])
                        previous = index
                        guard y0 != y1 else { continue }
                        let slope = (x1 - x0) / (y1 - y0)
                        body(y0 < y1 ? Edge(x0: x0, y0: y0, y1: y1, slope: slope) : Edge(x0: x1, y0: y1, y1: y0, slope: slope))
                    }
                }
            }
        }
    }

    @inline(__always) func band(of latitude: Double) -> Int { Self.band(of: latitude, count: bandCount, height: bandHeight) }

    @inline(__always) private static func band(of latitude: Double, count: Int, height: Double) -> Int {
        min(count - 1, max(0, Int((latitude + 90) / height)))
    }

    /// Calls `crossing` with the longitude of every edge crossing `latitude`, in no order.
    @inline(__always) func forEachCrossing(at latitude: Double, _ crossing: (Double) -> Void) {
        guard latitude > -90, latitude < 90 else { return }
        let band = band(of: latitude)
        for index in bandStarts[band]..<bandStarts[band + 1] {
            let edge = edges[index]
            if edge.crosses(latitude) { crossing(edge.x(at: latitude)) }
        }
    }
}
