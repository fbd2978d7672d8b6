import Defaults
import Foundation
import FuzzSupport
import PropertyList
import Settings

/// Feeds arbitrary bytes to the settings-bundle loader as Root.plist and its child panes, then
/// uses what it accepted the way the settings screen and the app do. Loading never throws: every
/// problem must come back as a SettingsSchemaError naming a file of the bundle, and nothing may
/// trap, neither in the loader nor on a schema it let through.
///
/// Input layout: files separated by `PaneSplit.marker`. The first is Root.plist, the next
/// P1.plist, P2.plist, …, so links, shared panes, cycles (File "Root" or its own name) and
/// missing files (any other name) all arise from the bytes alone.

/// What the settings screen does with an item: show its summary, step a slider, flip a toggle,
/// pick each choice.
func use(_ specifier: SettingsSpecifier, store: PreferenceStore) {
    _ = specifier.typeName
    _ = specifier.title
    let defaultValue = specifier.defaultValue
    _ = specifier.summary(of: defaultValue)
    _ = specifier.summary(of: nil)
    switch specifier {
    case .slider(let slider):
        let start = slider.number(defaultValue)
        precondition(start >= slider.minimumValue && start <= slider.maximumValue, "slider default outside its range")
        for number in [start, start + slider.step, start - slider.bigStep, slider.minimumValue, slider.maximumValue,
                       -.infinity, .infinity] {
            let stored = slider.value(for: number)
            _ = slider.number(stored)
            _ = specifier.summary(of: stored)
        }
    case .toggleSwitch(let toggle):
        for isOn in [true, false] { _ = toggle.isOn(toggle.value(for: isOn)) }
    case .multiValue(let multi):
        precondition(multi.choices.index(of: multi.defaultValue) != nil, "multi-value default is not a choice")
        for value in multi.choices.values {
            _ = multi.shortTitle(for: value)
            _ = specifier.summary(of: value)
        }
    case .radioGroup(let radio):
        for value in radio.choices.values { _ = specifier.summary(of: value) }
    case .titleValue(let titleValue):
        for value in titleValue.choices?.values ?? [] { _ = specifier.summary(of: value) }
    case .textField(let field):
        _ = field.autocapitalizationType.apply(to: field.defaultValue ?? "")
        for character in (field.defaultValue ?? "").prefix(64) { _ = field.keyboardType.accepts(character) }
    case .group, .childPane:
        break
    }
    if let key = specifier.key { _ = store.object(forKey: key) }
}

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes else { return 0 }
    let files = PaneSplit.files(Data(bytes: bytes, count: count))
    let bundle = SettingsBundle.load(files: files)
    let asked = Set(files.keys)
    for error in bundle.errors {
        precondition(asked.contains(error.file), "error names a file that is not in the bundle: \(error)")
        precondition(!error.message.isEmpty, "error without a message")
        _ = error.description
    }
    let store = InMemoryPreferenceStore()
    bundle.registerDefaults(in: store)
    for pane in bundle.allPanes {
        precondition(asked.contains(pane.fileName), "pane from a file that is not in the bundle: \(pane.name)")
        for item in pane.items { use(item.specifier, store: store) }
        for key in pane.keys { _ = bundle.summary(ofKey: key, in: store) }
    }
    return 0
}

exit(runLibFuzzer(testOneInput))
