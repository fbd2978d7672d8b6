import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The scale bar: a bar of whole cells as long as a round distance (1, 2 or 5 times a power
/// of ten) at the centre's latitude, in the units the user reads. On a plate carrée map the
/// east–west scale shrinks with the cosine of the latitude, so the bar is honest only along
/// the centre row — as on any map of this kind.
public struct ScaleBar: Hashable, Sendable {
    public let cells: Int
    public let label: String

    /// Nil at a pole, where a row of the map has no east–west length at all.
    public init?(viewport: MapViewport, units: DistanceUnits, maximumCells: Int = 12) {
        let metresPerDegree = Geodesy.earthRadius * .pi / 180
        let metresPerCell = 2 * viewport.degreesPerDot * metresPerDegree * cos(viewport.center.latitude * .pi / 180)
        guard metresPerCell > 1e-6, maximumCells >= 1 else { return nil }
        let unit = units == .kilometres ? 1.0 : 1_609.344
        // Largest round length that fits: walk down the 1-2-5 series from 10^7 units.
        for exponent in stride(from: 7, through: -3, by: -1) {
            for mantissa in [5, 2, 1] {
                let length = Double(mantissa) * pow(10, Double(exponent))
                let cells = Int((length * unit / metresPerCell).rounded())
                if cells >= 1 && cells <= maximumCells {
                    self.cells = cells
                    self.label = Self.label(mantissa: mantissa, exponent: exponent, units: units)
                    return
                }
            }
        }
        return nil
    }

    /// "500 m", "2 km", "1,000 km"; "0.05 mi", "200 mi". Built from the digits, not from a
    /// floating-point value, so no "0.30000000000000004 mi".
    static func label(mantissa: Int, exponent: Int, units: DistanceUnits) -> String {
        switch units {
        case .kilometres:
            if exponent < 3 { return number(mantissa: mantissa, exponent: exponent) + " m" }
            return number(mantissa: mantissa, exponent: exponent - 3) + " km"
        case .miles:
            return number(mantissa: mantissa, exponent: exponent) + " mi"
        }
    }

    private static func number(mantissa: Int, exponent: Int) -> String {
        if exponent < 0 { return "0." + String(repeating: "0", count: -exponent - 1) + String(mantissa) }
        let digits = String(mantissa) + String(repeating: "0", count: exponent)
        var grouped = ""
        for (index, character) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(character)
        }
        return grouped
    }

    /// "├────┤" drawn over `cells` cells (at least the two ends).
    public var bar: String {
        cells <= 1 ? "│" : "├" + String(repeating: "─", count: max(0, cells - 2)) + "┤"
    }
}
