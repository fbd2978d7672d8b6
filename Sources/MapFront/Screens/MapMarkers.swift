import FoundationEssentials
import Terminal
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where marks (the location, the pin, a selected place) land on the map area, in cells.
/// A point is looked up in every copy of the world that is on screen (at zoom 0 on a wide
/// terminal the world shows more than once), and one that is off screen gets an arrow on the
/// edge pointing the way the map would have to pan to show it.
struct MapMarkers {
    let projection: MapProjection
    let columns: Int
    let rows: Int

    init(viewport: MapViewport, columns: Int, rows: Int) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
        projection = MapProjection(viewport: viewport, dotWidth: self.columns * 2, dotHeight: self.rows * 4)
    }

    /// The cells showing `point`, one per copy of the world on screen.
    func cells(for point: GeoPoint) -> [Point] {
        guard columns > 0, rows > 0, point.latitude.isFinite, point.longitude.isFinite else { return [] }
        let dot = projection.dot(for: point)
        // A pole sits exactly on the top or bottom edge of the world; keep it on its row.
        guard dot.y >= 0, dot.y <= Double(rows * 4) else { return [] }
        let row = min(rows - 1, Int((dot.y / 4).rounded(.down)))
        let worldDots = 360 / projection.degreesPerDot
        var cells: [Point] = []
        for copy in -3...3 {
            let x = dot.x + Double(copy) * worldDots
            guard x >= 0, x < Double(columns * 2) else { continue }
            let cell = Point(x: Int((x / 2).rounded(.down)), y: row)
            if !cells.contains(cell) { cells.append(cell) }
        }
        return cells
    }

    /// For a point not on screen: the edge cell towards it and the screen direction as a
    /// bearing (0 = up), for an arrow glyph.
    func edgePointer(for point: GeoPoint) -> (cell: Point, direction: Double)? {
        guard columns > 0, rows > 0, cells(for: point).isEmpty else { return nil }
        let dot = projection.dot(for: point)
        let halfWidth = Double(columns), halfHeight = Double(rows * 2)
        let dx = dot.x - halfWidth, dy = dot.y - halfHeight
        guard dx != 0 || dy != 0, dx.isFinite, dy.isFinite else { return nil }
        let scale = min(dx == 0 ? .infinity : (halfWidth - 1) / abs(dx), dy == 0 ? .infinity : (halfHeight - 1) / abs(dy))
        let x = halfWidth + dx * scale, y = halfHeight + dy * scale
        let cell = Point(x: min(columns - 1, max(0, Int((x / 2).rounded(.down)))), y: min(rows - 1, max(0, Int((y / 4).rounded(.down)))))
        var direction = atan2(dx, -dy) * 180 / .pi
        if direction < 0 { direction += 360 }
        return (cell, direction)
    }
}

/// The glyphs of the map's marks, with ASCII stand-ins for terminals without UTF-8 (the
/// terminal's own fallback would turn them all into "?").
public struct MapGlyphs: Sendable {
    public let unicode: Bool
    public init(unicode: Bool) { self.unicode = unicode }

    public var location: String { unicode ? "◉" : "@" }
    public var pin: String { unicode ? "⚑" : "P" }
    public var place: String { unicode ? "◆" : "*" }

    public func arrow(_ bearing: Double) -> String {
        if unicode { return String(Geodesy.arrow(forBearing: bearing)) }
        switch Geodesy.compassPoint(forBearing: bearing) {
        case "N": return "^"
        case "S": return "v"
        case "E": return ">"
        case "W": return "<"
        case "NE", "SW": return "/"
        default: return "\\"
        }
    }
}
