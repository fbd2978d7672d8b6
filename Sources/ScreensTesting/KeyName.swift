import Terminal

extension Key {
    /// The key a name stands for, spelled as key-binding tables and Textual's pilot spell
    /// keys; nil for a name no key has.
    ///
    /// A name is one character (`"q"`, `"?"`, `"+"`), or a key's name — `up`, `down`, `left`,
    /// `right`, `home`, `end`, `pageup`, `pagedown`, `insert`, `delete`, `tab`, `enter`,
    /// `escape` (or `esc`), `backspace`, `space`, `f1`…`f24` — after any of `ctrl+`, `alt+`
    /// (or `meta+`) and `shift+`. Names are case-insensitive except a lone character.
    /// Modifiers give the key the terminal's decoder would: `ctrl+a` is `.control("a")`,
    /// `shift+tab` is `.backTab`, `shift+a` is `A`, and `alt+left` is `.left` with Alt.
    public init?(name: String) {
        if name.count == 1, let character = name.first {
            self = .character(character)
            return
        }
        var parts = name.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        // "ctrl++" names Ctrl with the plus key: the last two empty parts are that plus.
        if parts.count >= 3, parts[parts.count - 1].isEmpty, parts[parts.count - 2].isEmpty {
            parts.removeLast(2)
            parts.append("+")
        }
        guard let baseName = parts.popLast(), !baseName.isEmpty else { return nil }
        var modifiers: KeyModifiers = []
        for part in parts {
            switch part.lowercased() {
            case "ctrl", "control": modifiers.insert(.control)
            case "alt", "meta", "option": modifiers.insert(.alt)
            case "shift": modifiers.insert(.shift)
            default: return nil
            }
        }
        guard let base = Key.named(baseName) else { return nil }
        self = base.pressed(with: modifiers)
    }

    private static func named(_ name: String) -> Key? {
        if name.count == 1, let character = name.first { return .character(character) }
        switch name.lowercased() {
        case "up": return .up
        case "down": return .down
        case "left": return .left
        case "right": return .right
        case "home": return .home
        case "end": return .end
        case "pageup", "page_up", "pgup": return .pageUp
        case "pagedown", "page_down", "pgdn": return .pageDown
        case "insert", "ins": return .insert
        case "delete", "del": return .delete
        case "tab": return .tab
        case "backtab": return .backTab
        case "enter", "return": return .enter
        case "escape", "esc": return .escape
        case "backspace": return .backspace
        case "space": return .character(" ")
        default:
            let lowered = name.lowercased()
            guard lowered.hasPrefix("f"), let number = Int(lowered.dropFirst()), (1...24).contains(number) else { return nil }
            return .function(number)
        }
    }

    /// The key as the decoder reports it with `modifiers` held.
    private func pressed(with modifiers: KeyModifiers) -> Key {
        var rest = modifiers
        var key = self
        if rest.contains(.control), case .character(let character) = key, character.isLetter, character.isASCII {
            key = .control(Character(character.lowercased()))
            rest.remove(.control)
        }
        if rest.contains(.shift) {
            if key == .tab {
                key = .backTab
                rest.remove(.shift)
            } else if case .character(let character) = key, character.isLetter {
                key = .character(Character(character.uppercased()))
                rest.remove(.shift)
            }
        }
        return key.adding(rest)
    }
}
