import Terminal

/// A key binding, declared once with its own help text, so the hint bar and the help overlay
/// are derived from the same list the screen reacts to.
///
/// Return them from ``Screen/keyBindings``; the default ``Screen/handle(_:)`` runs the first
/// binding whose ``keys`` hold the key pressed, and a key no binding takes goes to the parent.
/// Capture the screen `unowned` in the action, as the screen holds its bindings:
///
/// ```swift
/// KeyBinding(.character("+"), help: "Count one more") { [unowned self] in
///     self.count += 1
///     self.setNeedsDisplay()
/// }
/// ```
public struct KeyBinding {
    /// The keys that run the action.
    public var keys: [Key]
    /// How the keys are shown: "↑↓", "Enter". Derived from the keys when not given.
    public var label: String
    /// What the action does, in a few words: the hint bar and the help list show it.
    public var help: String
    /// Whether the binding earns a place in the one-line hint bar (all show in the help overlay).
    public var showsInHintBar: Bool
    /// Runs with the key that fired, for bindings that cover several keys (1-9, arrows).
    public var action: (Key) throws -> Void

    /// A binding whose action is told which of `keys` was pressed. `label` replaces the
    /// keys' own names in the hint bar ("1-3").
    public init(_ keys: [Key], label: String? = nil, help: String, showsInHintBar: Bool = true, action: @escaping (Key) throws -> Void) {
        self.keys = keys
        self.label = label ?? keys.map(\.displayName).joined(separator: "/")
        self.help = help
        self.showsInHintBar = showsInHintBar
        self.action = action
    }

    /// A binding that runs `action` for any of `keys`.
    public init(_ keys: [Key], label: String? = nil, help: String, showsInHintBar: Bool = true, action: @escaping () throws -> Void) {
        self.init(keys, label: label, help: help, showsInHintBar: showsInHintBar) { (_: Key) in try action() }
    }

    /// A binding that runs `action` for one key.
    public init(_ key: Key, label: String? = nil, help: String, showsInHintBar: Bool = true, action: @escaping () throws -> Void) {
        self.init([key], label: label, help: help, showsInHintBar: showsInHintBar, action: action)
    }
}

extension Key {
    /// How a key is written in hints and help.
    public var displayName: String {
        switch self {
        case .character(" "): return "Space"
        case .character(let c): return String(c)
        case .up: return "↑"
        case .down: return "↓"
        case .left: return "←"
        case .right: return "→"
        case .home: return "Home"
        case .end: return "End"
        case .pageUp: return "PgUp"
        case .pageDown: return "PgDn"
        case .insert: return "Ins"
        case .delete: return "Del"
        case .tab: return "Tab"
        case .backTab: return "S-Tab"
        case .enter: return "Enter"
        case .escape: return "Esc"
        case .backspace: return "Bksp"
        case .control(let c): return "^" + String(c).uppercased()
        case .function(let n): return "F\(n)"
        case .modified(let key, let modifiers):
            var prefix = ""
            if modifiers.contains(.control) { prefix += "C-" }
            if modifiers.contains(.alt) { prefix += "M-" }
            if modifiers.contains(.shift) { prefix += "S-" }
            return prefix + key.displayName
        }
    }
}
