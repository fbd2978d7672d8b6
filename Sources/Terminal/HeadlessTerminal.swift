/// An in-memory terminal for tests: events are queued by the test, frames are kept as cells.
/// Nothing here sleeps or reads a clock, so tests run the app synchronously.
public final class HeadlessTerminal: Terminal {
    public private(set) var size: Size
    public let capabilities: TerminalCapabilities
    /// The last frame presented, as the screen would show it.
    public private(set) var frame: CellBuffer
    public private(set) var framesPresented = 0
    public private(set) var fullRepaints = 0
    public private(set) var suspendCount = 0
    public private(set) var isRestored = false
    private var pending: [Event] = []
    private var decoder = InputDecoder()

    public init(size: Size = Size(columns: 80, rows: 24), capabilities: TerminalCapabilities = .init(colors: true, unicode: true)) {
        self.size = size
        self.capabilities = capabilities
        self.frame = CellBuffer(size: size)
    }

    public func present(_ frame: CellBuffer, full: Bool) {
        self.frame = capabilities.unicode ? frame : GlyphFallback.asciiFrame(frame)
        if !capabilities.colors { self.frame = GlyphFallback.monochrome(self.frame) }
        framesPresented += 1
        if full { fullRepaints += 1 }
    }

    public func nextEvent(timeout: Double?) -> Event? {
        pending.isEmpty ? nil : pending.removeFirst()
    }

    public func suspend() { suspendCount += 1 }
    public func restore() { isRestored = true }

    // MARK: driving it from a test

    public func enqueue(_ event: Event) { pending.append(event) }
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
    public var text: String { lines.joined(separator: "\n") }
}
