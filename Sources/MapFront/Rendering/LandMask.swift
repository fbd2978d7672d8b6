/// Fills land polygons into a braille raster by scanlines, one row of dots at a time.
///
/// Even-odd rule, not non-zero: a dot is land when a line from it crosses the land's edges an
/// odd number of times. Natural Earth's lakes and inland seas are holes (inner rings) and the
/// even-odd rule cuts them out without depending on ring direction, which shapefile writers do
/// not all get right; it is also what GDAL's rasteriser does with holes, and polygons of one
/// land layer never overlap, where the two rules would differ.
///
/// A dot is land when its centre is inside (GDAL's default too), so the mask lines up dot for
/// dot with `gdal_rasterize` over the same box.
enum LandMask {
    static func fill(_ index: LandFillIndex, window: DotWindow, into raster: inout BrailleRaster) {
        guard let copies = window.copyOffsets(west: -180, east: 180) else { return }
        var crossings: [Double] = []
        crossings.reserveCapacity(256)
        let degreesPerDot = window.degreesPerDot
        for y in 0..<min(window.dotHeight, raster.dotHeight) {
            let latitude = window.latitude(ofRowCentre: y)
            guard latitude > -90, latitude < 90 else { continue }
            for copy in copies {
                let offset = Double(copy) * 360
                // The part of the world this copy shows, in the data's own longitudes.
                let low = max(-180, window.west - offset), high = min(180, window.east - offset)
                guard low < high else { continue }
                var inside = false
                crossings.removeAll(keepingCapacity: true)
                index.forEachCrossing(at: latitude) { x in
                    if x < low { inside.toggle() } else if x < high { crossings.append(x) }
                }
                crossings.sort()
                var spanStart = low
                func fillSpan(_ from: Double, _ to: Double) {
                    // Dots whose centre lies in [from, to).
                    let first = Int(((from + offset - window.west) / degreesPerDot - 0.5).rounded(.up))
                    let end = Int(((to + offset - window.west) / degreesPerDot - 0.5).rounded(.up))
                    raster.setSpan(y: y, from: first, to: end)
                }
                for x in crossings {
                    if inside { fillSpan(spanStart, x) }
                    inside.toggle()
                    spanStart = x
                }
                if inside { fillSpan(spanStart, high) }
            }
        }
    }
}

/// Draws line layers (coastlines, borders) into a braille raster, skipping off-screen chunks.
enum LineDrawing {
    static func draw(_ layer: LineLayer, window: DotWindow, into raster: inout BrailleRaster) {
        raster.withDots { draw(layer, window: window, into: $0) }
    }

    private static func draw(_ layer: LineLayer, window: DotWindow, into dots: BrailleDots) {
        let xs = layer.xs, ys = layer.ys
        for chunk in layer.chunks where window.overlapsLatitudes(south: chunk.south, north: chunk.north) {
            guard let copies = window.copyOffsets(west: chunk.west, east: chunk.east) else { continue }
            for copy in copies {
                let offset = Double(copy) * 360
                var previousX = window.x(longitude: xs[chunk.points.lowerBound], offset: offset)
                var previousY = window.y(latitude: ys[chunk.points.lowerBound])
                var previousDotX = previousX.rounded(.down), previousDotY = previousY.rounded(.down)
                for index in chunk.points.dropFirst() {
                    let x = window.x(longitude: xs[index], offset: offset), y = window.y(latitude: ys[index])
                    // Zoomed out, most segments start and end in one dot: that dot is all a line
                    // between them sets, without the clipping and stepping of a line.
                    let dotX = x.rounded(.down), dotY = y.rounded(.down)
                    if dotX == previousDotX && dotY == previousDotY && abs(dotX) < 1e9 && abs(dotY) < 1e9 {
                        dots.set(x: Int(dotX), y: Int(dotY))
                    } else {
                        dots.drawLine(fromX: previousX, y: previousY, toX: x, y: y)
                    }
                    previousX = x
                    previousY = y
                    previousDotX = dotX
                    previousDotY = dotY
                }
            }
        }
    }
}
