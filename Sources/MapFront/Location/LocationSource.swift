/// A position report: where, and when moving, which way and how fast.
public struct LocationFix: Hashable, Sendable {
    public var coordinate: GeoPoint
    /// Course over ground in degrees clockwise from true north, when known.
    public var course: Double?
    /// Metres per second, when known.
    public var speed: Double?

    public init(coordinate: GeoPoint, course: Double? = nil, speed: Double? = nil) {
        self.coordinate = coordinate
        self.course = course
        self.speed = speed
    }
}

/// Where the current location comes from: the command line, a setting, or gpsd. Read on the
/// main thread; a source with a background reader leaves its news for `refresh()` and posts
/// `Wakeup.post()`.
public protocol LocationSource: AnyObject {
    /// The latest usable fix, nil before the first one.
    var currentFix: LocationFix? { get }
    /// One short line for the status bar: "gpsd: 3D fix", "gpsd: not running (retrying at 14:02:31)".
    var statusText: String { get }
    func start()
    func stop()
    /// Takes what the background reader left; true if the fix or the status changed.
    func refresh() -> Bool
}

/// A location given once (`--location LAT,LON` or the setting): it never moves.
public final class FixedLocationSource: LocationSource {
    public let currentFix: LocationFix?
    public let statusText: String

    public init(_ coordinate: GeoPoint, origin: String) {
        currentFix = LocationFix(coordinate: coordinate)
        statusText = "location: \(origin)"
    }

    public func start() {}
    public func stop() {}
    public func refresh() -> Bool { false }
}
