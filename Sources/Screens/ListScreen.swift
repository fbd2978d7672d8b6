import KeyedArchive
import Terminal

/// One row of a ``ListScreen``: the text it shows and the identifier of what it stands for.
///
/// ``id`` identifies the model object, so a selection survives reordering, filtering and
/// relaunches (UIKit's model-association rule): give each item a stable, unique id, such as a
/// file name or a record's key, never its position in the list.
public struct ListItem: Hashable, Sendable {
    /// The stable identifier of the model object; the list saves the selection as this.
    public var id: String
    /// The text shown in the row, truncated to the width; the filter matches it.
    public var title: String
    /// Secondary text shown dimmed after the title when the row has room; the filter matches it too.
    public var detail: String?

    /// Makes a row.
    ///
    /// - Parameters:
    ///   - id: A stable identifier of the model object, unique within the list.
    ///   - title: The text the row shows.
    ///   - detail: Optional dimmed text shown after the title.
    public init(id: String, title: String, detail: String? = nil) {
        self.id = id
        self.title = title
        self.detail = detail
    }
}

/// What a ``ListScreen`` remembers between frames and relaunches: the selection, the filter
/// and the scroll position.
///
/// A small value: the list saves it through the restoration engine, and a screen can read it
/// from ``ListScreen/state`` and put it back with ``ListScreen/apply(_:)``.
public struct ListState: Hashable, Sendable {
    /// The ``ListItem/id`` of the selected item, or `nil` when the list is empty.
    public var selectedID: String?
    /// The filter being typed after `/`; only items whose title or detail contain it, ignoring
    /// case, are shown.
    public var filter = TextFieldState()
    /// Whether keys go to the filter: true from `/` until Enter or Esc.
    public var isEditingFilter = false
    /// The index among the shown items of the first row on screen.
    public var scrollOffset = 0
    /// An empty state: nothing selected, no filter, scrolled to the top.
    public init() {}
}

/// A selectable, scrolling list of ``ListItem``s with a filter (`/`, then type).
///
/// Set ``onActivate`` to act on Enter or a click on the selected row, and replace ``items``
/// whenever the data changes: the selection follows the item's id, not its row. The list moves
/// with the arrows, PgUp/PgDn, Home/End and `j`/`k`, and saves its selection, scroll position
/// and filter when it has a ``Screen/restorationIdentifier``.
///
/// Only the rows on screen are drawn, so a list of any length costs the same per frame.
/// Subclass it to add key bindings or draw differently, calling `super` for the rest.
open class ListScreen: Screen {
    /// All the items, in order. Setting it filters again and keeps the selected item selected
    /// when its id is still there, or selects the first shown one.
    public var items: [ListItem] {
        didSet {
            longestItemText = Self.longestText(of: items)
            refilter()
        }
    }
    /// The most characters any item's title or detail has: a longer filter matches nothing.
    private var longestItemText = 0
    /// The selection, filter and scroll position; change it with ``apply(_:)`` or ``select(id:)``.
    public private(set) var state = ListState()
    /// The items the filter lets through, in order: what the rows show.
    public private(set) var visibleItems: [ListItem] = []
    /// Called with the selected item on Enter, or on a click on the row already selected; push
    /// a detail screen from here.
    public var onActivate: ((ListItem) -> Void)?
    /// The dimmed line shown when there are no items at all (a filter that matches nothing says so
    /// instead).
    public var emptyMessage = "Nothing here yet."
    private var pageHeight = 10

    /// Makes a list that selects its first item.
    ///
    /// - Parameters:
    ///   - title: The title shown in the navigation path and the tab bar.
    ///   - items: The rows, in order.
    ///   - restorationIdentifier: The name the list is saved under among its siblings, or `nil`
    ///     to save nothing of it.
    public init(title: String, items: [ListItem], restorationIdentifier: String? = nil) {
        self.items = items
        longestItemText = Self.longestText(of: items)
        super.init(title: title, restorationIdentifier: restorationIdentifier)
        refilter()
    }

    /// The position of the selected item in ``visibleItems``, or `nil` when nothing is shown.
    public var selectedIndex: Int? { visibleItems.firstIndex { $0.id == state.selectedID } }
    /// The selected item among those shown, or `nil` when nothing is shown.
    public var selectedItem: ListItem? { selectedIndex.map { visibleItems[$0] } }

    /// Replaces the whole ``state``, then filters again.
    ///
    /// A selected id that is no longer among the shown items falls back to the first row.
    public func apply(_ newState: ListState) {
        state = newState
        refilter()
    }

    /// Selects the item with this ``ListItem/id``; the first shown item is selected instead when
    /// the filter hides it or no item has it.
    public func select(id: String) {
        state.selectedID = id
        refilter()
    }

    private func refilter() {
        if state.filter.characters.count > longestItemText {
            // Known without reading the filter, so each key of a pasted page costs nothing here.
            visibleItems = []
        } else {
            let needle = state.filter.text.lowercased()
            visibleItems = needle.isEmpty ? items : items.filter {
                $0.title.lowercased().contains(needle) || ($0.detail?.lowercased().contains(needle) ?? false)
            }
        }
        if selectedIndex == nil { state.selectedID = visibleItems.first?.id }
        setNeedsDisplay()
    }

    private static func longestText(of items: [ListItem]) -> Int {
        items.reduce(0) { max($0, $1.title.count, $1.detail?.count ?? 0) }
    }

    // MARK: restoration by model identifier

    /// How many neighbours of the selection are saved, nearest first, to land on when the
    /// selected item itself has gone.
    static let savedNeighbours = 16

    /// Saves the selected item's id, its row on screen, the ids of its neighbours and the filter,
    /// never row numbers alone, so reordered or filtered data lands on the same item
    /// (UIDataSourceModelAssociation).
    open override func encodeRestorableState(with coder: KeyedArchiver) throws {
        try coder.encode(state.selectedID, forKey: SavedKey.selectedID)
        if let index = selectedIndex {
            coder.encode(index - state.scrollOffset, forKey: SavedKey.rowsAboveSelection)
            try coder.encode(Self.neighbours(of: index, in: visibleItems.map(\.id)), forKey: SavedKey.neighbourIDs)
        }
        try coder.encode(state.filter.text, forKey: SavedKey.filter)
        coder.encode(state.filter.cursor, forKey: SavedKey.filterCursor)
        coder.encode(state.isEditingFilter, forKey: SavedKey.isEditingFilter)
    }

    /// Reads back what ``encodeRestorableState(with:)`` saved: selects the saved item, or its
    /// nearest saved neighbour that still exists, on the same row of the screen.
    ///
    /// - Throws: An `ArchiveError` when a saved value has the wrong type.
    open override func decodeRestorableState(with coder: KeyedUnarchiver) throws {
        restore(try Self.savedPlace(from: coder))
    }

    /// What a list saved of its place, read from its archive: a list whose items come later
    /// keeps it and calls ``restore(_:)`` once they are there.
    public struct SavedPlace: Equatable, Sendable {
        /// The filter, its cursor and whether it was being typed.
        var state: ListState
        var selectedID: String?
        /// The selection's neighbours, nearest first, to land on when it has gone.
        var neighbourIDs: [String]
        var rowsAboveSelection: Int
    }

    /// The place a list with no items yet keeps: nothing selected, no filter.
    public static let noPlace = SavedPlace(state: ListState(), selectedID: nil, neighbourIDs: [], rowsAboveSelection: 0)

    /// Saves a place as ``encodeRestorableState(with:)`` does, for a list whose items have not
    /// been made: it keeps the place it was given without making them.
    public static func encode(_ place: SavedPlace, with coder: KeyedArchiver) throws {
        try coder.encode(place.selectedID, forKey: SavedKey.selectedID)
        if place.selectedID != nil {
            coder.encode(place.rowsAboveSelection, forKey: SavedKey.rowsAboveSelection)
            try coder.encode(place.neighbourIDs, forKey: SavedKey.neighbourIDs)
        }
        try coder.encode(place.state.filter.text, forKey: SavedKey.filter)
        coder.encode(place.state.filter.cursor, forKey: SavedKey.filterCursor)
        coder.encode(place.state.isEditingFilter, forKey: SavedKey.isEditingFilter)
    }

    /// Reads what ``encodeRestorableState(with:)`` saved.
    ///
    /// - Throws: An `ArchiveError` when a saved value has the wrong type.
    public static func savedPlace(from coder: KeyedUnarchiver) throws -> SavedPlace {
        var restored = ListState()
        let filter = try coder.decodeObject(of: String.self, forKey: SavedKey.filter) ?? ""
        restored.filter = TextFieldState(filter, cursor: try coder.decodeInteger(forKey: SavedKey.filterCursor))
        restored.isEditingFilter = try coder.decodeBool(forKey: SavedKey.isEditingFilter)
        return SavedPlace(state: restored,
                          selectedID: try coder.decodeObject(of: String.self, forKey: SavedKey.selectedID),
                          neighbourIDs: (try? coder.decodeObject(of: [String].self, forKey: SavedKey.neighbourIDs)) ?? [],
                          rowsAboveSelection: try coder.decodeInteger(forKey: SavedKey.rowsAboveSelection))
    }

    /// Puts a saved place back over the items there are now: the saved item, or its nearest
    /// saved neighbour that still exists, on the same row of the screen.
    public func restore(_ place: SavedPlace) {
        state = place.state
        refilter()
        let present = Set(visibleItems.map(\.id))
        if let target = ([place.selectedID].compactMap { $0 } + place.neighbourIDs).first(where: present.contains) {
            state.selectedID = target
        }
        if let index = selectedIndex {
            state.scrollOffset = max(0, index - max(0, place.rowsAboveSelection))
        }
        setNeedsDisplay()
    }

    /// Ids around `index`, nearest first, alternating after and before.
    static func neighbours(of index: Int, in ids: [String]) -> [String] {
        var result: [String] = []
        var distance = 1
        while result.count < savedNeighbours, index - distance >= 0 || index + distance < ids.count {
            if index + distance < ids.count { result.append(ids[index + distance]) }
            if index - distance >= 0 { result.append(ids[index - distance]) }
            distance += 1
        }
        return Array(result.prefix(savedNeighbours))
    }

    private func move(_ motion: Motion) {
        move(by: motion.delta(pageSize: pageHeight, count: visibleItems.count))
    }

    private func move(by delta: Int) {
        guard !visibleItems.isEmpty else { return }
        let current = selectedIndex ?? 0
        state.selectedID = visibleItems[min(max(0, current + delta), visibleItems.count - 1)].id
    }

    private func clearFilter() {
        state.filter = TextFieldState()
        state.isEditingFilter = false
        refilter()
    }

    private func activateSelection() {
        if let item = selectedItem { onActivate?(item) }
    }

    /// True while the filter is typed, so letters such as `q` go to it.
    open override var acceptsTextInput: Bool { state.isEditingFilter }

    /// "shown/total" while a filter is typed or set; otherwise nothing.
    open override var statusText: String? {
        if state.isEditingFilter || !state.filter.isEmpty { return "\(visibleItems.count)/\(items.count)" }
        return nil
    }

    /// Motion keys, Enter to open, `/` to filter and Esc to clear the filter; while the filter
    /// is typed, letters and Home/End belong to it instead.
    open override var keyBindings: [KeyBinding] {
        // While the filter is typed, letters, Home/End and ^A/^E belong to it; ↑↓ and PgUp/PgDn
        // still move.
        let motion = MotionKeys(letters: !state.isEditingFilter, ends: !state.isEditingFilter)
        var bindings = motion.bindings { [unowned self] in self.move($0) }
        bindings.append(KeyBinding(.enter, help: "Open") { [unowned self] in
            self.state.isEditingFilter = false
            self.activateSelection()
        })
        if !state.isEditingFilter {
            bindings.append(KeyBinding(.character("/"), help: "Filter: type to narrow the list") { [unowned self] in self.state.isEditingFilter = true })
        }
        if state.isEditingFilter || !state.filter.isEmpty {
            bindings.append(KeyBinding(.escape, help: "Clear the filter") { [unowned self] in self.clearFilter() })
        }
        if state.isEditingFilter {
            bindings += TextFieldState.keyBindings { [unowned self] key in
                if self.state.filter.apply(key) { self.refilter() }
            }
        }
        return bindings
    }

    /// Gives typed and pasted text to the filter while it is edited, moves on the wheel, and
    /// selects (or, on the selected row, opens) on a click; the rest goes to the key bindings.
    open override func handle(_ event: Event) throws -> Bool {
        switch event {
        case .key(let key) where state.isEditingFilter && key != .enter && key != .escape && key != .up && key != .down:
            guard state.filter.apply(key) else { return try super.handle(event) }
            refilter()
            return true
        case .paste(let text) where state.isEditingFilter:
            state.filter.insert(pasted: text)
            refilter()
            return true
        case .mouse(let mouse):
            return handleMouse(mouse)
        default:
            return try super.handle(event)
        }
    }

    private func handleMouse(_ mouse: MouseEvent) -> Bool {
        if let motion = Motion(wheel: mouse, rowsShown: pageHeight + 1) {
            move(motion)
            return true
        }
        switch mouse.kind {
        case .press:
            let row = mouse.position.y - frame.y - listTop + state.scrollOffset
            guard row >= 0, row < visibleItems.count, mouse.position.y - frame.y >= listTop else { return true }
            if visibleItems[row].id == state.selectedID { activateSelection() } else { state.selectedID = visibleItems[row].id }
        default: return false
        }
        return true
    }

    private var listTop: Int { (state.isEditingFilter || !state.filter.isEmpty) ? 1 : 0 }

    /// Draws the filter line when there is a filter, then the rows on screen, scrolled so the
    /// selection shows.
    open override func draw(in canvas: Canvas) {
        if listTop == 1 {
            canvas.write("/", x: 1, y: 0, style: .bold)
            state.filter.draw(in: canvas, x: 3, y: 0, width: max(0, canvas.width - 4), style: .underline, focused: state.isEditingFilter)
        }
        let rows = canvas.subcanvas(Rect(x: 0, y: listTop, width: canvas.width, height: canvas.height - listTop))
        pageHeight = max(1, rows.height - 1)
        guard !visibleItems.isEmpty else {
            let message = state.filter.isEmpty ? emptyMessage : "No match for “\(Self.shown(state.filter, width: rows.width))”."
            rows.write(message, x: 2, y: 0)
            return
        }
        let selected = selectedIndex ?? 0
        if selected < state.scrollOffset { state.scrollOffset = selected }
        if selected >= state.scrollOffset + rows.height { state.scrollOffset = selected - rows.height + 1 }
        state.scrollOffset = max(0, min(state.scrollOffset, visibleItems.count - rows.height))
        for row in 0..<min(rows.height, visibleItems.count - state.scrollOffset) {
            let index = state.scrollOffset + row
            drawRow(visibleItems[index], in: rows.subcanvas(Rect(x: 0, y: row, width: rows.width, height: 1)), selected: index == selected)
        }
    }

    /// A field's text as far as a row could show it: a pasted page is not copied out each frame.
    static func shown(_ field: TextFieldState, width: Int) -> String {
        field.characters.count > width ? String(field.characters.prefix(width)) + "…" : field.text
    }

    private func drawRow(_ item: ListItem, in canvas: Canvas, selected: Bool) {
        let base = selected ? Style(reverse: true) : Style.plain
        canvas.fill(style: base)
        let marker = selected ? "▸ " : "  "
        let used = canvas.write(marker + DisplayWidth.truncate(item.title, to: max(0, canvas.width - 3)), x: 0, y: 0, style: base)
        if let detail = item.detail, canvas.width - used > 6 {
            canvas.write("  " + DisplayWidth.truncate(detail, to: canvas.width - used - 3), x: used, y: 0, style: base)
        }
    }
}
