import TextSafety

/// The last messages the app showed, oldest first, like vim's `:messages`: a notice or an error
/// is cut to fit its one line on screen, and `M` (F2 while typing) lists them here in full.
///
/// Screens do not post into it: the application reads what each shown screen says now
/// (`Screen.messages`) after every frame and keeps what is new, so a message set before the
/// screen had an application, or shown by a screen that knows nothing of the log, is kept too.
public struct MessageLog: Sendable {
    /// The messages kept, oldest first, each made safe for the terminal and bounded to
    /// ``entryLimit`` characters; at most ``capacity`` of them.
    public private(set) var entries: [String] = []
    /// What each source said last: the same words shown frame after frame are kept once.
    private var lastBySource: [String: String] = [:]

    /// Messages kept; older ones are dropped first.
    public static let capacity = 100
    /// Characters kept of one message: a whole path and error, never a flood.
    public static let entryLimit = 2_000

    /// An empty log. The application keeps its own in ``Application/messageLog``.
    public init() {}

    /// Keeps `text` unless `source` said exactly this last time, so a message shown frame after
    /// frame is kept once. Empty text is not a message.
    ///
    /// - Parameters:
    ///   - text: The message, bounded and made safe before it is kept.
    ///   - source: Who said it; any stable name, such as the screen's identity.
    public mutating func note(_ text: String, from source: String) {
        let bounded = SafeText.bounded(text, to: Self.entryLimit)
        guard !bounded.isEmpty, lastBySource[source] != bounded else { return }
        if lastBySource.count > Self.capacity * 4 { lastBySource = [:] }  // sources come and go
        lastBySource[source] = bounded
        append(bounded)
    }

    /// Keeps `text` as a message of its own (an alert, a launch problem).
    public mutating func append(_ text: String) {
        let bounded = SafeText.bounded(text, to: Self.entryLimit)
        guard !bounded.isEmpty else { return }
        if entries.last == bounded { return }
        entries.append(bounded)
        if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
    }
}
