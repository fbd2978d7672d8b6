import Screens
import Terminal
import Testing

/// Checks on what the screen shows, for Swift Testing. Each records a test failure at the caller's
/// line when the screen differs, with the screen in the message (rows numbered, edges marked),
/// and returns whether it passed, so a test can stop early with `guard … else { return }`.
extension DrivesApplication {
    /// Row `y` reads exactly `expected`; trailing spaces are ignored.
    @discardableResult
    public func expectRow(_ y: Int, equals expected: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        record(mismatch(row: y, equals: expected), sourceLocation)
    }

    /// Row `y` shows `text` somewhere.
    @discardableResult
    public func expectRow(_ y: Int, contains text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        record(mismatch(row: y, contains: text), sourceLocation)
    }

    /// Some row shows `text`.
    @discardableResult
    public func expectScreen(contains text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        record(mismatch(screenContains: text), sourceLocation)
    }

    /// No row shows `text`.
    @discardableResult
    public func expectScreen(doesNotContain text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        record(mismatch(screenDoesNotContain: text), sourceLocation)
    }

    /// The text inside `rect` reads `expected`, one string per row; trailing spaces are ignored.
    @discardableResult
    public func expectRegion(_ rect: Rect, equals expected: [String], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        record(mismatch(region: rect, equals: expected), sourceLocation)
    }

    /// The cursor shows at `point`; nil expects it hidden.
    @discardableResult
    public func expectCursor(at point: Point?, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        record(mismatch(cursorAt: point), sourceLocation)
    }

    /// Every cell of `text` on row `y` is drawn with each of `attributes`:
    /// `expectStyle(of: "Alice", row: 2, has: .reverse)`.
    @discardableResult
    public func expectStyle(of text: String, row y: Int, has attributes: StyleAttribute...,
                            sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        record(mismatch(styleOf: text, row: y, has: attributes), sourceLocation)
    }

    /// No cell of `text` on row `y` is drawn with any of `attributes`.
    @discardableResult
    public func expectStyle(of text: String, row y: Int, lacks attributes: StyleAttribute...,
                            sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        record(mismatch(styleOf: text, row: y, lacks: attributes), sourceLocation)
    }

    private func record(_ failure: String?, _ sourceLocation: SourceLocation) -> Bool {
        guard let failure else { return true }
        Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
        return false
    }
}
