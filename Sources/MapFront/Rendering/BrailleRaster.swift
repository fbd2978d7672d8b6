/// A grid of braille dots, 2 across and 4 down per terminal cell, kept as one byte per cell in
/// the bit layout of Unicode's braille block: the cell's character is U+2800 plus its byte.
///
///     dot 1 (0x01)  dot 4 (0x08)
///     dot 2 (0x02)  dot 5 (0x10)
///     dot 3 (0x04)  dot 6 (0x20)
///     dot 7 (0x40)  dot 8 (0x80)
public struct BrailleRaster: Sendable, Hashable {
    public let columns: Int
    public let rows: Int
    public private(set) var cells: [UInt8]

    public init(columns: Int, rows: Int) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
        cells = Array(repeating: 0, count: self.columns * self.rows)
    }

    public var dotWidth: Int { columns * 2 }
    public var dotHeight: Int { rows * 4 }

    /// Bit of the dot at (x mod 2, y mod 4): index `(y & 3) * 2 + (x & 1)`.
    public static let dotBits: [UInt8] = [0x01, 0x08, 0x02, 0x10, 0x04, 0x20, 0x40, 0x80]
    /// `dotBits` packed into one word, byte i holding entry i: a dot's bit is a shift away,
    /// with no array to reach for each of the thousands of dots a map sets.
    static let packedDotBits: UInt64 = 0x8040_2004_1002_0801

    @inline(__always) static func bit(x: Int, y: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: packedDotBits >> UInt64(((y & 3) << 1 | (x & 1)) << 3))
    }

    /// Sets a dot; dots outside the raster are ignored (lines run off the edges).
    @inline(__always) public mutating func set(x: Int, y: Int) {
        withDots { $0.set(x: x, y: y) }
    }

    public func isSet(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < dotWidth, y < dotHeight else { return false }
        return cells[(y >> 2) * columns + (x >> 1)] & Self.bit(x: x, y: y) != 0
    }

    /// Sets dots `from..<to` of row `y` (clipped).
    public mutating func setSpan(y: Int, from: Int, to: Int) {
        guard y >= 0, y < dotHeight else { return }
        let start = max(0, from), end = min(dotWidth, to)
        guard start < end else { return }
        let left = Self.bit(x: 0, y: y), right = Self.bit(x: 1, y: y)
        let base = (y >> 2) * columns
        cells.withUnsafeMutableBufferPointer { cells in
            for x in start..<end { cells[base + (x >> 1)] |= (x & 1 == 0 ? left : right) }
        }
    }

    public subscript(column: Int, row: Int) -> UInt8 { cells[row * columns + column] }

    /// The braille character for a cell's dots (U+2800, the blank pattern, for none).
    public static func character(_ bits: UInt8) -> Character {
        Character(Unicode.Scalar(0x2800 + UInt32(bits))!)
    }

    public static func scalar(_ bits: UInt8) -> Unicode.Scalar { Unicode.Scalar(0x2800 + UInt32(bits))! }

    /// Number of dots set in the whole raster.
    public var dotCount: Int { cells.reduce(0) { $0 + $1.nonzeroBitCount } }
}

extension BrailleRaster {
    /// A straight line between two dot positions (fractional positions fall in the dot they
    /// are inside). Clipped to the raster first, so a segment from far off screen costs no more
    /// than the part that shows.
    public mutating func drawLine(fromX x0: Double, y y0: Double, toX x1: Double, y y1: Double) {
        withDots { $0.drawLine(fromX: x0, y: y0, toX: x1, y: y1) }
    }

    /// Runs `body` over the raster's cells, for a pass that sets many dots.
    mutating func withDots<Result>(_ body: (BrailleDots) -> Result) -> Result {
        let columns = self.columns, rows = self.rows
        return cells.withUnsafeMutableBufferPointer { body(BrailleDots(cells: $0, columns: columns, rows: rows)) }
    }

    /// Liang–Barsky clipping to [0, width] × [0, height] (with a one-dot margin, so segments
    /// ending exactly on the edge keep their last dot).
    static func clip(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, width: Double, height: Double) -> (Double, Double, Double, Double)? {
        guard x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite else { return nil }
        let minX = -1.0, minY = -1.0, maxX = width + 1, maxY = height + 1
        let dx = x1 - x0, dy = y1 - y0
        // Most segments of a map lie inside: the edges below would give t0 = 0 and t1 = 1, so
        // the same ends come back without their four divisions.
        if x0 >= minX, x0 <= maxX, x1 >= minX, x1 <= maxX, y0 >= minY, y0 <= maxY, y1 >= minY, y1 <= maxY {
            return (x0, y0, x0 + dx, y0 + dy)
        }
        return clipToEdges(x0, y0, x1, y1, width: width, height: height)
    }

    /// Liang–Barsky against each edge in turn, for a segment with finite ends.
    static func clipToEdges(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, width: Double, height: Double) -> (Double, Double, Double, Double)? {
        let minX = -1.0, minY = -1.0, maxX = width + 1, maxY = height + 1
        let dx = x1 - x0, dy = y1 - y0
        var t0 = 0.0, t1 = 1.0
        // One edge at a time (no array of edges: this runs for every segment of a map).
        func keep(_ p: Double, _ q: Double) -> Bool {
            if p == 0 { return q >= 0 }
            let r = q / p
            if p < 0 {
                if r > t1 { return false }
                t0 = max(t0, r)
            } else {
                if r < t0 { return false }
                t1 = min(t1, r)
            }
            return true
        }
        guard keep(-dx, x0 - minX), keep(dx, maxX - x0), keep(-dy, y0 - minY), keep(dy, maxY - y0) else { return nil }
        return (x0 + t0 * dx, y0 + t0 * dy, x0 + t1 * dx, y0 + t1 * dy)
    }
}
