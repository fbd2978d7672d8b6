import Defaults
import KeyedArchive
import Restoration
import Screens

/// A placeholder page that lists the settings its front will use, with their current values,
/// and redraws when one changes — here, in `wonderland settings`, or via `wonderland defaults`.
final class SettingsAwarePager: PagerScreen {
    private let introduction: String
    private let keys: [String]
    private let services: AppServices
    private var observation: PreferenceObservation?

    init(title: String, introduction: String, keys: [String], services: AppServices, restorationIdentifier: String) {
        self.introduction = introduction
        self.keys = keys
        self.services = services
        super.init(title: title, text: introduction, restorationIdentifier: restorationIdentifier)
        text = composedText()
        let watched = Set(keys)
        observation = services.store.addChangeObserver { [weak self] changed in
            guard let self, !changed.isDisjoint(with: watched) else { return }
            let offset = self.anchorOffset
            self.text = self.composedText()
            self.anchorOffset = offset
        }
    }

    private func composedText() -> String {
        let lines = keys.compactMap { services.bundle.summary(ofKey: $0, in: services.store) }
        return introduction + "\n\nSettings (press , to change them):\n" + lines.map { "  " + $0 }.joined(separator: "\n")
    }
}
