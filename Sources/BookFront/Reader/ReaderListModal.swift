import Screens
import Terminal

/// A list in a box over the reader (table of contents, bookmarks): ↑↓ choose, Enter picks the
/// row's id, Esc closes with nil. Extra bindings act on the selected row (d deletes a bookmark).
public final class ReaderListModal: ModalScreen<String?> {
    public var items: [ListItem] {
        didSet { selected = min(selected, max(0, items.count - 1)); setNeedsDisplay() }
    }
    public private(set) var selected: Int
    public var emptyMessage = "Nothing here yet."
    /// Bindings beyond moving and picking, given the selected item.
    public var rowActions: [(keys: [Key], label: String, help: String, action: (ListItem) -> Void)] = []
    private var scroll = 0
    private var rowsShown = 10

    public init(title: String, items: [ListItem], selectedID: String? = nil, completion: @escaping (String?) -> Void) {
        self.items = items
        selected = selectedID.flatMap { id in items.firstIndex { $0.id == id } } ?? 0
        super.init(title: title, message: "", completion: completion)
    }

    public var selectedItem: ListItem? { items.indices.contains(selected) ? items[selected] : nil }

    private func move(by delta: Int) {
        guard !items.isEmpty else { return }
        selected = min(max(0, selected + delta), items.count - 1)
    }

    public override var keyBindings: [KeyBinding] {
        var bindings = MotionKeys(lineHelp: "Choose").bindings { [unowned self] in
            self.move(by: $0.delta(pageSize: self.rowsShown, count: self.items.count))
        }
        bindings += [
            KeyBinding(.enter, help: "Go there") { [unowned self] in
                if let item = self.selectedItem { self.finish(item.id) }
            },
            KeyBinding([.escape, .character("q")], label: "Esc", help: "Close") { [unowned self] in self.finish(nil) },
        ]
        for row in rowActions {
            bindings.append(KeyBinding(row.keys, label: row.label, help: row.help) { [unowned self] in
                if let item = self.selectedItem { row.action(item) }
            })
        }
        return bindings
    }

    public override func handle(_ event: Event) throws -> Bool {
        if case .mouse(let mouse) = event {
            if let motion = Motion(wheel: mouse, rowsShown: rowsShown) { move(by: motion.delta(pageSize: rowsShown, count: items.count)) }
            return true
        }
        return try super.handle(event) || event.isKeyAModalKeeps
    }

    public override func draw(in canvas: Canvas) {
        let width = min(canvas.width, max(40, min(72, canvas.width - 4)))
        let height = min(canvas.height, max(5, items.count + 4))
        let box = canvas.subcanvas(canvas.bounds.centered(width: width, height: height))
        box.fill()
        box.drawBox(style: .bold)
        box.write(" " + DisplayWidth.truncate(title, to: max(0, width - 6)) + " ", x: 2, y: 0, style: .bold)
        rowsShown = max(1, height - 4)
        guard !items.isEmpty else {
            box.write(DisplayWidth.truncate(emptyMessage, to: width - 4), x: 2, y: 2)
            return
        }
        if selected < scroll { scroll = selected }
        if selected >= scroll + rowsShown { scroll = selected - rowsShown + 1 }
        for row in 0..<min(rowsShown, items.count - scroll) {
            let item = items[scroll + row]
            var text = item.title
            if let detail = item.detail { text = DisplayWidth.pad(text, to: max(0, width - 6 - DisplayWidth.of(detail) - 1)) + " " + detail }
            let isSelected = scroll + row == selected
            box.write(DisplayWidth.pad((isSelected ? "▸ " : "  ") + text, to: width - 4), x: 2, y: row + 2, style: isSelected ? .reverse : .plain)
        }
    }
}
