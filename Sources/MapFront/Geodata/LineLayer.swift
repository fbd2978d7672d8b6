/// Lines ready to draw: coastlines or borders as runs of points, cut into short chunks that
/// each know their bounding box, so a frame skips everything off screen with one test per
/// chunk instead of one per segment (a 1:10m coastline has half a million points). Kept flat,
/// in the form a map index stores and maps back (`MapLevelFile`).
public struct LineLayer: Sendable {
    public struct Chunk: Sendable, BitwiseCopyable, Equatable {
        /// Indices into `xs`/`ys` of a polyline's points: `start..<end`.
        public var start: Int
        public var end: Int
        public var west: Double, south: Double, east: Double, north: Double

        public var points: Range<Int> { start..<end }
    }

    public let xs: FlatArray<Double>
    public let ys: FlatArray<Double>
    public let chunks: FlatArray<Chunk>
    static let pointsPerChunk = 64

    /// A layer read back from a map index, whose chunks were checked there (each range lies in
    /// `xs` and `ys`).
    init(xs: FlatArray<Double>, ys: FlatArray<Double>, chunks: FlatArray<Chunk>) {
        self.xs = xs
        self.ys = ys
        self.chunks = chunks
    }

    private init(_ builder: Builder) {
        self.init(xs: FlatArray(builder.xs), ys: FlatArray(builder.ys), chunks: FlatArray(builder.chunks))
    }

    public var segmentCount: Int { chunks.reduce(0) { $0 + max(0, $1.end - $1.start - 1) } }

    /// Lines from a polyline shapefile: every part as it is.
    init(polylines shapes: ShapefileContents) {
        var builder = Builder(reserving: shapes.xs.count)
        for part in 0..<shapes.partCount {
            let range = shapes.points(ofPart: part)
            builder.append(xs: shapes.xs[range], ys: shapes.ys[range], keepEdge: { _, _ in true })
        }
        self.init(builder)
    }

    /// Coastlines from land polygons: every ring, minus the edges Natural Earth adds where it
    /// cuts land at the antimeridian (a meridian at ±180°) and closes Antarctica along the
    /// south pole — lines no coast has.
    init(coastlinesOf shapes: ShapefileContents) {
        var builder = Builder(reserving: shapes.xs.count)
        for part in 0..<shapes.partCount {
            let range = shapes.points(ofPart: part)
            builder.append(xs: shapes.xs[range], ys: shapes.ys[range], keepEdge: { a, b in !Self.isArtificialEdge(a, b) })
        }
        self.init(builder)
    }

    static func isArtificialEdge(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Bool {
        let cut = 179.9999, pole = -89.99
        if abs(a.x) >= cut && abs(b.x) >= cut && (a.x > 0) == (b.x > 0) { return true }
        return a.y <= pole && b.y <= pole
    }

    /// The growing arrays of a layer being made from a shapefile.
    private struct Builder {
        var xs: [Double] = []
        var ys: [Double] = []
        var chunks: [Chunk] = []

        /// Room for the source's points and a little more: each chunk repeats one point.
        init(reserving points: Int) {
            let room = points + points / (LineLayer.pointsPerChunk - 1) + 16
            xs.reserveCapacity(room)
            ys.reserveCapacity(room)
            chunks.reserveCapacity(points / (LineLayer.pointsPerChunk - 1) + 16)
        }

        /// Adds one polyline, broken where `keepEdge` refuses an edge and every `pointsPerChunk`
        /// points (neighbouring chunks share their end point, so no segment is lost).
        mutating func append(xs inXs: ArraySlice<Double>, ys inYs: ArraySlice<Double>,
                             keepEdge: ((x: Double, y: Double), (x: Double, y: Double)) -> Bool) {
            guard !inXs.isEmpty else { return }
            var runStart = xs.count
            var previous: (x: Double, y: Double)?
            for (x, y) in zip(inXs, inYs) {
                let point = (x: x, y: y)
                if let previous {
                    if !keepEdge(previous, point) {
                        closeRun(from: runStart)
                        runStart = xs.count
                    } else if xs.count - runStart >= LineLayer.pointsPerChunk {
                        closeRun(from: runStart)
                        xs.append(previous.x)
                        ys.append(previous.y)
                        runStart = xs.count - 1
                    }
                }
                xs.append(x)
                ys.append(y)
                previous = point
            }
            closeRun(from: runStart)
        }

        private mutating func closeRun(from runStart: Int) {
            guard xs.count - runStart >= 2 else { return }
            var chunk = Chunk(start: runStart, end: xs.count, west: .infinity, south: .infinity, east: -.infinity, north: -.infinity)
            for index in runStart..<xs.count {
                chunk.west = min(chunk.west, xs[index])
                chunk.east = max(chunk.east, xs[index])
                chunk.south = min(chunk.south, ys[index])
                chunk.north = max(chunk.north, ys[index])
            }
            chunks.append(chunk)
        }
    }
}
