/// A terminal size in character cells.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    /// Width in cells.
    public var columns: Int
    /// Height in cells.
    public var rows: Int
    /// A size of `columns` × `rows` cells.
    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }
    /// "80×24": columns, then rows.
    public var description: String { "\(columns)×\(rows)" }
}

/// A cell position: column `x`, row `y`, both from 0 at the top left.
public struct Point: Hashable, Sendable {
    /// The column, from 0 at the left.
    public var x: Int
    /// The row, from 0 at the top.
    public var y: Int
    /// The cell at column `x`, row `y`, counted from 0 at the top left.
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }
}

/// A rectangle of cells. Screens draw only inside the rectangle they are given.
public struct Rect: Hashable, Sendable {
    /// The column of the left edge.
    public var x: Int
    /// The row of the top edge.
    public var y: Int
    /// Width in columns; never negative.
    public var width: Int
    /// Height in rows; never negative.
    public var height: Int

    /// A rectangle with its top left cell at (`x`, `y`); a negative size counts as empty.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// A rectangle of `size` at the origin.
    public init(size: Size) { self.init(x: 0, y: 0, width: size.columns, height: size.rows) }

    /// The first column to the right of the rectangle.
    public var maxX: Int { x + width }
    /// The first row below the rectangle.
    public var maxY: Int { y + height }
    /// True when the rectangle holds no cell.
    public var isEmpty: Bool { width == 0 || height == 0 }

    /// Whether `point` is one of the rectangle's cells.
    public func contains(_ point: Point) -> Bool {
        point.x >= x && point.x < maxX && point.y >= y && point.y < maxY
    }

    /// The cells both rectangles hold; empty when they do not meet.
    public func intersection(_ other: Rect) -> Rect {
        let left = max(x, other.x), top = max(y, other.y)
        let right = min(maxX, other.maxX), bottom = min(maxY, other.maxY)
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// The top `count` rows, and what is left below them.
    public func splitTop(_ count: Int) -> (top: Rect, rest: Rect) {
        let n = min(max(0, count), height)
        return (Rect(x: x, y: y, width: width, height: n), Rect(x: x, y: y + n, width: width, height: height - n))
    }

    /// The bottom `count` rows, and what is left above them.
    public func splitBottom(_ count: Int) -> (rest: Rect, bottom: Rect) {
        let n = min(max(0, count), height)
        return (Rect(x: x, y: y, width: width, height: height - n), Rect(x: x, y: maxY - n, width: width, height: n))
    }

    /// The rectangle shrunk by `dx` columns on each side and `dy` rows at top and bottom.
    public func insetBy(dx: Int, dy: Int) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width - 2 * dx, height: height - 2 * dy)
    }

    /// A rectangle of the given size centred in this one, clipped to it.
    public func centered(width w: Int, height h: Int) -> Rect {
        let cw = min(w, width), ch = min(h, height)
        return Rect(x: x + (width - cw) / 2, y: y + (height - ch) / 2, width: cw, height: ch)
    }
}
