/// Lines ready to draw: coastlines or borders as runs of points, cut into short chunks that
/// each know their bounding box, so a frame skips everything off screen with one test per
/// chunk instead of one per segment (a 1:10m coastline has half a million points).
public struct LineLayer: Sendable {
    public struct Chunk: Sendable {
        /// Indices into `xs`/`ys`: a polyline through these points.
        public var points: Range<Int>
        public var west: Double, south: Double, east: Double, north: Double
    }

    public var xs: [Double] = []
    public var ys: [Double] = []
    public var chunks: [Chunk] = []
    static let pointsPerChunk = 64

    public init() {}

    public var segmentCount: Int { chunks.reduce(0) { $0 + max(0, $1.points.count - 1) } }

    /// Lines from a polyline shapefile: every part as it is.
    init(polylines shapes: ShapefileContents) {
        for part in 0..<shapes.partCount {
            let range = shapes.points(ofPart: part)
            append(xs: shapes.xs[range], ys: shapes.ys[range], keepEdge: { _, _ in true })
        }
    }

    /// Coastlines from land polygons: every ring, minus the edges Natural Earth adds where it
    /// cuts land at the antimeridian (a meridian at ±180°) and closes Antarctica along the
    /// south pole — lines no coast has.
    init(coastlinesOf shapes: ShapefileContents) {
        for part in 0..<shapes.partCount {
            let range = shapes.points(ofPart: part)
            append(xs: shapes.xs[range], ys: shapes.ys[range], keepEdge: { a, b in !Self.isArtificialEdge(a, b) })
        }
    }

    static func isArtificialEdge(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Bool {
        let cut = 179.9999, pole = -89.99
        if abs(a.x) >= cut && abs(b.x) >= cut && (a.x > 0) == (b.x > 0) { return true }
        return a.y <= pole && b.y <= pole
    }

    /// Adds one polyline, broken where `keepEdge` refuses an edge and every `pointsPerChunk`
    /// points (neighbouring chunks share their end point, so no segment is lost).
    mutating func append(xs inXs: ArraySlice<Double>, ys inYs: ArraySlice<Double>, keepEdge: ((x: Double, y: Double), (x: Double, y: Double)) -> Bool) {
        guard !inXs.isEmpty else { return }
        var runStart = xs.count
        func closeRun() {
            if xs.count - runStart >= 2 { chunks.append(Self.chunk(xs: xs, ys: ys, runStart..<xs.count)) }
        }
        var previous: (x: Double, y: Double)?
        for (x, y) in zip(inXs, inYs) {
            let point = (x: x, y: y)
            if let previous {
                if !keepEdge(previous, point) {
                    closeRun()
                    runStart = xs.count
                } else if xs.count - runStart >= Self.pointsPerChunk {
                    closeRun()
                    xs.append(previous.x)
                    ys.append(previous.y)
                    runStart = xs.count - 1
                }
            }
            xs.append(x)
            ys.append(y)
            previous = point
        }
        closeRun()
    }

    private static func chunk(xs: [Double], ys: [Double], _ range: Range<Int>) -> Chunk {
        var chunk = Chunk(points: range, west: .infinity, south: .infinity, east: -.infinity, north: -.infinity)
        for index in range {
            chunk.west = min(chunk.west, xs[index])
            chunk.east = max(chunk.east, xs[index])
            chunk.south = min(chunk.south, ys[index])
            chunk.north = max(chunk.north, ys[index])
        }
        return chunk
    }
}
