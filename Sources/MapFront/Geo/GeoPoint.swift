/// A place on the globe in degrees (WGS 84, as Natural Earth and gpsd give them).
public struct GeoPoint: Hashable, Sendable, CustomStringConvertible {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
    }

    /// The same place with its longitude brought into -180..<180 and its latitude into -90...90.
    public var normalized: GeoPoint {
        GeoPoint(latitude: min(90, max(-90, latitude)), longitude: Self.wrapLongitude(longitude))
    }

    public static func wrapLongitude(_ longitude: Double) -> Double {
        guard longitude.isFinite else { return 0 }
        let wrapped = (longitude + 180).truncatingRemainder(dividingBy: 360)
        return (wrapped < 0 ? wrapped + 360 : wrapped) - 180
    }

    /// "48.8566° N, 2.3522° E"
    public var description: String {
        func part(_ value: Double, _ positive: String, _ negative: String) -> String {
            let rounded = (abs(value) * 10_000).rounded() / 10_000
            return "\(rounded)° \(value < 0 ? negative : positive)"
        }
        return part(latitude, "N", "S") + ", " + part(longitude, "E", "W")
    }
}
