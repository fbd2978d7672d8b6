import Foundation

/// Bearing and distance on the sphere: what Pigeon's arrow shows.
public enum Geodesy {
    /// Mean Earth radius (IUGG), metres.
    public static let earthRadius = 6_371_008.8

    /// Great-circle distance in metres (haversine: stable for short and antipodal distances).
    public static func distance(from a: GeoPoint, to b: GeoPoint) -> Double {
        let phi1 = a.latitude * .pi / 180, phi2 = b.latitude * .pi / 180
        let deltaPhi = phi2 - phi1
        let deltaLambda = (b.longitude - a.longitude) * .pi / 180
        let h = sin(deltaPhi / 2) * sin(deltaPhi / 2) + cos(phi1) * cos(phi2) * sin(deltaLambda / 2) * sin(deltaLambda / 2)
        return 2 * earthRadius * asin(min(1, sqrt(h)))
    }

    /// Initial great-circle bearing from `a` to `b`, degrees clockwise from true north in 0..<360.
    public static func initialBearing(from a: GeoPoint, to b: GeoPoint) -> Double {
        let phi1 = a.latitude * .pi / 180, phi2 = b.latitude * .pi / 180
        let deltaLambda = (b.longitude - a.longitude) * .pi / 180
        let y = sin(deltaLambda) * cos(phi2)
        let x = cos(phi1) * sin(phi2) - sin(phi1) * cos(phi2) * cos(deltaLambda)
        let degrees = atan2(y, x) * 180 / .pi
        let wrapped = degrees.truncatingRemainder(dividingBy: 360)
        return wrapped < 0 ? wrapped + 360 : wrapped
    }

    /// One of eight arrows for a bearing: ↑ ↗ → ↘ ↓ ↙ ← ↖.
    public static func arrow(forBearing bearing: Double) -> Character {
        let arrows: [Character] = ["↑", "↗", "→", "↘", "↓", "↙", "←", "↖"]
        guard bearing.isFinite else { return "·" }
        let index = Int(((bearing.truncatingRemainder(dividingBy: 360) + 360 + 22.5) / 45).rounded(.down)) % 8
        return arrows[index]
    }

    /// A compass word for a bearing: N, NE, E, …
    public static func compassPoint(forBearing bearing: Double) -> String {
        let points = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
        guard bearing.isFinite else { return "?" }
        return points[Int(((bearing.truncatingRemainder(dividingBy: 360) + 360 + 22.5) / 45).rounded(.down)) % 8]
    }
}

/// WLUnits: how distances are shown.
public enum DistanceUnits: String, Sendable {
    case kilometres = "km"
    case miles = "mi"

    /// "850 m", "12.4 km", "1,234 km"; "0.3 mi", "12.4 mi".
    public func format(metres: Double) -> String {
        guard metres.isFinite else { return "?" }
        switch self {
        case .kilometres:
            if metres < 1_000 { return "\(Int(metres.rounded())) m" }
            return Self.number(metres / 1_000) + " km"
        case .miles:
            return Self.number(metres / 1_609.344) + " mi"
        }
    }

    private static func number(_ value: Double) -> String {
        if value < 100 { return String(format: "%.1f", value) }
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
