import Terminal

/// A box over the app listing more rows than may fit (every key, the last messages): the motion
/// keys and the wheel scroll it, Esc closes it. Each row is one line, cut with "…" when it is
/// wider than the box; a subclass that must not lose words wraps them into rows first.
class ScrollingOverlay: ModalScreen<Void> {
    struct Row {
        var label = ""
        var text: String
        var style = Style.plain
    }

    /// The first row shown.
    private(set) var scroll: Int
    private var rowsShown = 1
    private var rowCount = 0
    /// The widest the box gets on a wide terminal.
    var maximumWidth: Int { 64 }

    /// `startsAtEnd`: opens scrolled to the last rows (the newest messages).
    init(title: String, startsAtEnd: Bool = false) {
        scroll = startsAtEnd ? Int.max / 2 : 0
        super.init(title: title, message: "")
    }

    /// The rows for a box whose text is `width` columns wide.
    func rows(width: Int) -> [Row] { [] }

    /// Keys that close the overlay, besides Esc and Enter.
    var closingKeys: [Key] { [.character("q")] }
    var closingHelp: String { "Close" }

    override var keyBindings: [KeyBinding] {
        [
            KeyBinding([.escape, .enter] + closingKeys, label: "Esc", help: closingHelp) { [unowned self] in self.finish(()) },
        ] + MotionKeys(lineHelp: "Scroll", linesInHintBar: false).bindings { [unowned self] in self.scroll($0) }
    }

    override func handle(_ event: Event) throws -> Bool {
        if case .mouse(let mouse) = event {
            if let motion = Motion(wheel: mouse, rowsShown: rowsShown) { scroll(motion) }
            return true
        }
        return try super.handle(event)
    }

    private func scroll(_ motion: Motion) {
        let limit = max(0, rowCount - rowsShown)
        scroll = min(max(0, min(scroll, limit) + motion.delta(pageSize: rowsShown, count: rowCount)), limit)
    }

    override func draw(in canvas: Canvas) {
        let width = min(canvas.width, maximumWidth)
        let inner = max(1, width - 4)
        let rows = rows(width: inner)
        let labelWidth = min(14, rows.map { DisplayWidth.of($0.label) }.max() ?? 0)
        let height = min(canvas.height, rows.count + 4)
        let box = canvas.subcanvas(canvas.bounds.centered(width: width, height: height))
        box.fill()
        box.drawBox(style: .bold)
        box.write(" " + DisplayWidth.truncate(title, to: max(0, width - 6)) + " ", x: 2, y: 0, style: .bold)
        rowCount = rows.count
        rowsShown = max(1, height - 3)
        scroll = min(scroll, max(0, rows.count - rowsShown))
        let textX = labelWidth == 0 ? 2 : labelWidth + 4
        for (row, entry) in rows.dropFirst(scroll).enumerated() where row + 2 < height - 1 {
            if labelWidth > 0 { box.write(DisplayWidth.pad(entry.label, to: labelWidth), x: 2, y: row + 2, style: .bold) }
            box.write(DisplayWidth.truncate(entry.text, to: max(0, width - textX - 2)), x: textX, y: row + 2, style: entry.style)
        }
        drawScrollMarks(in: box, shown: rowsShown, total: rows.count)
    }

    /// "↑"/"↓" on the box's right edge when there is more above or below.
    private func drawScrollMarks(in box: Canvas, shown: Int, total: Int) {
        guard box.height >= 4 else { return }
        if scroll > 0 { box.write("↑", x: box.width - 1, y: 2, style: .bold) }
        if scroll + shown < total { box.write("↓", x: box.width - 1, y: box.height - 2, style: .bold) }
    }
}

/// Every key of the focused screen and its containers, with its help: what `?` shows.
final class HelpOverlay: ScrollingOverlay {
    let bindings: [KeyBinding]

    init(bindings: [KeyBinding], title: String) {
        self.bindings = bindings
        super.init(title: "Keys: " + title)
    }

    override var closingKeys: [Key] { [.character("?"), .function(1), .character("q")] }
    override var closingHelp: String { "Close help" }

    override func rows(width: Int) -> [Row] {
        Self.listed(bindings).map { Row(label: $0.label, text: $0.help) }
    }

    /// Each key once, as it acts: bindings come focused screen first, and a key taken there
    /// never reaches an ancestor's binding for it (the editor's Esc before its page's), so a
    /// binding whose every key was listed already, or whose label was, is left out.
    static func listed(_ bindings: [KeyBinding]) -> [KeyBinding] {
        var seenKeys = Set<Key>()
        var seenLabels = Set<String>()
        var listed: [KeyBinding] = []
        for binding in bindings {
            let shadowed = !binding.keys.isEmpty && binding.keys.allSatisfy { seenKeys.contains($0) }
            seenKeys.formUnion(binding.keys)
            guard !shadowed, seenLabels.insert(binding.label).inserted else { continue }
            listed.append(binding)
        }
        return listed
    }
}

/// The last messages the app showed (notices, errors, alerts), oldest first, each wrapped whole:
/// a status line cuts a long message to fit, and this is where it can be read in full.
final class MessagesOverlay: ScrollingOverlay {
    let entries: [String]

    init(entries: [String]) {
        self.entries = entries
        super.init(title: "Messages", startsAtEnd: true)
    }

    override var maximumWidth: Int { 80 }
    override var closingKeys: [Key] { [.character("q"), .character("M"), .function(2)] }
    override var closingHelp: String { "Close messages" }

    override func rows(width: Int) -> [Row] {
        guard !entries.isEmpty else { return [Row(text: "No messages yet.", style: .plain)] }
        var rows: [Row] = []
        for (index, entry) in entries.enumerated() {
            let lines = DisplayWidth.wrap(entry, to: max(1, width - 2))
            for (number, line) in lines.enumerated() {
                rows.append(Row(text: (number == 0 ? "• " : "  ") + line, style: index == entries.count - 1 ? .bold : .plain))
            }
        }
        return rows
    }
}
