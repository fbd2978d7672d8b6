import Terminal

/// A selectable row of a settings pane: one specifier, or one choice of a radio group.
struct SettingsRow: Hashable {
    var id: String
    /// Index into the pane's `items`.
    var item: Int
    /// For a radio group's rows: which choice.
    var choice: Int?
}

/// One line of a pane, as drawn: the pane is a list of these, laid out once per width.
enum SettingsLine: Hashable {
    case title(String)
    case footer(String)
    case blank
    case row(Int)
    /// What is wrong with the text of the field being edited, under its row.
    case problem
}

/// The pane's lines at a given width (footers wrap, so the lines depend on it). Building it is
/// linear in the number of items and happens only when the width changes; drawing then touches
/// only the lines on screen.
struct SettingsLayout {
    let width: Int
    private(set) var rows: [SettingsRow] = []
    private(set) var lines: [SettingsLine] = []
    /// The line each row sits on.
    private(set) var lineOfRow: [Int] = []

    init(pane: SettingsPane, width: Int) {
        self.width = width
        var pendingFooter: String?
        var afterRadioGroup = false
        var ids = Set<String>()

        func closeGroup() {
            if let footer = pendingFooter, !footer.isEmpty {
                for line in DisplayWidth.wrap(footer, to: max(1, width - 4)) { lines.append(.footer(line)) }
            }
            pendingFooter = nil
        }
        func startSection(_ title: String?) {
            closeGroup()
            if !lines.isEmpty { lines.append(.blank) }
            if let title, !title.isEmpty { lines.append(.title(title)) }
        }
        func addRow(_ id: String, item: Int, choice: Int? = nil) {
            var unique = id
            if !ids.insert(unique).inserted {
                unique = "\(id)@\(pane.items[item].index)"
                ids.insert(unique)
            }
            lineOfRow.append(lines.count)
            lines.append(.row(rows.count))
            rows.append(SettingsRow(id: unique, item: item, choice: choice))
        }

        for (position, item) in pane.items.enumerated() {
            switch item.specifier {
            case .group(let group):
                startSection(group.title)
                pendingFooter = group.footerText
                afterRadioGroup = false
            case .radioGroup(let radio):
                startSection(radio.title)
                for choice in radio.choices.titles.indices { addRow("\(radio.key)#\(choice)", item: position, choice: choice) }
                pendingFooter = radio.footerText
                afterRadioGroup = true
            case .childPane(let child):
                if afterRadioGroup { startSection(nil); afterRadioGroup = false }
                addRow("pane:" + child.file, item: position)
            default:
                if afterRadioGroup { startSection(nil); afterRadioGroup = false }
                addRow(item.specifier.key ?? "item\(item.index)", item: position)
            }
        }
        closeGroup()
    }

    func rowIndex(id: String?) -> Int? {
        guard let id else { return nil }
        return rows.firstIndex { $0.id == id }
    }
}

/// The lines as drawn: the layout's, with one more under a row when the field being edited
/// there has a problem. Indexed without copying the layout's lines, which may be many.
struct SettingsShownLines {
    let layout: SettingsLayout
    /// Where the problem line is, nil when there is none.
    let problemLine: Int?

    init(layout: SettingsLayout, problemUnderRow row: Int? = nil) {
        self.layout = layout
        problemLine = row.flatMap { layout.lineOfRow.indices.contains($0) ? layout.lineOfRow[$0] + 1 : nil }
    }

    var count: Int { layout.lines.count + (problemLine == nil ? 0 : 1) }

    subscript(line: Int) -> SettingsLine {
        guard let problemLine, line >= problemLine else { return layout.lines[line] }
        return line == problemLine ? .problem : layout.lines[line - 1]
    }
}

/// The small pictures a slider's MinimumValueImage and MaximumValueImage name, as glyphs.
public enum SliderGlyphs {
    static let known: [String: String] = [
        "turtle": "🐢", "rabbit": "🐇",
        "narrow": "→←", "wide": "←→",
        "minus": "-", "plus": "+",
        "small": "a", "large": "A",
        "quiet": "🔈", "loud": "🔊",
        "dark": "☾", "light": "☀",
        "slow": "🐢", "fast": "🐇",
    ]

    /// The glyph for an image name: a known picture, else the name's first letter.
    public static func glyph(for name: String?) -> String? {
        guard let name, let first = name.first else { return nil }
        return known[name.lowercased()] ?? String(first)
    }
}
