import KeyedArchive
import Terminal

/// A tab bar over one child screen at a time. Switch with 1…9, Tab / Shift-Tab, or a click on a
/// tab's name.
///
/// The tabs are fixed when it is made; each keeps its own state while hidden, and gets the
/// appearance calls when shown or hidden. Give each tab a distinct
/// ``Screen/restorationIdentifier`` so the selected one, and their contents, are restored.
open class TabScreen: Screen {
    /// The tabs, in the order the bar shows them.
    public let tabs: [Screen]
    /// The index of the tab shown; `select(_:)` changes it.
    public private(set) var selectedIndex = 0
    /// Column ranges of the tab names in the last frame, for mouse clicks.
    private var tabHitRanges: [Range<Int>] = []

    /// A tab bar over `tabs` (at least one), showing the first.
    public init(title: String, tabs: [Screen], restorationIdentifier: String? = nil) {
        precondition(!tabs.isEmpty, "a tab screen needs at least one tab")
        self.tabs = tabs
        super.init(title: title, restorationIdentifier: restorationIdentifier)
        for tab in tabs { adopt(tab) }
    }

    /// The tab shown.
    public var selectedTab: Screen { tabs[selectedIndex] }
    /// Every tab, shown or not: all are saved and restored.
    open override var children: [Screen] { tabs }
    /// The selected tab alone.
    open override var visibleChildren: [Screen] { [selectedTab] }

    /// Shows another tab, with the disappear / appear calls a container owes its children.
    public func select(_ index: Int) {
        guard tabs.indices.contains(index), index != selectedIndex else { return }
        if isVisible { tabs[selectedIndex].beginDisappearing() }
        selectedIndex = index
        if isVisible { tabs[selectedIndex].beginAppearing() }
        setNeedsDisplay()
    }

    // MARK: restoration

    /// Saves the selected tab by its identifier, and by its index for tabs without one, so adding
    /// or reordering tabs keeps the selection.
    open override func encodeRestorableState(with coder: KeyedArchiver) throws {
        try coder.encode(selectedTab.restorationIdentifier, forKey: SavedKey.selectedTab)
        coder.encode(selectedIndex, forKey: SavedKey.selectedIndex)
    }

    /// Selects the saved tab again: by identifier when one still has it, else by index.
    ///
    /// - Throws: An `ArchiveError` when a saved value has the wrong type.
    open override func decodeRestorableState(with coder: KeyedUnarchiver) throws {
        if let id = try coder.decodeObject(of: String.self, forKey: SavedKey.selectedTab),
           let index = tabs.firstIndex(where: { $0.answers(toRestorationIdentifier: id) }) {
            select(index)
        } else if coder.containsValue(forKey: SavedKey.selectedIndex) {
            select(try coder.decodeInteger(forKey: SavedKey.selectedIndex))
        }
    }

    /// 1…9 to go to a tab, Tab for the next one and Shift-Tab for the one before.
    open override var keyBindings: [KeyBinding] {
        let numbers = tabs.indices.prefix(9).map { Key.character(Character(String($0 + 1))) }
        return [
            KeyBinding(numbers, label: "1-\(numbers.count)", help: "Go to a tab: " + tabs.map(\.title).joined(separator: ", ")) { [unowned self] key in
                if case .character(let c) = key, let digit = c.wholeNumberValue { self.select(digit - 1) }
            },
            KeyBinding(.tab, help: "Next tab") { [unowned self] in self.select((self.selectedIndex + 1) % self.tabs.count) },
            KeyBinding(.backTab, help: "Previous tab", showsInHintBar: false) { [unowned self] in
                self.select((self.selectedIndex + self.tabs.count - 1) % self.tabs.count)
            },
        ]
    }

    /// Selects the tab whose name is clicked on the bar; other events go to the key bindings.
    open override func handle(_ event: Event) throws -> Bool {
        if case .mouse(let mouse) = event, mouse.kind == .press, mouse.position.y == frame.y {
            let column = mouse.position.x - frame.x
            if let index = tabHitRanges.firstIndex(where: { $0.contains(column) }) { select(index) }
            return true
        }
        return try super.handle(event)
    }

    /// Draws the tab bar on the first row, the selected tab highlighted, and the selected tab under
    /// it. Names that do not fit are cut, and the ones after them left out.
    open override func draw(in canvas: Canvas) {
        let (bar, content) = canvas.bounds.splitTop(1)
        drawTabBar(in: canvas.subcanvas(bar))
        selectedTab.render(in: canvas.subcanvas(content))
    }

    /// The tab bar's row, where no tab is: what a subclass draws more of the bar in.
    public static let barStyle = Style(underline: true)

    private func drawTabBar(in canvas: Canvas) {
        // The terminal's own colours, the bar underlined and the selected tab in reverse video:
        // a fixed colour pair reads in some palettes and not others (white on blue is 1.6:1 in
        // alacritty's), and bold would show black as grey where bold means bright.
        canvas.fill(style: Self.barStyle)
        tabHitRanges = []
        var x = 1
        for (index, tab) in tabs.enumerated() {
            // A name that does not fit is cut with "…", and the names after it are left out:
            // the bar never wraps, and 1-9 still reach every tab.
            guard x < canvas.width - 1 else { break }
            let label = DisplayWidth.truncate(" \(index + 1) \(tab.title) ", to: canvas.width - 1 - x)
            let selected = index == selectedIndex
            let style = selected ? Style(reverse: true) : Self.barStyle
            let width = canvas.write(label, x: x, y: 0, style: style)
            tabHitRanges.append(x..<(x + width))
            x += width + 1
        }
    }
}
