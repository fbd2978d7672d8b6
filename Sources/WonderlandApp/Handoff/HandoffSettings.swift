import Defaults
import FoundationEssentials
import Platform
import TextSafety
#if canImport(Glibc)
import Glibc
#endif

/// The Handoff settings (Settings › Sync) and where an activity lives in the synced store.
public enum HandoffSettings {
    /// Off until the user turns it on: nothing is sent, and nothing is offered.
    public static let enabledKey = "WLHandoff"
    /// Whether a draft (a note being typed, a question half asked) travels with the activity.
    public static let draftsKey = "WLHandoffDrafts"
    /// Whether this machine's activity is taken out of the store when the app quits.
    public static let forgetOnQuitKey = "WLHandoffForgetOnQuit"
    /// The name other machines show this one by; empty means the host name.
    public static let deviceNameKey = "WLDeviceName"
    /// One store key per device: `WLHandoff.<device id>`.
    public static let storePrefix = "WLHandoff."
    /// The most an activity takes in the store, its encoding whole; a draft that would make it
    /// larger is left out (and the activity says so).
    public static let maximumBytes = 32 * 1_024

    public static func isOn(_ store: PreferenceStore) -> Bool { bool(enabledKey, store) }
    public static func includesDrafts(_ store: PreferenceStore) -> Bool { bool(draftsKey, store) }
    public static func forgetsOnQuit(_ store: PreferenceStore) -> Bool { bool(forgetOnQuitKey, store) }

    /// The Device Name setting, else this machine's host name, else "another machine".
    public static func deviceName(_ store: PreferenceStore) -> String {
        let chosen = store.object(forKey: deviceNameKey).flatMap(DefaultsConversion.string)?.trimmingSpaces() ?? ""
        if !chosen.isEmpty { return HandoffActivity.bounded(chosen, to: HandoffActivity.maximumNameCharacters) }
        var buffer = [CChar](repeating: 0, count: 256)
        if gethostname(&buffer, buffer.count - 1) == 0 {
            let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let short = name.split(separator: ".").first.map(String.init) ?? name
            if !short.isEmpty { return HandoffActivity.bounded(short, to: HandoffActivity.maximumNameCharacters) }
        }
        return "another machine"
    }

    private static func bool(_ key: String, _ store: PreferenceStore) -> Bool {
        store.object(forKey: key).flatMap(DefaultsConversion.bool) ?? false
    }
}
