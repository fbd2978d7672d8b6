import Defaults
import PropertyList

/// The remembered place (Pigeon's saved annotation): a coordinate and a title, kept in the
/// defaults under HPLocation as the dictionary {lat, long, title} other Pigeon apps write, so
/// `wonderland defaults read HPLocation` shows it and another instance can read it. A pin the
/// user set here also carries when and where (`modified`, `device`): wherever two copies of the
/// pin meet (the synced store after a relaunch), the newer one stands.
///
/// Two pins are equal when they mark the same place with the same title, whenever set.
public struct MapPin: Hashable, Sendable {
    public static let latitudeKey = SavedKey.pinLatitude
    public static let longitudeKey = SavedKey.pinLongitude
    public static let titleKey = SavedKey.pinTitle

    public var latitude: Double
    public var longitude: Double
    public var title: String
    /// When and where the user set it; nil for a pin from before pins carried one.
    public var stamp: EditStamp?

    public init(latitude: Double, longitude: Double, title: String, stamp: EditStamp? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.title = title
        self.stamp = stamp
    }

    public static func == (a: MapPin, b: MapPin) -> Bool {
        a.latitude == b.latitude && a.longitude == b.longitude && a.title == b.title
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(latitude)
        hasher.combine(longitude)
        hasher.combine(title)
    }

    public init(_ coordinate: GeoPoint, title: String) {
        self.init(latitude: coordinate.latitude, longitude: coordinate.longitude, title: title)
    }

    public var coordinate: GeoPoint { GeoPoint(latitude: latitude, longitude: longitude) }

    /// lat and long as reals, title as a string, and the stamp's two fields when it has one.
    public var propertyList: PropertyListValue {
        var fields = stamp?.fields() ?? [:]
        fields[Self.latitudeKey] = .real(latitude)
        fields[Self.longitudeKey] = .real(longitude)
        fields[Self.titleKey] = .string(title)
        return .dictionary(fields)
    }

    /// Reads the dictionary back. Numbers may arrive as integers or text (a hand-written
    /// `defaults write`), as NSUserDefaults would convert them; a missing title reads as empty.
    /// Nil when it is not a dictionary or the coordinate is missing, not a number, or off the
    /// globe — a damaged pin is not shown rather than drawn somewhere wrong.
    public init?(propertyList value: PropertyListValue?) {
        guard case .dictionary(let fields)? = value,
              let latitude = fields[Self.latitudeKey].flatMap(DefaultsConversion.double),
              let longitude = fields[Self.longitudeKey].flatMap(DefaultsConversion.double) else { return nil }
        let point = GeoPoint(latitude: latitude, longitude: longitude)
        guard point.isValid else { return nil }
        self.init(point, title: fields[Self.titleKey].flatMap(DefaultsConversion.string) ?? "")
        stamp = EditStamp(fields: fields)
    }

    /// The title to show: an empty one reads as "Pin".
    public var displayTitle: String { title.isEmpty ? "Pin" : title }

    // MARK: the store

    /// The pin in the store now, if any (restored at launch and whenever HPLocation changes).
    public static func load(from store: PreferenceStore) -> MapPin? {
        MapPin(propertyList: store.object(forKey: MapDefaultsKey.savedLocation))
    }

    /// Capture at change: written to disk before returning, the moment it is set or cleared,
    /// as Pigeon's preserveAnnotation does; nil removes the key. The pin is stamped later
    /// than the one it replaces. Returns the pin as saved; throws when the disk refused it (it
    /// is then saved in memory and written at the next chance).
    @discardableResult
    public static func save(_ pin: MapPin?, to store: PreferenceStore) throws -> MapPin? {
        var stamped = pin
        stamped?.stamp = EditStamp.now(after: load(from: store)?.stamp)
        store.set(stamped?.propertyList, forKey: MapDefaultsKey.savedLocation)
        try store.saveNow()
        return stamped
    }
}
