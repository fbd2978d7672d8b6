/// Pigeon's arrow: which way and how far the pin is from the current location.
public struct PinGuide: Hashable, Sendable {
    /// Initial great-circle bearing, degrees clockwise from true north, 0..<360.
    public let bearing: Double
    /// Great-circle distance in metres.
    public let distance: Double

    public init(from location: GeoPoint, to pin: GeoPoint) {
        bearing = Geodesy.initialBearing(from: location, to: pin)
        distance = Geodesy.distance(from: location, to: pin)
    }

    public var arrow: Character { Geodesy.arrow(forBearing: bearing) }

    /// Whole degrees, 0...359 (359.6 rounds to 0, not 360).
    public var wholeDegrees: Int { Int(bearing.rounded()) % 360 }

    /// "↖ 330° NW · 343.6 km". Closer than a metre there is no direction worth showing.
    public func text(units: DistanceUnits) -> String {
        guard distance >= 1 else { return "here · " + units.format(metres: distance) }
        return "\(arrow) \(wholeDegrees)° \(Geodesy.compassPoint(forBearing: bearing)) · " + units.format(metres: distance)
    }
}
