/// An in-memory terminal for tests: events are queued by the test, frames are kept as cells.
/// Nothing here sleeps or reads a clock, so tests run the app synchronously.
public final class HeadlessTerminal: Terminal {
    /// The terminal's size; `resize(to:)` changes it.
    public private(set) var size: Size
    /// What the terminal plays at being able to show: frames are reduced to ASCII or monochrome as a real one would need.
    public let capabilities: TerminalCapabilities
    /// The last frame presented, as the screen would show it.
    public private(set) var frame: CellBuffer
    /// How many frames the application has presented.
    public private(set) var framesPresented = 0
    /// How many of those were full repaints (after a resize or a return from the background).
    public private(set) var fullRepaints = 0
    /// How often the application gave the terminal up for Ctrl-Z.
    public private(set) var suspendCount = 0
    /// True once the terminal was given back, as at the end of a run.
    public private(set) var isRestored = false
    private var pending: [Event] = []
    private var decoder = InputDecoder()

    /// A terminal of `size` cells showing a blank frame, with no input queued.
    public init(size: Size = Size(columns: 80, rows: 24), capabilities: TerminalCapabilities = .init(colors: true, unicode: true)) {
        self.size = size
        self.capabilities = capabilities
        self.frame = CellBuffer(size: size)
    }

    /// Keeps `frame` as the screen, reduced to what `capabilities` can show.
    public func present(_ frame: CellBuffer, full: Bool) {
        self.frame = capabilities.unicode ? frame : GlyphFallback.asciiFrame(frame)
        if !capabilities.colors { self.frame = GlyphFallback.monochrome(self.frame) }
        framesPresented += 1
        if full { fullRepaints += 1 }
    }

    /// The next queued event, at once; nil when none is queued (it never waits).
    public func nextEvent(timeout: Double?) -> Event? {
        pending.isEmpty ? nil : pending.removeFirst()
    }

    /// Counts a suspension; nothing else happens to a headless terminal.
    public func suspend() { suspendCount += 1 }
    /// Marks the terminal as given back.
    public func restore() { isRestored = true }

    // MARK: driving it from a test

    /// Queues an event for the application's next `nextEvent` calls.
    public func enqueue(_ event: Event) { pending.append(event) }
    /// Whether any queued event is still unread.
    public var hasPendingEvents: Bool { !pending.isEmpty }

    /// Feeds bytes as a terminal would send them, through the same decoder as the real
    /// terminal. `thenQuiet` plays the escape delay passing with nothing more typed, which is
    /// what makes a lone Esc the Esc key; leave it off to send a sequence in pieces.
    public func feed(_ bytes: [UInt8], thenQuiet: Bool = true) {
        pending.append(contentsOf: decoder.feed(bytes))
        if thenQuiet && decoder.isWaiting { pending.append(contentsOf: decoder.timeout()) }
    }

    /// Changes the size and queues the resize event a real terminal would send.
    public func resize(to newSize: Size) {
        size = newSize
        pending.append(.resize(newSize))
    }

    /// The screen as text rows, trailing spaces removed.
    public var lines: [String] { frame.lines }
    /// The screen as one string, rows joined by line breaks.
    public var text: String { lines.joined(separator: "\n") }
}
