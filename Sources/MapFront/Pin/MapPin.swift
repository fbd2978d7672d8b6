import Defaults
import PropertyList

/// The remembered place (Pigeon's saved annotation): a coordinate and a title, kept in the
/// defaults under HPLocation as the dictionary {lat, long, title} the seed describes, so
/// `wonderland defaults read HPLocation` shows it and another instance can read it.
public struct MapPin: Hashable, Sendable {
    public static let latitudeKey = "lat"
    public static let longitudeKey = "long"
    public static let titleKey = "title"

    public var latitude: Double
    public var longitude: Double
    public var title: String

    public init(latitude: Double, longitude: Double, title: String) {
        self.latitude = latitude
        self.longitude = longitude
        self.title = title
    }

    public init(_ coordinate: GeoPoint, title: String) {
        self.init(latitude: coordinate.latitude, longitude: coordinate.longitude, title: title)
    }

    public var coordinate: GeoPoint { GeoPoint(latitude: latitude, longitude: longitude) }

    /// Exactly three keys: lat and long as reals, title as a string.
    public var propertyList: PropertyListValue {
        .dictionary([
            Self.latitudeKey: .real(latitude),
            Self.longitudeKey: .real(longitude),
            Self.titleKey: .string(title),
        ])
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
    }

    /// The title to show: an empty one reads as "Pin".
    public var displayTitle: String { title.isEmpty ? "Pin" : title }

    // MARK: the store

    /// The pin in the store now, if any (restored at launch and whenever HPLocation changes).
    public static func load(from store: PreferenceStore) -> MapPin? {
        MapPin(propertyList: store.object(forKey: MapDefaultsKey.savedLocation))
    }

    /// Capture at change: written the moment it is set or cleared, as the seed's
    /// preserveAnnotation does; nil removes the key.
    public static func save(_ pin: MapPin?, to store: PreferenceStore) {
        store.set(pin?.propertyList, forKey: MapDefaultsKey.savedLocation)
    }
}
