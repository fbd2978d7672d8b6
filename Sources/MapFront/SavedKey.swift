/// The map's keys in the defaults store. The HP ones are the names Pigeon's iOS app uses, so
/// the two read each other's; the spellings are on users' disks and are never renamed.
public enum MapDefaultsKey {
    public static let mapType = "HPMapType"
    public static let followHeading = "HPFollowHeading"
    public static let savedLocation = "HPLocation"
    public static let units = "WLUnits"
    public static let manualLocation = "HPManualLocation"
    public static let gpsdAddress = "HPGPSDAddress"
}

/// Every other key the map saves state under, each spelled once: the fields of the pin in the
/// defaults and the pin prompt's draft in the restoration archive.
enum SavedKey {
    // The pin, {lat, long, title} as Pigeon writes it (MapPin).
    static let pinLatitude = "lat"
    static let pinLongitude = "long"
    static let pinTitle = "title"

    // Where the pin prompt puts the pin (RememberPlacePrompt).
    static let targetLatitude = "targetLatitude"
    static let targetLongitude = "targetLongitude"
    static let targetOrigin = "targetOrigin"
    static let suggestion = "suggestion"
}
