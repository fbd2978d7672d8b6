/// A raster's cells during one drawing pass (`BrailleRaster.withDots`): the map's line layers
/// set thousands of dots a frame, and reaching the cells once saves the array's uniqueness
/// check on every one of them.
struct BrailleDots {
    let cells: UnsafeMutableBufferPointer<UInt8>
    let columns: Int
    let rows: Int

    var dotWidth: Int { columns * 2 }
    var dotHeight: Int { rows * 4 }

    /// Sets a dot; dots outside the raster are ignored.
    @inline(__always) func set(x: Int, y: Int) {
        guard x >= 0, y >= 0, x < dotWidth, y < dotHeight else { return }
        cells[(y >> 2) * columns + (x >> 1)] |= BrailleRaster.bit(x: x, y: y)
    }

    /// `BrailleRaster.drawLine`, on these cells.
    func drawLine(fromX x0: Double, y y0: Double, toX x1: Double, y y1: Double) {
        guard let (ax, ay, bx, by) = BrailleRaster.clip(x0, y0, x1, y1, width: Double(dotWidth), height: Double(dotHeight)) else { return }
        let dx = bx - ax, dy = by - ay
        let steps = Int(max(abs(dx), abs(dy)).rounded(.up))
        if steps == 0 {
            set(x: Int(ax.rounded(.down)), y: Int(ay.rounded(.down)))
            return
        }
        let stepX = dx / Double(steps), stepY = dy / Double(steps)
        var x = ax, y = ay
        for _ in 0...steps {
            set(x: Int(x.rounded(.down)), y: Int(y.rounded(.down)))
            x += stepX
            y += stepY
        }
    }
}
