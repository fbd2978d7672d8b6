import Defaults
import PropertyList

/// The map's settings as the store has them now (whatever domain they come from), read with
/// NSUserDefaults' conversions: "2" from the command line reads as 2, and a value that is not
/// one of the choices falls back to Pigeon's defaults (standard map, follow).
public struct MapPreferences: Hashable, Sendable {
    public static let unitsKey = MapDefaultsKey.units
    /// The keys whose change the map screen must show.
    public static let watchedKeys: Set<String> = [MapDefaultsKey.mapType, MapDefaultsKey.followHeading, unitsKey, MapDefaultsKey.savedLocation]

    public var mapType: MapType
    public var tracking: TrackingMode
    public var units: DistanceUnits

    public init(mapType: MapType = .standard, tracking: TrackingMode = .follow, units: DistanceUnits = .kilometres) {
        self.mapType = mapType
        self.tracking = tracking
        self.units = units
    }

    public init(store: PreferenceStore) {
        func integer(_ key: String) -> Int? { store.object(forKey: key).flatMap(DefaultsConversion.integer) }
        mapType = integer(MapDefaultsKey.mapType).flatMap(MapType.init(rawValue:)) ?? .standard
        tracking = integer(MapDefaultsKey.followHeading).flatMap(TrackingMode.init(rawValue:)) ?? .follow
        let units = store.object(forKey: Self.unitsKey).flatMap(DefaultsConversion.string)
        self.units = units.flatMap { DistanceUnits(rawValue: $0.lowercased()) } ?? .kilometres
    }

    /// Capture at change: the moment the user picks a type or mode it is on disk (throws when
    /// the disk refused it; it is then kept in memory and written at the next chance).
    public static func write(_ mapType: MapType, to store: PreferenceStore) throws {
        store.set(.integer(Int64(mapType.rawValue)), forKey: MapDefaultsKey.mapType)
        try store.saveNow()
    }

    public static func write(_ tracking: TrackingMode, to store: PreferenceStore) throws {
        store.set(.integer(Int64(tracking.rawValue)), forKey: MapDefaultsKey.followHeading)
        try store.saveNow()
    }
}

extension MapType {
    public var next: MapType { MapType(rawValue: (rawValue + 1) % MapType.allCases.count) ?? .standard }
}

extension TrackingMode {
    public var next: TrackingMode { TrackingMode(rawValue: (rawValue + 1) % TrackingMode.allCases.count) ?? .none }
}
