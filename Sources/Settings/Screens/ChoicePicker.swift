import PropertyList
import Screens
import Terminal

/// A modal list of a multi-value's titles: ↑↓ and Enter pick one, Esc cancels. The result is the
/// chosen value, nil when cancelled.
public final class ChoicePicker: ModalScreen<PropertyListValue?> {
    /// The titles shown and the values they stand for.
    public let choices: SettingsChoices
    /// The choice under the cursor, by index; Enter chooses it.
    public private(set) var highlighted: Int
    /// The value the setting has now (marked with a dot).
    public let current: PropertyListValue?
    private var scrollOffset = 0
    private var visibleRows = 1
    /// Where the first choice was drawn, in frame coordinates, for clicks.
    private var listOrigin: Point?

    /// A picker titled `title`, starting on the choice `current` is (else the first);
    /// `completion` gets the chosen value, or nil when the picker is cancelled.
    public init(title: String, choices: SettingsChoices, current: PropertyListValue?, completion: ((PropertyListValue?) -> Void)? = nil) {
        self.choices = choices
        self.current = current
        highlighted = choices.index(of: current) ?? 0
        super.init(title: title, message: "", completion: completion)
    }

    /// The motion keys over the choices, Enter or Space to choose, Esc to cancel.
    public override var keyBindings: [KeyBinding] {
        MotionKeys().bindings { [unowned self] in
            self.move(by: $0.delta(pageSize: self.visibleRows, count: self.choices.values.count))
        } + [
            KeyBinding([.enter, .character(" ")], label: "Enter", help: "Choose") { [unowned self] in self.choose(self.highlighted) },
            KeyBinding(.escape, help: "Cancel") { [unowned self] in self.finish(nil) },
        ]
    }

    private func move(by delta: Int) {
        guard !choices.values.isEmpty else { return }
        highlighted = min(max(0, highlighted + delta), choices.values.count - 1)
    }

    private func choose(_ index: Int) {
        guard choices.values.indices.contains(index) else { return finish(nil) }
        finish(choices.values[index])
    }

    /// The wheel moves the highlight and a click chooses; other events go to the keys.
    public override func handle(_ event: Event) throws -> Bool {
        if case .mouse(let mouse) = event {
            if let motion = Motion(wheel: mouse, rowsShown: visibleRows) {
                move(by: motion.delta(pageSize: visibleRows, count: choices.values.count))
                return true
            }
            switch mouse.kind {
            case .press:
                guard let origin = listOrigin else { return true }
                let row = mouse.position.y - origin.y
                if row >= 0, row < visibleRows, scrollOffset + row < choices.values.count { choose(scrollOffset + row) }
            default: break
            }
            return true
        }
        return try super.handle(event)
    }

    /// A box in the middle of the screen: the title, then the choices, the current one marked
    /// with a dot and the highlighted one reversed, scrolled to keep the highlight in view.
    public override func draw(in canvas: Canvas) {
        let longest = choices.titles.map { DisplayWidth.of($0) }.max() ?? 0
        let width = min(canvas.width, max(24, longest + 8, DisplayWidth.of(title) + 8))
        let height = min(canvas.height, choices.values.count + 2)
        let box = canvas.subcanvas(canvas.bounds.centered(width: width, height: height))
        box.fill()
        box.drawBox(style: .bold)
        box.write(" " + DisplayWidth.truncate(title, to: max(0, width - 6)) + " ", x: 2, y: 0, style: .bold)
        visibleRows = max(1, height - 2)
        if highlighted < scrollOffset { scrollOffset = highlighted }
        if highlighted >= scrollOffset + visibleRows { scrollOffset = highlighted - visibleRows + 1 }
        scrollOffset = max(0, min(scrollOffset, choices.values.count - visibleRows))
        listOrigin = Point(x: box.frame.x + 1, y: box.frame.y + 1)
        let currentIndex = choices.index(of: current)
        for row in 0..<min(visibleRows, choices.values.count - scrollOffset) {
            let index = scrollOffset + row
            let line = box.subcanvas(Rect(x: 1, y: row + 1, width: width - 2, height: 1))
            let style = index == highlighted ? Style(reverse: true) : Style.plain
            line.fill(style: style)
            let mark = index == currentIndex ? "• " : "  "
            line.write(" " + mark + DisplayWidth.truncate(choices.titles[index], to: max(0, line.width - 4)), x: 0, y: 0, style: style)
        }
    }
}
