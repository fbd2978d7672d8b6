/// A key press, decoded from whatever bytes the terminal sent.
///
/// Compare keys by value (`key == .enter`, `key == .control("s")`); ``isText`` tells a key that
/// types a character from a command key, and ``adding(_:)`` builds a key with modifiers.
public enum Key: Hashable, Sendable {
    /// A printable character as typed, in its case (`q`, `Q`, `é`, a space).
    case character(Character)
    /// The arrow keys.
    case up, down, left, right
    /// The editing keypad: Home, End, PgUp, PgDn, Ins and Del (forward delete).
    case home, end, pageUp, pageDown, insert, delete
    /// Tab, Shift-Tab, Enter (Return), Esc on its own (not the start of a sequence), and Backspace.
    case tab, backTab, enter, escape, backspace
    /// Ctrl plus a letter, given in lower case: `.control("a")` is Ctrl-A.
    case control(Character)
    /// A function key: `.function(1)` is F1.
    case function(Int)
    /// A key held with Shift, Alt or Ctrl that has no code of its own: Ctrl-→, Alt-b, Shift-Home.
    /// Build it with `adding(_:)`, which keeps a plain key plain.
    indirect case modified(Key, KeyModifiers)
}

/// The modifiers a terminal reports with a key. Meta counts as Alt: terminals disagree on
/// which of the two a key sends, and no screen tells them apart.
public struct KeyModifiers: OptionSet, Hashable, Sendable {
    /// The modifiers as bits: shift 1, alt 2, control 4.
    public let rawValue: UInt8
    /// Modifiers from their bits; use ``shift``, ``alt`` and ``control`` rather than numbers.
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
        /// `press` and `release` of ``MouseEvent/button``, `drag` (a move with it held), and one notch
        /// of the wheel up or down.
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
    /// The user asked to quit (`q`): not a signal.
    case quit
    /// SIGINT, or Ctrl-C pressed.
    case interrupt   // SIGINT, Ctrl-C
    /// SIGTERM: another process, or the system shutting down, asked the app to end.
    case terminate   // SIGTERM
    /// SIGHUP: the terminal went away; nothing more can be drawn, but state can still be saved.
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
    /// A key press, other than text pasted.
    case key(Key)
    /// Text the user pasted (bracketed paste): taken as text, never as keys, so a pasted line
    /// break or `q` does not act. Line breaks arrive as "\n".
    case paste(String)
    /// A click, drag or wheel turn, in frame coordinates; only from a terminal that reports the mouse.
    case mouse(MouseEvent)
    /// The terminal's new size; the next frame is drawn at it.
    case resize(Size)
    /// Ctrl-Z or SIGTSTP: go to the background.
    case suspend
    /// SIGCONT after a stop (`fg`): come back to the foreground.
    case resume
    /// A signal or a quit ends the app; the application runs its will-terminate hooks, then stops.
    case terminate(TerminationReason)
    /// Work on another thread has news for the screens (a GPS fix, a page count, a synced
    /// change): see `Wakeup.post()`.
    case wake
}
