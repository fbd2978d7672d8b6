/// Equirectangular (plate carrée) projection onto braille dots: x grows with longitude, y
/// shrinks with latitude, the same number of degrees per dot both ways.
///
/// Why not Web Mercator: it cannot show the poles (a pin at 90° N must still be drawn), and
/// GDAL rasterises in the data's own longitude/latitude grid, so our dots line up one for one
/// with `gdal_rasterize -te … -ts …` in the agreement benchmark. A braille dot is about as wide
/// as it is tall in common terminal fonts (a cell is 2×4 dots and about 1:2), so shapes near
/// the equator keep their proportions; high latitudes stretch, as on any plate carrée map.
public struct MapProjection: Sendable {
    public let viewport: MapViewport
    /// Size of the drawing area in dots (columns × 2, rows × 4).
    public let dotWidth: Int
    public let dotHeight: Int

    public init(viewport: MapViewport, dotWidth: Int, dotHeight: Int) {
        self.viewport = viewport
        self.dotWidth = dotWidth
        self.dotHeight = dotHeight
    }

    public var degreesPerDot: Double { viewport.degreesPerDot }

    /// The dot position of a point, taking the copy of the world (longitude ± 360°) nearest the
    /// centre, so places across the antimeridian from the centre still land on screen.
    public func dot(for point: GeoPoint) -> (x: Double, y: Double) {
        var deltaLongitude = point.longitude - viewport.center.longitude
        deltaLongitude = GeoPoint.wrapLongitude(deltaLongitude)
        let x = Double(dotWidth) / 2 + deltaLongitude / degreesPerDot
        let y = Double(dotHeight) / 2 - (point.latitude - viewport.center.latitude) / degreesPerDot
        return (x, y)
    }

    /// The point under a dot position (longitude wrapped, latitude not clamped: above the
    /// north pole is off the world).
    public func point(atDotX x: Double, y: Double) -> GeoPoint {
        let longitude = viewport.center.longitude + (x - Double(dotWidth) / 2) * degreesPerDot
        let latitude = viewport.center.latitude - (y - Double(dotHeight) / 2) * degreesPerDot
        return GeoPoint(latitude: latitude, longitude: GeoPoint.wrapLongitude(longitude))
    }

    /// The longitude/latitude box on screen, west and east unwrapped (west may be < -180 and
    /// east > 180 when the view crosses the antimeridian).
    public var bounds: (west: Double, south: Double, east: Double, north: Double) {
        let halfWidth = Double(dotWidth) / 2 * degreesPerDot
        let halfHeight = Double(dotHeight) / 2 * degreesPerDot
        return (viewport.center.longitude - halfWidth, viewport.center.latitude - halfHeight,
                viewport.center.longitude + halfWidth, viewport.center.latitude + halfHeight)
    }
}
