import Defaults
import KeyedArchive
import PropertyList
import Restoration
import Screens
import Terminal

/// One pane of a settings bundle, drawn against a preference store: group titles and footers,
/// a row per specifier with its title on the left and its value on the right. Toggles switch,
/// sliders slide, multi-values open a picker, radio groups check a row, text fields edit in
/// place, title-values only show, child panes push on the enclosing navigation stack. Every
/// value is read from the store as it is drawn, and the screen redraws when the store says a
/// key of this pane changed, so a change made elsewhere shows at once. Schema errors of this
/// pane's file show at the top; the valid items work as usual. A text field whose key has a
/// form (`formats`) is checked as it is typed: what is wrong shows on the line under it, and
/// Enter keeps the field open until the text is right or Esc drops it.
public final class SettingsScreen: Screen {
    /// The bundle the pane comes from, for its child panes.
    public let bundle: SettingsBundle
    /// The pane shown.
    public let pane: SettingsPane
    /// Where values are read from and written to.
    public let store: PreferenceStore
    /// The forms text fields must have before they are saved.
    public let formats: SettingFormats
    /// Keys some rows offer beyond their specifier's, by defaults key.
    public let rowKeys: [String: [SettingsRowKey]]
    /// The selection, scroll and field being edited: what is saved with the screen.
    public private(set) var state = SettingsPaneState()

    private var layout: SettingsLayout
    /// The lines of the last frame: the layout's, and the problem line under a field being edited.
    private var shown: SettingsShownLines
    private var pageHeight = 10
    private var observation: PreferenceObservation?
    /// Where the list started in the last frame (frame coordinates) and how many error lines
    /// sat above it, for mouse clicks.
    private var listTop = 0

    /// The restoration identifier of the root pane.
    public static let rootRestorationIdentifier = "Settings"
    /// The navigation stack the panes are pushed on, which `makeRoot` builds.
    public static let navigationRestorationID = "SettingsStack"

    /// "Settings" for the root pane, "SettingsPane.<File>" for a child pane.
    public static func restorationIdentifier(forPane name: String) -> String {
        name == "Root" ? rootRestorationIdentifier : "SettingsPane." + name
    }

    /// The pane a restoration identifier names ("Root" for "Settings"); nil for other identifiers.
    public static func paneName(forRestorationIdentifier identifier: String) -> String? {
        if identifier == rootRestorationIdentifier { return "Root" }
        guard identifier.hasPrefix("SettingsPane.") else { return nil }
        return String(identifier.dropFirst("SettingsPane.".count))
    }

    /// A navigation stack with the bundle's root pane, after registering the bundle's defaults
    /// in `store` (so a key nobody set reads the same here as in the app). What
    /// `wonderland settings` and an in-app settings tab show.
    public static func makeRoot(bundle: SettingsBundle, store: PreferenceStore, formats: SettingFormats = .none,
                                rowKeys: [String: [SettingsRowKey]] = [:]) -> NavigationStack {
        bundle.registerDefaults(in: store)
        return NavigationStack(root: SettingsScreen(bundle: bundle, store: store, formats: formats, rowKeys: rowKeys), restorationIdentifier: navigationRestorationID)
    }

    /// The pane named `paneName` ("Root" or a child pane's File); an unknown name shows an
    /// empty pane with an error line.
    public init(bundle: SettingsBundle, paneName: String = "Root", store: PreferenceStore, formats: SettingFormats = .none,
                rowKeys: [String: [SettingsRowKey]] = [:]) {
        self.bundle = bundle
        self.store = store
        self.formats = formats
        self.rowKeys = rowKeys
        if let pane = bundle.pane(named: paneName) {
            self.pane = pane
        } else {
            let error = SettingsSchemaError(.missingChildPane, file: paneName + ".plist", index: nil, "no such pane in the settings bundle")
            self.pane = SettingsPane(name: paneName, title: paneName, items: [], errors: [error])
        }
        layout = SettingsLayout(pane: self.pane, width: 80)
        shown = SettingsShownLines(layout: layout)
        super.init(title: self.pane.title, restorationIdentifier: Self.restorationIdentifier(forPane: paneName))
        // Child panes are pushed in code; their restoration class rebuilds them from the name.
        if paneName != "Root" { restorationClassName = Self.restorationClass }
        state.selectedRowID = layout.rows.first?.id
        let keys = self.pane.keys
        observation = store.addChangeObserver { [weak self] changed in
            guard let self, !changed.isDisjoint(with: keys) else { return }
            self.setNeedsDisplay()
        }
    }

    // MARK: restoration

    /// The restoration class of child panes, which the app rebuilds at launch from their
    /// identifiers (`registerRestorationClass`).
    public static let restorationClass = "SettingsPane"

    /// Rebuilds child panes at launch from the pane name in their identifier.
    public static func registerRestorationClass(in registry: inout RestorationClassRegistry, bundle: SettingsBundle, store: PreferenceStore,
                                                formats: SettingFormats = .none, rowKeys: [String: [SettingsRowKey]] = [:]) {
        registry.register(restorationClass) { path, _ in
            guard let identifier = path.last, let name = paneName(forRestorationIdentifier: identifier),
                  bundle.pane(named: name) != nil else { return nil }
            return SettingsScreen(bundle: bundle, paneName: name, store: store, formats: formats, rowKeys: rowKeys)
        }
    }

    /// The selected row and scroll, and a field being edited with its unsaved text — except a
    /// secure field, or a draft holding an address with a password in it (a half-typed
    /// `postgres://user:secret@…` for the sync server), whose text is never written anywhere.
    public override func encodeRestorableState(with coder: KeyedArchiver) throws {
        try coder.encode(state.selectedRowID, forKey: SavedKey.selectedRowID)
        coder.encode(state.scrollOffset, forKey: SavedKey.scrollOffset)
        if let key = state.editingKey, let field = textField(forKey: key), !field.isSecure,
           !URLPassword.isPresent(in: state.editingText) {
            try coder.encode(key, forKey: SavedKey.editingKey)
            try coder.encode(state.editingText, forKey: SavedKey.editingText)
            coder.encode(state.editingCursor, forKey: SavedKey.editingCursor)
        }
    }

    /// Takes back what `encodeRestorableState` saved, through `apply`, so a row or field that
    /// is gone from the schema is dropped.
    public override func decodeRestorableState(with coder: KeyedUnarchiver) throws {
        apply(SettingsPaneState(
            selectedRowID: try coder.decodeObject(of: String.self, forKey: SavedKey.selectedRowID),
            scrollOffset: max(0, try coder.decodeInteger(forKey: SavedKey.scrollOffset)),
            editingKey: try coder.decodeObject(of: String.self, forKey: SavedKey.editingKey),
            editingText: try coder.decodeObject(of: String.self, forKey: SavedKey.editingText) ?? "",
            editingCursor: try coder.decodeInteger(forKey: SavedKey.editingCursor)))
    }

    // MARK: state

    /// Applies saved state; a selected row that no longer exists falls back to the first row,
    /// and an edit of a field that is gone is dropped.
    public func apply(_ newState: SettingsPaneState) {
        state = newState
        if layout.rowIndex(id: state.selectedRowID) == nil { state.selectedRowID = layout.rows.first?.id }
        if let key = state.editingKey, textField(forKey: key) == nil { state.editingKey = nil }
        if state.editingKey != nil { state.selectedRowID = state.editingKey }
        setNeedsDisplay()
    }

    /// Selects the row with this id (a key, `Key#n`, `pane:File`), saving a field being edited;
    /// false when there is no such row, or the field's text cannot be saved (it stays open).
    @discardableResult
    public func select(rowID: String) -> Bool {
        guard layout.rowIndex(id: rowID) != nil, commitEditing() else { return false }
        state.selectedRowID = rowID
        setNeedsDisplay()
        return true
    }

    /// Every row id, top to bottom.
    public var rowIDs: [String] { layout.rows.map(\.id) }
    /// Whether a text field is open for editing.
    public var isEditing: Bool { state.editingKey != nil }

    private var selectedIndex: Int? { layout.rowIndex(id: state.selectedRowID) }
    private var selectedRow: SettingsRow? { selectedIndex.map { layout.rows[$0] } }
    private func specifier(of row: SettingsRow) -> SettingsSpecifier { pane.items[row.item].specifier }

    private func textField(forKey key: String) -> TextFieldSpecifier? {
        for item in pane.items {
            if case .textField(let field) = item.specifier, field.key == key { return field }
        }
        return nil
    }

    /// The value a row shows: the store's, else the schema's default.
    private func value(of specifier: SettingsSpecifier) -> PropertyListValue? {
        guard let key = specifier.key else { return nil }
        return store.object(forKey: key) ?? specifier.defaultValue
    }

    /// The navigation stack this pane sits in, found through its ancestors.
    public var navigationStack: NavigationStack? {
        var screen = parent
        while let current = screen {
            if let stack = current as? NavigationStack { return stack }
            screen = current.parent
        }
        return nil
    }

    // MARK: actions

    private func move(by delta: Int) {
        guard !layout.rows.isEmpty else { return }
        let current = selectedIndex ?? 0
        state.selectedRowID = layout.rows[min(max(0, current + delta), layout.rows.count - 1)].id
    }

    private func write(_ value: PropertyListValue, forKey key: String) {
        if let old = store.object(forKey: key), old == value { return }
        store.set(value, forKey: key)
        setNeedsDisplay()
    }

    /// Does what Enter (or a second click) does on a row.
    private func activate(_ row: SettingsRow) {
        let specifier = specifier(of: row)
        switch specifier {
        case .toggleSwitch(let toggle):
            write(toggle.value(for: !toggle.isOn(value(of: specifier))), forKey: toggle.key)
        case .radioGroup(let radio):
            if let choice = row.choice { write(radio.choices.values[choice], forKey: radio.key) }
        case .multiValue(let multi):
            let picker = ChoicePicker(title: multi.title, choices: multi.choices, current: value(of: specifier)) { [weak self] chosen in
                if let chosen { self?.write(chosen, forKey: multi.key) }
            }
            present(picker)
        case .textField(let field):
            var text = ""
            if case .string(let current)? = value(of: specifier) { text = current }
            state.editingKey = field.key
            state.field = TextFieldState(text)
        case .childPane(let child):
            guard bundle.pane(named: child.file) != nil, let stack = navigationStack else { return }
            stack.push(SettingsScreen(bundle: bundle, paneName: child.file, store: store, formats: formats, rowKeys: rowKeys))
        case .slider, .titleValue, .group:
            break
        }
    }

    private func adjustSlider(_ slider: SliderSpecifier, by delta: Double) {
        let number = slider.number(value(of: .slider(slider)))
        write(slider.value(for: number + delta), forKey: slider.key)
    }

    /// Saves the field being edited and closes it; true when nothing is being edited. Text of
    /// the wrong form is not saved: the field stays open, its problem under it, and false is
    /// returned.
    @discardableResult
    private func commitEditing() -> Bool {
        guard let key = state.editingKey, let field = textField(forKey: key) else {
            cancelEditing()
            return true
        }
        if draftProblem != nil {
            setNeedsDisplay()
            return false
        }
        let text = field.autocapitalizationType.apply(to: state.editingText)
        cancelEditing()
        write(.string(text), forKey: key)
        return true
    }

    /// What is wrong with the text being edited, as it would be saved; nil when it may be saved.
    public var draftProblem: String? {
        guard let key = state.editingKey, let field = textField(forKey: key) else { return nil }
        return formats.problem(forKey: key, text: field.autocapitalizationType.apply(to: state.editingText))
    }

    private func cancelEditing() {
        state.editingKey = nil
        state.editingText = ""
        state.editingCursor = 0
        setNeedsDisplay()
    }

    // MARK: keys

    /// True while a field is edited, so letters are typed rather than taken as keys.
    public override var acceptsTextInput: Bool { isEditing }

    /// The schema errors, each cut to one line at the top of the pane, kept whole among the
    /// messages.
    public override var messages: [String] { pane.errors.map(\.description) }

    /// What the kind of field being edited takes, the problem of a saved text of the wrong
    /// form, or a slider's number and range.
    public override var statusText: String? {
        if let key = state.editingKey, let field = textField(forKey: key) {
            switch field.keyboardType {
            case .numberPad: return "digits only"
            case .emailAddress: return "e-mail address"
            case .url: return "URL"
            default: return nil
            }
        }
        if let row = selectedRow, case .textField(let field) = specifier(of: row), case .string(let text)? = value(of: .textField(field)),
           let problem = formats.problem(forKey: field.key, text: text) {
            return "! " + problem
        }
        if let row = selectedRow, case .slider(let slider) = specifier(of: row) {
            let number = slider.number(value(of: .slider(slider)))
            return "\(SettingsValue.format(number)) (\(SettingsValue.format(slider.minimumValue))–\(SettingsValue.format(slider.maximumValue)))"
        }
        return nil
    }

    /// Enter and Esc while a field is edited; otherwise what the selected row's kind does, the
    /// app's keys for that row, and the motion keys (PgUp/PgDn adjust a selected slider).
    public override var keyBindings: [KeyBinding] {
        if isEditing {
            return [
                KeyBinding(.enter, help: "Save (not while the text is wrong)") { [unowned self] in self.commitEditing() },
                KeyBinding(.escape, help: "Cancel: keep the old value") { [unowned self] in self.cancelEditing() },
            ] + TextFieldState.keyBindings { [unowned self] key in _ = self.state.field.apply(key) }
        }
        var bindings: [KeyBinding] = []
        var onSlider = false
        if let row = selectedRow {
            switch specifier(of: row) {
            case .toggleSwitch:
                bindings.append(KeyBinding([.character(" "), .enter], label: "Space", help: "Switch on / off") { [unowned self] in self.activate(row) })
            case .radioGroup:
                bindings.append(KeyBinding([.character(" "), .enter], label: "Space", help: "Choose this one") { [unowned self] in self.activate(row) })
            case .multiValue:
                bindings.append(KeyBinding([.enter, .character(" "), .right], label: "Enter", help: "Choose: a list of the values") { [unowned self] in self.activate(row) })
            case .textField:
                bindings.append(KeyBinding(.enter, help: "Edit: Enter saves, Esc cancels") { [unowned self] in self.activate(row) })
            case .childPane:
                bindings.append(KeyBinding([.enter, .right], label: "Enter", help: "Open") { [unowned self] in self.activate(row) })
            case .slider(let slider):
                onSlider = true
                bindings.append(KeyBinding([.left, .right], label: "←→", help: "Adjust") { [unowned self] key in
                    self.adjustSlider(slider, by: key == .left ? -slider.step : slider.step)
                })
                bindings.append(KeyBinding([.pageDown, .pageUp], label: "PgUp/PgDn", help: "Adjust in big steps", showsInHintBar: false) { [unowned self] key in
                    self.adjustSlider(slider, by: key == .pageDown ? -slider.bigStep : slider.bigStep)
                })
            case .titleValue, .group:
                break
            }
            for extra in specifier(of: row).key.flatMap({ rowKeys[$0] }) ?? [] {
                bindings.append(KeyBinding(extra.key, help: extra.help) { [unowned self] in extra.perform(self) })
            }
        }
        // On a slider PgUp/PgDn adjust it.
        bindings += MotionKeys(pages: !onSlider).bindings { [unowned self] in
            self.move(by: $0.delta(pageSize: self.pageHeight, count: self.layout.rows.count))
        }
        return bindings
    }

    /// Clicks and the wheel on rows; while a field is edited, every key and paste goes to it
    /// (but Ctrl-C), so nothing leaves the pane by accident.
    public override func handle(_ event: Event) throws -> Bool {
        switch event {
        case .mouse(let mouse):
            return handleMouse(mouse)
        case .key(let key) where isEditing:
            if key == .enter || key == .escape { return try super.handle(event) }
            if key.belongsToApplication { return false }  // quit, help and messages, from anywhere
            if case .character(let character) = key, let editing = state.editingKey,
               let field = textField(forKey: editing), !field.keyboardType.accepts(character) {
                return true  // a letter on a number pad: not taken, but not passed on either
            }
            _ = state.field.apply(key)
            return true  // a field being edited keeps every key, so Esc or ← cannot leave the pane
        case .paste(let text) where isEditing:
            let field = state.editingKey.flatMap { textField(forKey: $0) }
            state.field.insert(pasted: String(text.filter { field?.keyboardType.accepts($0) ?? true }))
            return true
        default:
            return try super.handle(event)
        }
    }

    private func handleMouse(_ mouse: MouseEvent) -> Bool {
        if let motion = Motion(wheel: mouse, rowsShown: pageHeight + 1) {
            move(by: motion.delta(pageSize: pageHeight, count: layout.rows.count))
            return true
        }
        switch mouse.kind {
        case .press:
            let line = mouse.position.y - listTop + state.scrollOffset
            guard mouse.position.y >= listTop, line >= 0, line < shown.count,
                  case .row(let index) = shown[line] else { return true }
            let row = layout.rows[index]
            if row.id == state.selectedRowID {
                if !isEditing { activate(row) }
            } else if commitEditing() {
                state.selectedRowID = row.id
            }
        default: return false
        }
        return true
    }

    /// Redraws: values may have changed while another pane was on top.
    public override func viewWillAppear() {
        setNeedsDisplay()
    }

    // MARK: drawing

    /// The pane's schema errors on top, then its lines: group titles, rows with their values,
    /// footers, and the problem of the field being edited under it.
    public override func draw(in canvas: Canvas) {
        if layout.width != canvas.width { layout = SettingsLayout(pane: pane, width: canvas.width) }
        let problem = draftProblem
        shown = SettingsShownLines(layout: layout, problemUnderRow: problem == nil ? nil : selectedIndex)
        let errorLines = drawErrors(in: canvas)
        let list = canvas.subcanvas(Rect(x: 0, y: errorLines, width: canvas.width, height: canvas.height - errorLines))
        listTop = list.frame.y
        pageHeight = max(1, list.height - 1)
        guard !layout.rows.isEmpty, list.height > 0 else {
            list.write("No settings here.", x: 2, y: 0)
            return
        }
        scrollToSelection(height: list.height)
        let end = min(shown.count, state.scrollOffset + list.height)
        for line in state.scrollOffset..<end {
            let y = line - state.scrollOffset
            switch shown[line] {
            case .blank: break
            case .title(let title): list.write(DisplayWidth.truncate(title, to: max(0, list.width - 2)), x: 1, y: y, style: .bold)
            case .footer(let text): list.write(text, x: 2, y: y)
            case .row(let index):
                drawRow(layout.rows[index], in: list.subcanvas(Rect(x: 0, y: y, width: list.width, height: 1)), selected: index == selectedIndex)
            case .problem:
                // One line, cut with "…": the status line is no place for it, being far from the field.
                list.write(DisplayWidth.truncate("! " + (problem ?? ""), to: max(0, list.width - 4)), x: 4, y: y, style: .bold)
            }
        }
    }

    /// The errors of this pane's file, one line each in a warning style, at most a third of
    /// the height. Returns the lines used.
    private func drawErrors(in canvas: Canvas) -> Int {
        let errors = pane.errors
        guard !errors.isEmpty, canvas.height > 0 else { return 0 }
        let room = max(1, canvas.height / 3)
        let shown = errors.count <= room ? errors.count : room - 1
        let style = Style.bold
        for (row, error) in errors.prefix(shown).enumerated() {
            canvas.write(DisplayWidth.truncate("! " + error.description, to: canvas.width), x: 0, y: row, style: style)
        }
        if shown < errors.count {
            canvas.write(DisplayWidth.truncate("! … and \(errors.count - shown) more schema errors", to: canvas.width), x: 0, y: shown, style: style)
        }
        return min(errors.count, room)
    }

    private func scrollToSelection(height: Int) {
        guard let index = selectedIndex else { return }
        let line = layout.lineOfRow[index]
        // Moving up to the first row of a group shows the group's title too.
        var top = line
        if line > 0, case .title = layout.lines[line - 1] { top = line - 1 }
        if index == 0 { top = 0 }
        if top < state.scrollOffset { state.scrollOffset = top }
        if line >= state.scrollOffset + height { state.scrollOffset = line - height + 1 }
        // On the last row, show the footer below it.
        if index == layout.rows.count - 1 { state.scrollOffset = max(state.scrollOffset, min(line, shown.count - height)) }
        // The problem under a field being edited shows with it, when there is room for both.
        if let problemLine = shown.problemLine, problemLine >= state.scrollOffset + height, problemLine - height + 1 <= line {
            state.scrollOffset = problemLine - height + 1
        }
        state.scrollOffset = max(0, min(state.scrollOffset, shown.count - height))
    }

    private func drawRow(_ row: SettingsRow, in canvas: Canvas, selected: Bool) {
        let base = selected ? Style(reverse: true) : Style.plain
        canvas.fill(style: base)
        if selected { canvas.write("▸", x: 0, y: 0, style: base) }
        let specifier = specifier(of: row)
        let width = canvas.width
        if case .radioGroup(let radio) = specifier, let choice = row.choice {
            let checked = radio.choices.index(of: value(of: specifier)) == choice
            canvas.write((checked ? "(•) " : "( ) ") + DisplayWidth.truncate(radio.choices.titles[choice], to: max(0, width - 7)), x: 2, y: 0, style: base)
            return
        }
        let title = specifier.title ?? specifier.key ?? ""
        if case .textField(let field) = specifier, state.editingKey == field.key {
            let fieldWidth = min(max(12, width / 2), max(0, width - 4))
            let fieldX = width - 2 - fieldWidth
            canvas.write(DisplayWidth.truncate(title, to: max(0, fieldX - 3)), x: 2, y: 0, style: base)
            var editing = state.field
            if field.isSecure { editing = TextFieldState(String(repeating: "•", count: editing.characters.count), cursor: editing.cursor) }
            editing.draw(in: canvas, x: fieldX, y: 0, width: fieldWidth, style: Style(underline: true), focused: true)
            return
        }
        let (valueText, valueStyle) = valueText(of: specifier, selected: selected, base: base, room: max(0, width / 2))
        let valueWidth = DisplayWidth.of(valueText)
        canvas.write(DisplayWidth.truncate(title, to: max(0, width - valueWidth - 5)), x: 2, y: 0, style: base)
        canvas.write(valueText, x: max(2, width - 2 - valueWidth), y: 0, style: valueStyle)
    }

    /// What the right side of a row shows, and how.
    private func valueText(of specifier: SettingsSpecifier, selected: Bool, base: Style, room: Int) -> (String, Style) {
        let value = value(of: specifier)
        switch specifier {
        case .toggleSwitch(let toggle):
            return (toggle.isOn(value) ? "[x] On" : "[ ] Off", base)
        case .slider(let slider):
            return (sliderText(slider, value: value, room: room), base)
        case .multiValue(let multi):
            return (DisplayWidth.truncate(multi.shortTitle(for: value) ?? value.map(SettingsValue.display) ?? "", to: max(0, room - 2)) + " ›", base)
        case .textField(let field):
            guard case .string(let text)? = value, !text.isEmpty else { return ("—", base) }
            if field.isSecure { return (String(repeating: "•", count: min(text.count, max(1, room))), base) }
            // Saved by another tool in a form the app cannot use: marked, its problem in the status line.
            if formats.problem(forKey: field.key, text: text) != nil {
                var warning = base
                warning.underline = true
                return ("! " + DisplayWidth.truncate(text, to: max(0, room - 2)), warning)
            }
            return (DisplayWidth.truncate(text, to: room), base)
        case .titleValue(let titleValue):
            let shown = titleValue.choices?.title(for: value) ?? value.map(SettingsValue.display) ?? ""
            return (DisplayWidth.truncate(shown, to: room), base)
        case .childPane:
            return ("›", base)
        case .group, .radioGroup:
            return ("", base)
        }
    }

    /// `→← ━━━━━●──────── ←→  72`: the bar with the min and max glyphs and the number.
    private func sliderText(_ slider: SliderSpecifier, value: PropertyListValue?, room: Int) -> String {
        let number = slider.number(value)
        let low = SliderGlyphs.glyph(for: slider.minimumValueImage).map { $0 + " " } ?? ""
        let high = SliderGlyphs.glyph(for: slider.maximumValueImage).map { " " + $0 } ?? ""
        let numberText = " " + SettingsValue.format(number).leftPadded(to: max(SettingsValue.format(slider.minimumValue).count, SettingsValue.format(slider.maximumValue).count))
        let barWidth = max(5, min(21, room - DisplayWidth.of(low) - DisplayWidth.of(high) - numberText.count))
        let fraction = (number - slider.minimumValue) / (slider.maximumValue - slider.minimumValue)
        let knob = Int((fraction * Double(barWidth - 1)).rounded())
        let bar = String(repeating: "━", count: knob) + "●" + String(repeating: "─", count: barWidth - 1 - knob)
        return low + bar + high + numberText
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
