import Defaults
import PropertyList

/// The preference store the settings program edits through: everything passes to the real
/// store, except a Sync Server address that holds a password, which is refused (the defaults
/// file is no place for one) and `onRefusal` told why, with where the password goes instead.
/// One that another tool saved is shown without its password (the app removes it from the
/// file when it next runs).
public final class CloudServerSettingGuard: PreferenceStore {
    public let store: PreferenceStore
    /// Called with the message for the user when a write is refused.
    public var onRefusal: (String) -> Void = { _ in }

    public init(store: PreferenceStore) { self.store = store }

    public static let refusal = "This address holds a password, so it was not saved: the settings file is no place for one. "
        + CloudServerCredentials.advice

    /// The one rule, for the settings screens and the `defaults` commands alike: the message
    /// refusing `value` for `key`, or nil when it may be saved.
    public static func refusal(forKey key: String, value: PropertyListValue?) -> String? {
        guard key == CloudSettings.syncServerKey, case .string(let text)? = value, URLPassword.isPresent(in: text) else { return nil }
        return refusal
    }

    /// `value` as it may be shown: a Sync Server address without its password.
    public static func redacted(forKey key: String, value: PropertyListValue?) -> PropertyListValue? {
        guard key == CloudSettings.syncServerKey, case .string(let text)? = value,
              let split = URLPassword.split(from: text) else { return value }
        return .string(split.address)
    }

    public func object(forKey key: String) -> PropertyListValue? {
        Self.redacted(forKey: key, value: store.object(forKey: key))
    }

    public func set(_ value: PropertyListValue?, forKey key: String) {
        if let refusal = Self.refusal(forKey: key, value: value) {
            onRefusal(refusal)
            return
        }
        store.set(value, forKey: key)
    }

    public func register(defaults: [String: PropertyListValue]) { store.register(defaults: defaults) }

    public func addChangeObserver(_ handler: @escaping (Set<String>) -> Void) -> PreferenceObservation {
        store.addChangeObserver(handler)
    }

    public func mergesPerEntry(_ key: String, rule: EntryMerge) { store.mergesPerEntry(key, rule: rule) }
    public func saveNow() throws { try store.saveNow() }
}
