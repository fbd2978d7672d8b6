import Terminal

extension Key {
    /// Ctrl-C (quit), F1 (help) and F2 (the messages): keys no screen keeps from the app, not
    /// even a prompt or a field that takes every other key, so a person can always quit or ask.
    public var belongsToApplication: Bool {
        self == .control("c") || self == .function(1) || self == .function(2)
    }
}

extension Event {
    /// A key a modal keeps from the screens under it though it has no use for it: every key
    /// but those that belong to the application.
    public var isKeyAModalKeeps: Bool {
        if case .key(let key) = self { return !key.belongsToApplication }
        return false
    }
}
