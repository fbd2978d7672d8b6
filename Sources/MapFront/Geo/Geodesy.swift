import FoundationEssentials
import Platform
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bearing and distance on the sphere: what Pigeon's arrow shows.
public enum Geodesy {
    /// Mean Earth radius (IUGG), metres.
    public static let earthRadius = 6_371_008.8

    /// Great-circle distance in metres. The atan2 form (Vincenty's, on a sphere) rather than
    /// haversine: haversine's asin loses a fifth of a metre near the antipodes, where a pin on
    /// the other side of the world would be; this form is exact to rounding at every distance.
    public static func distance(from a: GeoPoint, to b: GeoPoint) -> Double {
        let phi1 = a.latitude * .pi / 180, phi2 = b.latitude * .pi / 180
        let deltaLambda = (b.longitude - a.longitude) * .pi / 180
        let across = cos(phi2) * sin(deltaLambda)
        let along = cos(phi1) * sin(phi2) - sin(phi1) * cos(phi2) * cos(deltaLambda)
        let toward = sin(phi1) * sin(phi2) + cos(phi1) * cos(phi2) * cos(deltaLambda)
        return earthRadius * atan2((across * across + along * along).squareRoot(), toward)
    }

    /// Initial great-circle bearing from `a` to `b`, degrees clockwise from true north in 0..<360.
    /// From a pole every way is south (from the north pole) or north (from the south pole);
    /// the formula alone would answer with a bearing along the meridian of `b` instead.
    public static func initialBearing(from a: GeoPoint, to b: GeoPoint) -> Double {
        if a.latitude >= 90 - poleTolerance { return b.latitude >= 90 - poleTolerance ? 0 : 180 }
        if a.latitude <= -90 + poleTolerance { return 0 }
        let phi1 = a.latitude * .pi / 180, phi2 = b.latitude * .pi / 180
        let deltaLambda = (b.longitude - a.longitude) * .pi / 180
        let y = sin(deltaLambda) * cos(phi2)
        let x = cos(phi1) * sin(phi2) - sin(phi1) * cos(phi2) * cos(deltaLambda)
        let degrees = atan2(y, x) * 180 / .pi
        let wrapped = degrees.truncatingRemainder(dividingBy: 360)
        let bearing = wrapped < 0 ? wrapped + 360 : wrapped
        // Heading for a pole leaves a rounding error of 1e-14° either side of north; shown as
        // 360° it would look like a bug.
        return bearing > 360 - 1e-9 ? 0 : bearing
    }

    /// Within this many degrees of ±90 a point is at the pole (about 0.1 mm).
    static let poleTolerance = 1e-9

    /// One of eight arrows for a bearing: ↑ ↗ → ↘ ↓ ↙ ← ↖; "·" for no bearing.
    public static func arrow(forBearing bearing: Double) -> Character {
        let arrows: [Character] = ["↑", "↗", "→", "↘", "↓", "↙", "←", "↖"]
        guard let index = octant(bearing) else { return "·" }
        return arrows[index]
    }

    /// A compass word for a bearing: N, NE, E, …; "?" for no bearing.
    public static func compassPoint(forBearing bearing: Double) -> String {
        let points = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
        guard let index = octant(bearing) else { return "?" }
        return points[index]
    }

    /// Which 45° sector, centred on N, NE, …, a bearing falls in; any finite angle, negative too.
    private static func octant(_ bearing: Double) -> Int? {
        guard bearing.isFinite else { return nil }
        var degrees = bearing.truncatingRemainder(dividingBy: 360)
        if degrees < 0 { degrees += 360 }
        return Int(((degrees + 22.5) / 45).rounded(.down)) % 8
    }
}

/// WLUnits: how distances are shown.
public enum DistanceUnits: String, Sendable {
    case kilometres = "km"
    case miles = "mi"

    /// "850 m", "12.4 km", "1,234 km"; "850 ft", "0.3 mi", "12.4 mi". Under a tenth of a mile
    /// in feet, as road signs there do; "?" for no distance.
    public func format(metres: Double) -> String {
        guard metres.isFinite, metres >= 0 else { return "?" }
        switch self {
        case .kilometres:
            if metres.rounded() < 1_000 { return "\(Int(metres.rounded())) m" }
            return Self.number(metres / 1_000) + " km"
        case .miles:
            let miles = metres / 1_609.344
            if miles < 0.1 { return "\(Int((metres / 0.3048).rounded())) ft" }
            return Self.number(miles) + " mi"
        }
    }

    /// One decimal below 100, whole and grouped by thousands above.
    private static func number(_ value: Double) -> String {
        if (value * 10).rounded() < 1_000 { return cFormat("%.1f", value) }
        let whole = Int(value.rounded())
        let digits = String(whole)
        var grouped = ""
        for (index, character) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(character)
        }
        return grouped
    }
}
