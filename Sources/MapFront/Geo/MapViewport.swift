/// What part of the world the map shows: a centre and a zoom level. This, never screen cells,
/// is what the map saves and restores, so a relaunch in another terminal size shows the same
/// place at the same scale.
public struct MapViewport: Hashable, Sendable {
    public static let zoomLevels = 0...14
    /// At zoom 0 the whole 360° of longitude spans this many braille dots; each level doubles it.
    public static let dotsAroundTheWorldAtZoomZero = 256.0

    public var center: GeoPoint
    public var zoom: Int

    public init(center: GeoPoint, zoom: Int) {
        self.center = center.normalized
        self.zoom = min(Self.zoomLevels.upperBound, max(Self.zoomLevels.lowerBound, zoom))
    }

    public static let world = MapViewport(center: GeoPoint(latitude: 20, longitude: 0), zoom: 0)

    /// Degrees of longitude (and of latitude: the projection is equirectangular) per braille dot.
    public var degreesPerDot: Double { 360 / (Self.dotsAroundTheWorldAtZoomZero * Double(1 << zoom)) }
}
