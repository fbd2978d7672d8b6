import Terminal

/// The bottom line, like nano's and htop's: the keys that work now, derived from the bindings.
enum HintBar {
    /// `bindings` fill the bar from the left as far as they fit; `pinned` (help, quit) are
    /// always shown, at the right before the status. The status takes the room it needs, down
    /// to what the pinned keys leave; hints give way to it. Returns false when the status had
    /// to be cut (the caller keeps it in the message log, to be read whole).
    @discardableResult
    static func draw(in canvas: Canvas, bindings: [KeyBinding], pinned: [KeyBinding], status: String?) -> Bool {
        let barStyle = Style(reverse: true)
        canvas.fill(style: barStyle)
        let pinnedItems = items(pinned)
        let pinnedWidth = pinnedItems.reduce(0) { $0 + $1.width }
        let statusRoom = max(canvas.width / 3, canvas.width - pinnedWidth - 2)
        let shownStatus = status.map { DisplayWidth.truncate($0, to: max(0, statusRoom)) }
        let statusText = shownStatus.map { " " + $0 + " " } ?? ""
        var x = 0
        var seen = Set(pinnedItems.map(\.label))
        for item in items(bindings) where seen.insert(item.label).inserted {
            if x + item.width > canvas.width - pinnedWidth - DisplayWidth.of(statusText) { break }
            x = draw(item, in: canvas, at: x, barStyle: barStyle)
        }
        x = max(x, canvas.width - pinnedWidth - DisplayWidth.of(statusText))
        for item in pinnedItems { x = draw(item, in: canvas, at: x, barStyle: barStyle) }
        canvas.write(statusText, x: canvas.width - DisplayWidth.of(statusText), y: 0, style: barStyle)
        return shownStatus == status
    }

    private struct Item {
        var label: String
        var help: String
        var width: Int { DisplayWidth.of(label) + DisplayWidth.of(help) }
    }

    private static func items(_ bindings: [KeyBinding]) -> [Item] {
        bindings.filter(\.showsInHintBar).map { Item(label: $0.label, help: " " + shortHelp($0.help) + "  ") }
    }

    private static func draw(_ item: Item, in canvas: Canvas, at x: Int, barStyle: Style) -> Int {
        let afterLabel = x + canvas.write(item.label, x: x, y: 0, style: Style(bold: true))
        return afterLabel + canvas.write(item.help, x: afterLabel, y: 0, style: barStyle)
    }

    /// The hint bar shows only the first words of a help text (up to a colon or a bracket).
    static func shortHelp(_ help: String) -> String {
        let cut = help.firstIndex(where: { $0 == ":" || $0 == "(" }) ?? help.endIndex
        return String(help[..<cut]).trimmingTrailingSpaces()
    }
}

enum TooSmallMessage {
    static func draw(in canvas: Canvas, minimum: Size) {
        let lines = ["Terminal too small", "\(canvas.width)×\(canvas.height), need \(minimum)", "Enlarge it, or q to quit"]
        let top = max(0, (canvas.height - lines.count) / 2)
        for (offset, line) in lines.enumerated() where top + offset < canvas.height {
            let text = DisplayWidth.truncate(line, to: canvas.width)
            canvas.write(text, x: max(0, (canvas.width - DisplayWidth.of(text)) / 2), y: top + offset, style: offset == 0 ? .bold : .plain)
        }
    }
}
