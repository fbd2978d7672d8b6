import Terminal

/// A city label as placed on the map: a marker in the city's cell and its name beside it.
public struct PlacedLabel: Hashable, Sendable {
    public var place: Place
    public var markerColumn: Int
    public var row: Int
    /// First column of the name and its width in cells.
    public var textColumn: Int
    public var textWidth: Int

    /// The cells the label covers, marker included.
    public var columns: ClosedRange<Int> { min(markerColumn, textColumn)...max(markerColumn, textColumn + textWidth - 1) }
}

/// Greedy label placement: cities in order of prominence (rank, then population) each try a
/// name to the right of their marker, then to the left; a label goes where it overlaps no
/// label or marker already placed, with one blank cell between neighbours, or not at all.
/// Greedy is enough here: the order already says which city matters more, and one pass over
/// a few thousand candidates stays well inside a frame's budget.
struct LabelPlacer {
    let columns: Int
    let rows: Int
    private var occupied: [Bool]
    /// Cells the screen draws its own marks in: no label or city dot there, but a label may
    /// end right beside them (the one-cell gap is between labels, to tell them apart).
    private var reserved: [Bool]

    init(columns: Int, rows: Int) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
        occupied = Array(repeating: false, count: self.columns * self.rows)
        reserved = occupied
    }

    /// Marks cells no label may use (the screen's own marks go there).
    mutating func reserve(_ rect: Rect) {
        for row in max(0, rect.y)..<min(rows, rect.y + rect.height) {
            for column in max(0, rect.x)..<min(columns, rect.x + rect.width) { reserved[row * columns + column] = true }
        }
    }

    /// Tries to place one city whose marker is in cell (column, row).
    mutating func place(_ place: Place, column: Int, row: Int) -> PlacedLabel? {
        guard column >= 0, column < columns, row >= 0, row < rows, !occupied[row * columns + column], !reserved[row * columns + column] else { return nil }
        let width = DisplayWidth.of(place.name)
        guard width > 0 else { return nil }
        let right = PlacedLabel(place: place, markerColumn: column, row: row, textColumn: column + 1, textWidth: width)
        let left = PlacedLabel(place: place, markerColumn: column, row: row, textColumn: column - width, textWidth: width)
        for candidate in [right, left] where fits(candidate) {
            for x in padded(candidate) { occupied[row * columns + x] = true }
            return candidate
        }
        return nil
    }

    private func padded(_ label: PlacedLabel) -> ClosedRange<Int> {
        max(0, label.columns.lowerBound - 1)...min(columns - 1, label.columns.upperBound + 1)
    }

    private func fits(_ label: PlacedLabel) -> Bool {
        guard label.columns.lowerBound >= 0, label.columns.upperBound < columns else { return false }
        return !padded(label).contains { occupied[label.row * columns + $0] } && !label.columns.contains { reserved[label.row * columns + $0] }
    }

    /// The highest SCALERANK labelled at a zoom: the world view names only the great cities,
    /// each level in lets one more rank in.
    static func maximumRank(atZoom zoom: Int) -> Int { min(10, zoom + 2) }
}
