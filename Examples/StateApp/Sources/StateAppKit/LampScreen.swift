import Defaults
import Screens
import Terminal

/// What the settings say, drawn as they change: made from settings alone, it saves nothing
/// of its own, and follows a change made on the Settings tab or by another process.
public final class LampScreen: Screen {
    private let settings: LampSettings
    private var observation: PreferenceObservation?

    public init(store: PreferenceStore) {
        settings = LampSettings(store: store)
        super.init(title: "Lamp", restorationIdentifier: "Lamp")
        observation = store.addChangeObserver { [weak self] _ in self?.setNeedsDisplay() }
    }

    public override func draw(in canvas: Canvas) {
        let keeper = settings.keeper.isEmpty ? "nobody yet (see Settings)" : settings.keeper
        canvas.write(" Keeper  \(keeper)", x: 0, y: 1)
        canvas.write(" Lamp    " + (settings.isLit ? "lit, \(settings.signal.lowercased())" : "dark"), x: 0, y: 2)
        let lit = settings.isLit ? settings.brightness : 0
        let beam = String(repeating: "█", count: lit) + String(repeating: "░", count: 10 - lit)
        canvas.write(" Beam    ", x: 0, y: 3)
        canvas.write(beam, x: 9, y: 3, style: Style(foreground: settings.isLit ? .yellow : nil))
        canvas.write(" \(lit)/10", x: 19, y: 3)
    }
}
