import Terminal

/// A move through anything that scrolls or has a selection (a list, a pager, the help), as
/// asked by a key or the wheel.
///
/// Each screen says what a line and a page are for it: turn a motion into rows with
/// ``delta(pageSize:count:)``, and get the keys that make motions from ``MotionKeys``.
public enum Motion: Hashable, Sendable {
    /// Lines down (negative: up).
    case lines(Int)
    /// Pages down (negative: up).
    case pages(Int)
    /// To the first row (``first``) or the last (``last``).
    case first, last

    /// Rows one wheel report moves, as most terminals' own scrollback does. Never a page: some
    /// terminals (alacritty) send two reports a notch, and a page each would skip text unread.
    public static let wheelLines = 3

    /// The move as a row delta, to add to a selection or a scroll position and then clamp.
    ///
    /// - Parameters:
    ///   - pageSize: How many rows one page moves: usually the rows shown, less one for overlap.
    ///   - count: How many rows there are in all; ``first`` and ``last`` move at least this far.
    /// - Returns: Rows to move, negative for up.
    public func delta(pageSize: Int, count: Int) -> Int {
        switch self {
        case .lines(let n): return n
        case .pages(let n): return n * max(1, pageSize)
        case .first: return -max(1, count)
        case .last: return max(1, count)
        }
    }

    /// The wheel's move: ``wheelLines`` rows, fewer where fewer are shown, so one report never
    /// moves past a row nobody has seen (a row stays in view at every step). Nil for any other
    /// mouse event.
    ///
    /// - Parameters:
    ///   - mouse: The mouse event.
    ///   - rowsShown: How many rows the screen shows of what the wheel moves through.
    public init?(wheel mouse: MouseEvent, rowsShown: Int = .max) {
        let lines = min(Self.wheelLines, max(1, rowsShown - 1))
        switch mouse.kind {
        case .wheelUp: self = .lines(-lines)
        case .wheelDown: self = .lines(lines)
        default: return nil
        }
    }
}

/// The motion keys every list, pager and scrolling overlay answers to: ↑↓ (and j k),
/// PgUp/PgDn, Home/End (and ^A/^E, g/G).
///
/// They are declared once with their help, so a screen gets all of them (and its help lists
/// them) by asking for them: return `MotionKeys().bindings { self.move($0) }` among its
/// ``Screen/keyBindings``, turning off the groups whose keys mean something else there.
public struct MotionKeys {
    /// What a line move does here: "Move", "Scroll a line".
    public var lineHelp = "Move"
    /// Whether ↑↓ show in the hint bar (they do where they are the main keys).
    public var linesInHintBar = true
    /// j k g G: off where a letter is text (a list filter being typed, a search field).
    public var letters = true
    /// PgUp/PgDn: off where they mean something else (a slider's big steps).
    public var pages = true
    /// Home/End, ^A/^E: off where a text field owns them (the place search).
    public var ends = true
    /// What Home/End go to: "First / last", "Beginning / end of the book".
    public var endsHelp = "First / last"

    /// Chooses which groups of keys to bind and the words their help uses; each parameter sets
    /// the property of the same name.
    public init(lineHelp: String = "Move", linesInHintBar: Bool = true, letters: Bool = true, pages: Bool = true, ends: Bool = true,
                endsHelp: String = "First / last") {
        self.endsHelp = endsHelp
        self.lineHelp = lineHelp
        self.linesInHintBar = linesInHintBar
        self.letters = letters
        self.pages = pages
        self.ends = ends
    }

    /// The keys that go to the first row whatever the options: Home and ^A.
    public static let firstKeys: [Key] = [.home, .control("a")]
    /// The keys that go to the last row whatever the options: End and ^E.
    public static let lastKeys: [Key] = [.end, .control("e")]

    /// The bindings, each running `move` with the motion its key asks for.
    ///
    /// - Parameter move: Moves the screen's selection or scroll position; it is called on the
    ///   main thread, from the screen's key handling.
    /// - Returns: Key bindings for the groups turned on, to add to the screen's own.
    public func bindings(_ move: @escaping (Motion) -> Void) -> [KeyBinding] {
        var bindings = [KeyBinding([.up, .down], label: "↑↓", help: lineHelp, showsInHintBar: linesInHintBar) { key in move(.lines(key == .up ? -1 : 1)) }]
        if letters {
            bindings.append(KeyBinding([.character("k"), .character("j")], label: "jk", help: lineHelp, showsInHintBar: false) { key in
                move(.lines(key == .character("k") ? -1 : 1))
            })
        }
        if pages {
            bindings.append(KeyBinding([.pageUp, .pageDown], label: "PgUp/PgDn", help: "Page up / down", showsInHintBar: false) { key in
                move(.pages(key == .pageUp ? -1 : 1))
            })
        }
        if ends {
            let first = Self.firstKeys + (letters ? [.character("g")] : [])
            let last = Self.lastKeys + (letters ? [.character("G")] : [])
            bindings.append(KeyBinding(first + last, label: "Home/End", help: endsHelp + " (also ^A/^E" + (letters ? ", g/G)" : ")"),
                                       showsInHintBar: false) { key in move(first.contains(key) ? .first : .last) })
        }
        return bindings
    }
}
