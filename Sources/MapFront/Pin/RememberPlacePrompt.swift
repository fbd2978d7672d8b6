import Defaults
import KeyedArchive
import Platform
import Restoration
import Screens

/// "Remember this place": the prompt for the pin's title. It keeps its half-typed title across
/// a relaunch, like any draft in the app, so it must be rebuilt at launch by a restoration class
/// from what it saved — where the pin goes and the suggested title — and it saves the pin to the
/// defaults itself: the map screen follows that key, so it shows the pin whichever prompt, the
/// original or the restored one, set it.
public final class RememberPlacePrompt: Prompt {
    public static let restorationClass = "RememberPlacePrompt"
    public static let restorationID = "RememberPlace"

    enum Key {
        static let latitude = "targetLatitude"
        static let longitude = "targetLongitude"
        static let origin = "targetOrigin"
        static let suggestion = "suggestion"
    }

    public let target: GeoPoint
    public let origin: String
    public let suggestion: String

    /// `onSave` runs after the pin is on disk (the live screen uses it to say where it went),
    /// with the error when it could not be written.
    public init(target: GeoPoint, origin: String, suggestion: String, store: PreferenceStore, onSave: ((MapPin, Error?) -> Void)? = nil) {
        self.target = target
        self.origin = origin
        self.suggestion = suggestion
        super.init(title: "Remember this place", message: "Title for the pin at \(target) (\(origin)):", text: suggestion,
                   restorationIdentifier: Self.restorationID) { title in
            guard let title else { return }
            let trimmed = title.trimmingWhitespace()
            let pin = MapPin(target, title: trimmed.isEmpty ? suggestion : trimmed)
            do {
                try MapPin.save(pin, to: store)
                onSave?(pin, nil)
            } catch {
                onSave?(pin, error)
            }
        }
        restorationClassName = Self.restorationClass
        preservesDraft = true
    }

    public override func encodeRestorableState(with coder: KeyedArchiver) throws {
        try super.encodeRestorableState(with: coder)
        coder.encode(target.latitude, forKey: Key.latitude)
        coder.encode(target.longitude, forKey: Key.longitude)
        try coder.encode(origin, forKey: Key.origin)
        try coder.encode(suggestion, forKey: Key.suggestion)
    }

    /// Rebuilds the prompt from its saved target; declines (nil) when the target is missing or
    /// off the globe, and the engine logs that it skipped it.
    public static func register(in registry: inout RestorationClassRegistry, store: PreferenceStore) {
        registry.register(restorationClass) { _, coder in
            guard coder.containsValue(forKey: Key.latitude), coder.containsValue(forKey: Key.longitude) else { return nil }
            let target = GeoPoint(latitude: try coder.decodeDouble(forKey: Key.latitude), longitude: try coder.decodeDouble(forKey: Key.longitude))
            guard target.isValid else { return nil }
            let suggestion = try coder.decodeObject(of: String.self, forKey: Key.suggestion) ?? target.description
            let origin = try coder.decodeObject(of: String.self, forKey: Key.origin) ?? "saved"
            return RememberPlacePrompt(target: target, origin: origin, suggestion: suggestion, store: store)
        }
    }
}
