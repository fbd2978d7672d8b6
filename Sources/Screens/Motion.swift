import Terminal

/// A move through anything that scrolls or has a selection (a list, a pager, the help), as
/// asked by a key or the wheel. Each screen says what a line and a page are for it.
public enum Motion: Hashable, Sendable {
    /// Lines down (negative: up).
    case lines(Int)
    /// Pages down (negative: up).
    case pages(Int)
    case first, last

    /// Rows the wheel moves per notch, as most terminals' own scrollback does.
    public static let wheelLines = 3

    /// The move as a row delta, for a screen with `pageSize` rows shown and `count` rows in all.
    public func delta(pageSize: Int, count: Int) -> Int {
        switch self {
        case .lines(let n): return n
        case .pages(let n): return n * max(1, pageSize)
        case .first: return -max(1, count)
        case .last: return max(1, count)
        }
    }

    /// The wheel's move; nil for any other mouse event.
    public init?(wheel mouse: MouseEvent) {
        switch mouse.kind {
        case .wheelUp: self = .lines(-Self.wheelLines)
        case .wheelDown: self = .lines(Self.wheelLines)
        default: return nil
        }
    }
}

/// The motion keys every list, pager and scrolling overlay answers to, declared once with
/// their help, so a screen gets all of them (and its help lists them) by asking for them:
/// ↑↓ (and j k), PgUp/PgDn, Home/End (and ^A/^E, g/G).
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

    public init(lineHelp: String = "Move", linesInHintBar: Bool = true, letters: Bool = true, pages: Bool = true, ends: Bool = true,
                endsHelp: String = "First / last") {
        self.endsHelp = endsHelp
        self.lineHelp = lineHelp
        self.linesInHintBar = linesInHintBar
        self.letters = letters
        self.pages = pages
        self.ends = ends
    }

    public static let firstKeys: [Key] = [.home, .control("a")]
    public static let lastKeys: [Key] = [.end, .control("e")]

    /// The bindings, each running `move` with the motion its key asks for.
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
