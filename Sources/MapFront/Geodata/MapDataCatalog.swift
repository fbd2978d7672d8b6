import Platform
/// Natural Earth's scales, as Debian's libmagics++-data ships them.
public enum MapResolution: String, CaseIterable, Sendable, Comparable {
    case coarse = "110m"
    case medium = "50m"
    case fine = "10m"

    /// The scale whose detail matches a zoom level: a 1:110m coastline has a point every half
    /// degree or so, fine while a dot spans a third of a degree or more (zoom 0–2); 1:50m
    /// holds up to about 0.05° a dot (zoom 5); closer in, 1:10m.
    public static func forZoom(_ zoom: Int) -> MapResolution {
        switch zoom {
        case ...2: return .coarse
        case 3...5: return .medium
        default: return .fine
        }
    }

    public static func < (a: MapResolution, b: MapResolution) -> Bool { a.order < b.order }
    /// The scale's denominator in millions (110 for 1:110m), as a map index records it.
    var code: Int {
        switch self {
        case .coarse: 110
        case .medium: 50
        case .fine: 10
        }
    }
    private var order: Int { Self.allCases.firstIndex(of: self)! }
}

/// Where the shapefiles are. Land only, not ne_*_ocean: the ocean files are the land's
/// complement (there is no 1:50m one in the package), so the map fills land and leaves the
/// rest as sea, and coastlines come from the land rings (the package has no coastline files).
public struct MapDataCatalog: Sendable {
    public static let standardDirectory = "/usr/share/magics"
    public static let installHint = "install the map data: sudo apt-get install libmagics++-data"

    public var directory: String
    /// Where each scale's drawing index is kept once made; nil reads the shapefiles every time.
    public var levelCache: MapLevelCache?

    public init(directory: String = Self.standardDirectory, levelCache: MapLevelCache? = nil) {
        self.directory = directory
        self.levelCache = levelCache
    }

    public func land(_ resolution: MapResolution) -> String { path(resolution, "land") + ".shp" }
    public func boundaries(_ resolution: MapResolution) -> String { path(resolution, "admin_0_boundary_lines_land") + ".shp" }
    /// Populated places exist only at 1:10m; labels pick from them by SCALERANK.
    public var placesShapefile: String { path(.fine, "populated_places_simple") + ".shp" }
    public var placesTable: String { path(.fine, "populated_places_simple") + ".dbf" }

    private func path(_ resolution: MapResolution, _ layer: String) -> String {
        "\(directory)/\(resolution.rawValue)/ne_\(resolution.rawValue)_\(layer)"
    }

    public func files(for resolution: MapResolution) -> [String] { [land(resolution), boundaries(resolution)] }
}

/// One resolution's geometry, indexed for drawing. Built on a background thread, then
/// handed to the main thread whole.
public struct MapLevel: Sendable {
    public let resolution: MapResolution
    public let land: LandFillIndex
    public let coastlines: LineLayer
    public let boundaries: LineLayer

    public init(resolution: MapResolution, landShapes: ShapefileContents, boundaryShapes: ShapefileContents) throws(GeodataError) {
        try Self.check(resolution: resolution, land: landShapes)
        try Self.check(resolution: resolution, boundaries: boundaryShapes)
        self.init(resolution: resolution, land: LandFillIndex(polygons: landShapes), coastlines: LineLayer(coastlinesOf: landShapes),
                  boundaries: LineLayer(polylines: boundaryShapes))
    }

    init(resolution: MapResolution, land: LandFillIndex, coastlines: LineLayer, boundaries: LineLayer) {
        self.resolution = resolution
        self.land = land
        self.coastlines = coastlines
        self.boundaries = boundaries
    }

    /// Reads and indexes a scale. The finer ones use both cores: the boundaries, then the
    /// coastlines, are made on a thread of their own while the land is read and its fill index
    /// built (the land's file is four fifths of the work at 1:50m, which a zoomed-in launch
    /// waits for). The 1:110m scale is too small to gain from more threads beside a launch's.
    public static func load(_ resolution: MapResolution, from catalog: MapDataCatalog) throws(GeodataError) -> MapLevel {
        if resolution == .coarse {
            return try MapLevel(resolution: resolution, landShapes: ShapefileReader.read(path: catalog.land(resolution)),
                                boundaryShapes: ShapefileReader.read(path: catalog.boundaries(resolution)))
        }
        let landRead = Prefetch<Result<ShapefileContents, GeodataError>>(name: "wonderland-map-land") {
            Result { () throws(GeodataError) in
                let shapes = try ShapefileReader.read(path: catalog.land(resolution))
                try check(resolution: resolution, land: shapes)
                return shapes
            }
        }
        let lines = Prefetch<Result<(coastlines: LineLayer, boundaries: LineLayer), GeodataError>>(name: "wonderland-map-lines") {
            Result { () throws(GeodataError) in
                let shapes = try ShapefileReader.read(path: catalog.boundaries(resolution))
                try check(resolution: resolution, boundaries: shapes)
                let boundaries = LineLayer(polylines: shapes)
                return (LineLayer(coastlinesOf: try landRead.value.get()), boundaries)
            }
        }
        let land = try landRead.value.get()
        let fill = LandFillIndex(polygons: land)
        let (coastlines, boundaries) = try lines.value.get()
        return MapLevel(resolution: resolution, land: fill, coastlines: coastlines, boundaries: boundaries)
    }

    private static func check(resolution: MapResolution, land: ShapefileContents) throws(GeodataError) {
        guard land.kind == .polygon else { throw GeodataError(file: "ne_\(resolution.rawValue)_land.shp", reason: "holds \(land.kind)s, not polygons") }
    }

    private static func check(resolution: MapResolution, boundaries: ShapefileContents) throws(GeodataError) {
        guard boundaries.kind != .point else { throw GeodataError(file: "ne_\(resolution.rawValue)_admin_0_boundary_lines_land.shp", reason: "holds points, not lines") }
    }
}
