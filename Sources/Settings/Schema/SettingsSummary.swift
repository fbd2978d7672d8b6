import Defaults
import PropertyList

extension SettingsBundle {
    /// The first specifier, in any pane, that stores `key`.
    public func specifier(forKey key: String) -> SettingsSpecifier? {
        for pane in allPanes {
            for item in pane.items where item.specifier.key == key { return item.specifier }
        }
        return nil
    }

    /// "Map Type: Hybrid": a key's title and its current value as the settings screen names
    /// it, for screens that show a setting outside the settings screen.
    public func summary(ofKey key: String, in store: PreferenceStore) -> String? {
        guard let specifier = specifier(forKey: key) else { return nil }
        let value = store.object(forKey: key) ?? specifier.defaultValue
        return "\(specifier.title ?? key): \(specifier.summary(of: value))"
    }
}

extension SettingsSpecifier {
    /// A value in words: On/Off, a choice's title, a slider's number; a secure text as dots.
    public func summary(of value: PropertyListValue?) -> String {
        switch self {
        case .toggleSwitch(let toggle): return toggle.isOn(value) ? "On" : "Off"
        case .slider(let slider): return SettingsValue.format(slider.number(value))
        case .multiValue(let multi): return multi.choices.title(for: value) ?? value.map(SettingsValue.display) ?? "—"
        case .radioGroup(let radio): return radio.choices.title(for: value) ?? value.map(SettingsValue.display) ?? "—"
        case .titleValue(let titleValue): return titleValue.choices?.title(for: value) ?? value.map(SettingsValue.display) ?? "—"
        case .textField(let field):
            guard case .string(let text)? = value, !text.isEmpty else { return "—" }
            return field.isSecure ? String(repeating: "•", count: text.count) : text
        case .group, .childPane: return ""
        }
    }
}
