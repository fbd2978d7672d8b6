import Restoration
import Terminal

/// A stack of screens, the top one shown under a title path ("Characters › Alice").
///
/// Start it with a root screen and ``push(_:)`` a screen to go deeper, usually from a key
/// binding or a list's ``ListScreen/onActivate``. Esc, Backspace, ← and a click on the path go
/// back, when the top screen does not use those keys itself.
///
/// With a ``Screen/restorationIdentifier`` the stack is saved with the screens on it: a pushed
/// screen comes back at launch when it has an identifier and a
/// ``Screen/restorationClassName`` the program registered a factory for.
open class NavigationStack: Screen {
    /// The screens from the root (first) to the one shown (last).
    public private(set) var stack: [Screen]

    /// A stack showing `root`, which it never pops.
    public init(root: Screen, restorationIdentifier: String? = nil) {
        stack = [root]
        super.init(title: root.title, restorationIdentifier: restorationIdentifier)
        adopt(root)
    }

    /// The screen shown.
    public var topScreen: Screen { stack[stack.count - 1] }
    /// Every screen on the stack, root first: all are saved and restored.
    open override var children: [Screen] { stack }
    /// The top screen alone.
    open override var visibleChildren: [Screen] { [topScreen] }

    /// Shows `screen` over the current top, with the appearance calls both are owed.
    public func push(_ screen: Screen) {
        adopt(screen)
        if isVisible { topScreen.beginDisappearing() }
        stack.append(screen)
        if isVisible { screen.beginAppearing() }
        setNeedsDisplay()
    }

    /// Goes back one screen and returns the one that left; nil at the root.
    @discardableResult
    public func pop() -> Screen? {
        guard stack.count > 1 else { return nil }
        let leaving = stack.removeLast()
        if isVisible {
            leaving.beginDisappearing()
            topScreen.beginAppearing()
        }
        disown(leaving)
        setNeedsDisplay()
        return leaving
    }

    /// Replaces the whole stack (the restoration engine rebuilds stacks this way).
    public func setStack(_ screens: [Screen]) {
        guard !screens.isEmpty else { return }
        if isVisible { topScreen.beginDisappearing() }
        for old in stack where !screens.contains(where: { $0 === old }) { disown(old) }
        stack = screens
        for screen in screens { adopt(screen) }
        if isVisible { topScreen.beginAppearing() }
        setNeedsDisplay()
    }

    /// The saved stack, as the engine found or rebuilt it. The root stays whatever the app
    /// made; screens that could not be rebuilt are simply missing from the stack.
    open override func restoreChildren(_ children: [any Restorable]) {
        let pushed = children.compactMap { $0 as? Screen }.filter { $0 !== stack[0] }
        setStack([stack[0]] + pushed)
    }

    /// Esc (also Backspace and ←) to go back, named after the screen it goes back to; none at
    /// the root.
    open override var keyBindings: [KeyBinding] {
        guard stack.count > 1 else { return [] }
        return [KeyBinding([.escape, .backspace, .left], label: "Esc", help: "Back to \(stack[stack.count - 2].title)") { [unowned self] in self.pop() }]
    }

    /// Draws the path of titles on the first row and the top screen under it.
    open override func draw(in canvas: Canvas) {
        let (header, content) = canvas.bounds.splitTop(1)
        let path = stack.map(\.title).joined(separator: " › ")
        canvas.subcanvas(header).write(" " + DisplayWidth.truncate(path, to: max(0, canvas.width - 2)), x: 0, y: 0, style: .bold)
        topScreen.render(in: canvas.subcanvas(content))
    }

    /// Goes back on a click on the title path; other events go to the key bindings.
    open override func handle(_ event: Event) throws -> Bool {
        if case .mouse(let mouse) = event, mouse.kind == .press, mouse.position.y == frame.y, stack.count > 1 {
            pop()  // a click on the title path goes back
            return true
        }
        return try super.handle(event)
    }
}
