import Foundation

/// `--location LAT,LON`: "48.8566,2.3522", "48.8566, 2.3522" or "-33.9 151.2".
public enum LocationArgument {
    /// The point, or a message saying what is wrong with the text.
    public static func parse(_ text: String) -> Result<GeoPoint, LocationArgumentError> {
        let parts = text.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
        guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
              latitude.isFinite, longitude.isFinite else {
            return .failure(LocationArgumentError(message: "--location “\(text)” is not LAT,LON (e.g. 48.8566,2.3522)"))
        }
        guard abs(latitude) <= 90, abs(longitude) <= 180 else {
            return .failure(LocationArgumentError(message: "--location “\(text)” is off the globe (latitude ±90, longitude ±180)"))
        }
        return .success(GeoPoint(latitude: latitude, longitude: longitude))
    }

    /// A fixed source for good text, an unavailable one that says why for bad text.
    public static func source(for text: String) -> LocationSource {
        switch parse(text) {
        case .success(let point): return FixedLocationSource(point, origin: "--location")
        case .failure(let error): return UnavailableLocationSource(reason: error.message)
        }
    }
}

public struct LocationArgumentError: Error, Hashable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

/// No location at all, and the reason, for the status line (a bad argument, nothing wired in).
public final class UnavailableLocationSource: LocationSource {
    public let statusText: String
    public init(reason: String) { statusText = "no location: " + reason }
    public var currentFix: LocationFix? { nil }
    public func start() {}
    public func stop() {}
    public func refresh() -> Bool { false }
}
