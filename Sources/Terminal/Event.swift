/// A key press, decoded from whatever bytes the terminal sent.
public enum Key: Hashable, Sendable {
    case character(Character)
    case up, down, left, right
    case home, end, pageUp, pageDown, insert, delete
    case tab, backTab, enter, escape, backspace
    /// Ctrl plus a letter, given in lower case: `.control("a")` is Ctrl-A.
    case control(Character)
    case function(Int)
    /// A key held with Shift, Alt or Ctrl that has no code of its own: Ctrl-→, Alt-b, Shift-Home.
    /// Build it with `adding(_:)`, which keeps a plain key plain.
    indirect case modified(Key, KeyModifiers)
}

/// The modifiers a terminal reports with a key. Meta counts as Alt: terminals disagree on
/// which of the two a key sends, and no screen tells them apart.
public struct KeyModifiers: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Shift held.
    public static let shift = KeyModifiers(rawValue: 1)
    /// Alt (or Meta, or an Esc prefix) held.
    public static let alt = KeyModifiers(rawValue: 2)
    /// Ctrl held.
    public static let control = KeyModifiers(rawValue: 4)
}

extension Key {
    /// Ctrl- or Alt-← and Alt-b, the keys that move a word back in every text field and editor.
    public static let wordLeftKeys: [Key] = [Key.left.adding(.control), Key.left.adding(.alt), Key.character("b").adding(.alt)]
    /// Ctrl- or Alt-→ and Alt-f: a word forward.
    public static let wordRightKeys: [Key] = [Key.right.adding(.control), Key.right.adding(.alt), Key.character("f").adding(.alt)]

    /// The key with `modifiers` added; with none it is the key itself.
    public func adding(_ modifiers: KeyModifiers) -> Key {
        guard !modifiers.isEmpty else { return self }
        if case .modified(let base, let held) = self { return .modified(base, held.union(modifiers)) }
        return .modified(self, modifiers)
    }
}

extension Key {
    /// A key that types a character, which a focused text field takes as text.
    public var isText: Bool {
        if case .character = self { return true }
        return false
    }
}

/// A mouse report: what happened, with which button, at which cell.
public struct MouseEvent: Hashable, Sendable {
    /// What the mouse did. A click is a press then a release at one place.
    public enum Kind: Hashable, Sendable {
        case press, release, drag, wheelUp, wheelDown
    }
    /// The button held; `.none` for wheel turns and moves.
    public enum Button: Hashable, Sendable { case left, middle, right, none }

    /// What the mouse did.
    public var kind: Kind
    /// The button involved.
    public var button: Button
    /// The cell, in frame coordinates.
    public var position: Point

    /// A report of `kind` at `position`, with the left button unless told otherwise.
    public init(_ kind: Kind, button: Button = .left, at position: Point) {
        self.kind = kind
        self.button = button
        self.position = position
    }
}

/// Why the app is asked to end. Each maps to a signal, except `.quit`, which the user asks for.
public enum TerminationReason: Hashable, Sendable, CustomStringConvertible {
    case quit
    case interrupt   // SIGINT, Ctrl-C
    case terminate   // SIGTERM
    case hangup      // SIGHUP: the terminal went away

    /// The case's name, as the restoration log writes it; spelled out so that writing it needs
    /// no reflection on the way out.
    public var description: String {
        switch self {
        case .quit: "quit"
        case .interrupt: "interrupt"
        case .terminate: "terminate"
        case .hangup: "hangup"
        }
    }
}

/// Everything the run loop reacts to. Signals arrive here too, as plain events: the signal
/// handlers only set flags, and the terminal turns the flags into events in its own time.
public enum Event: Hashable, Sendable {
    case key(Key)
    /// Text the user pasted (bracketed paste): taken as text, never as keys, so a pasted line
    /// break or `q` does not act. Line breaks arrive as "\n".
    case paste(String)
    case mouse(MouseEvent)
    case resize(Size)
    /// Ctrl-Z or SIGTSTP: go to the background.
    case suspend
    /// SIGCONT after a stop (`fg`): come back to the foreground.
    case resume
    case terminate(TerminationReason)
    /// Work on another thread has news for the screens (a GPS fix, a page count, a synced
    /// change): see `Wakeup.post()`.
    case wake
}
