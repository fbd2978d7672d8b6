import Defaults
import PropertyList
import Settings

/// The lamp's settings: their keys, the schema the settings screen draws (built in code here;
/// `SettingsBundle.load` reads the same from an iOS Settings.bundle folder), and typed reads.
public struct LampSettings {
    public static let keeperKey = "LampKeeper"
    public static let litKey = "LampLit"
    public static let brightnessKey = "LampBrightness"
    public static let signalKey = "LampSignal"
    public static let signals = ["Steady", "Flashing", "Occulting"]

    public static let bundle = SettingsBundle(root: SettingsPane(name: "Root", title: "Settings", items: [
        .group(GroupSpecifier(title: "Keeper")),
        .textField(TextFieldSpecifier(title: "Name", key: keeperKey, defaultValue: "")),
        .group(GroupSpecifier(title: "Lamp", footerText: "The Lamp tab shows these as they change.")),
        .toggleSwitch(ToggleSwitchSpecifier(title: "Lit", key: litKey, defaultValue: .boolean(true))),
        .slider(SliderSpecifier(title: "Brightness", key: brightnessKey, defaultValue: .integer(6),
                                minimumValue: 1, maximumValue: 10, isIntegral: true)),
        .multiValue(MultiValueSpecifier(title: "Signal", key: signalKey,
                                        choices: SettingsChoices(titles: signals, values: signals.map(PropertyListValue.string)),
                                        defaultValue: .string("Steady"))),
    ].enumerated().map { SettingsItem(index: $0.offset, specifier: $0.element) }))

    let store: PreferenceStore

    public init(store: PreferenceStore) { self.store = store }

    public var keeper: String { store.object(forKey: Self.keeperKey).flatMap(DefaultsConversion.string) ?? "" }
    public var isLit: Bool { store.object(forKey: Self.litKey).flatMap(DefaultsConversion.bool) ?? true }
    /// 1…10 whatever the file says: another program may have written anything there.
    public var brightness: Int {
        min(10, max(1, store.object(forKey: Self.brightnessKey).flatMap(DefaultsConversion.integer) ?? 6))
    }
    public var signal: String {
        let stored = store.object(forKey: Self.signalKey).flatMap(DefaultsConversion.string) ?? ""
        return Self.signals.contains(stored) ? stored : "Steady"
    }
}
