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
    public static let restorationID = "RememberPlacePrompt"
    /// What the prompt was saved under before identifiers were nouns.
    public static let formerRestorationIDs = ["RememberPlace"]

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
        formerRestorationIdentifiers = Self.formerRestorationIDs
        preservesDraft = true
    }

    public override func encodeRestorableState(with coder: KeyedArchiver) throws {
        try super.encodeRestorableState(with: coder)
        coder.encode(target.latitude, forKey: SavedKey.targetLatitude)
        coder.encode(target.longitude, forKey: SavedKey.targetLongitude)
        try coder.encode(origin, forKey: SavedKey.targetOrigin)
        try coder.encode(suggestion, forKey: SavedKey.suggestion)
    }

    /// Rebuilds the prompt from its saved target; declines (nil) when the target is missing or
    /// off the globe, and the engine logs that it skipped it.
    public static func register(in registry: inout RestorationClassRegistry, store: PreferenceStore) {
        registry.register(restorationClass) { _, coder in
            guard coder.containsValue(forKey: SavedKey.targetLatitude), coder.containsValue(forKey: SavedKey.targetLongitude) else { return nil }
            let target = GeoPoint(latitude: try coder.decodeDouble(forKey: SavedKey.targetLatitude), longitude: try coder.decodeDouble(forKey: SavedKey.targetLongitude))
            guard target.isValid else { return nil }
            let suggestion = try coder.decodeObject(of: String.self, forKey: SavedKey.suggestion) ?? target.description
            let origin = try coder.decodeObject(of: String.self, forKey: SavedKey.targetOrigin) ?? "saved"
            return RememberPlacePrompt(target: target, origin: origin, suggestion: suggestion, store: store)
        }
    }
}
