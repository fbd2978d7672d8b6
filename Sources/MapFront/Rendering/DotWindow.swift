/// The map's drawing area in dots and degrees: what every layer needs to turn a longitude and
/// latitude into a dot. `west` may be below -180 and `east` above 180 (the view crosses the
/// antimeridian) and the span may exceed 360° (a zoomed-out view on a wide terminal), so
/// geometry is drawn once per copy of the world that shows.
struct DotWindow {
    let west: Double
    let north: Double
    let degreesPerDot: Double
    let dotWidth: Int
    let dotHeight: Int

    init(projection: MapProjection) {
        let bounds = projection.bounds
        west = bounds.west
        north = bounds.north
        degreesPerDot = projection.degreesPerDot
        dotWidth = projection.dotWidth
        dotHeight = projection.dotHeight
    }

    var east: Double { west + Double(dotWidth) * degreesPerDot }
    var south: Double { north - Double(dotHeight) * degreesPerDot }

    @inline(__always) func x(longitude: Double, offset: Double) -> Double { (longitude + offset - west) / degreesPerDot }
    @inline(__always) func y(latitude: Double) -> Double { (north - latitude) / degreesPerDot }
    /// Latitude of the centre of dot row `y`: the point a raster samples, as GDAL does.
    @inline(__always) func latitude(ofRowCentre y: Int) -> Double { north - (Double(y) + 0.5) * degreesPerDot }

    /// The shifts (multiples of 360°) that bring a longitude range [lo, hi] into view, one per
    /// copy of the world it shows in.
    func copyOffsets(west lo: Double, east hi: Double) -> ClosedRange<Int>? {
        let first = Int(((west - hi) / 360).rounded(.up)), last = Int(((east - lo) / 360).rounded(.down))
        return first <= last ? first...last : nil
    }

    func overlapsLatitudes(south lo: Double, north hi: Double) -> Bool { hi >= south && lo <= north }
}
