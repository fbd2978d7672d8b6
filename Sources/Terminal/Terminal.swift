/// What the terminal can show. Decided once at start-up from the locale, terminfo and NO_COLOR.
public struct TerminalCapabilities: Hashable, Sendable {
    /// False under NO_COLOR or on a terminal without colours: styles drop their colours.
    public var colors: Bool
    /// False in a non-UTF-8 locale: box drawing, braille and other symbols fall back to ASCII.
    public var unicode: Bool

    /// Capabilities as given; `NcursesTerminal` works them out from the terminal and the locale.
    public init(colors: Bool, unicode: Bool) {
        self.colors = colors
        self.unicode = unicode
    }
}

/// The narrow surface the rest of the app sees of a terminal: a size, a way to show a whole
/// frame, a stream of events, and the moves in and out of the shell.
///
/// ``NcursesTerminal`` is the real one; ``HeadlessTerminal`` keeps frames in memory for tests.
/// An `Application` from the Screens library runs on either.
public protocol Terminal: AnyObject {
    /// The size in cells now; frames are drawn at it.
    var size: Size { get }
    /// Whether colours and Unicode can be shown; screens may draw differently without them.
    var capabilities: TerminalCapabilities { get }

    /// Shows `frame`. `full` asks for a repaint of every cell (after a resize or a resume),
    /// otherwise only what changed since the last frame may be sent.
    func present(_ frame: CellBuffer, full: Bool)

    /// The next event, waiting at most `timeout` seconds (nil waits until one arrives).
    /// Returns nil when the time ran out.
    func nextEvent(timeout: Double?) -> Event?

    /// As `nextEvent(timeout:)`, and `.wake` as soon as one of `descriptors` is readable (an
    /// inotify descriptor someone watches); whoever watches it drains it.
    func nextEvent(timeout: Double?, watching descriptors: [Int32]) -> Event?

    /// Leaves terminal mode and stops the process until it is continued (`fg`), then returns.
    func suspend()

    /// Gives the terminal back to the shell. Safe to call more than once.
    func restore()
}

extension Terminal {
    /// A terminal with nothing to poll (a headless one) has no descriptors to wait on.
    public func nextEvent(timeout: Double?, watching descriptors: [Int32]) -> Event? {
        nextEvent(timeout: timeout)
    }
}
