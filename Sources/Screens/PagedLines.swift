/// A wrapped line's place: the block of the text it was laid out in (a byte offset) and its
/// index there. A text laid out whole is one block at 0.
public struct LinePosition: Hashable, Sendable {
    /// The UTF-8 offset of the block the line was laid out in.
    public var blockStart: Int
    /// The line's index among the block's lines, from 0.
    public var index: Int

    /// The line `index` of the block that starts at `blockStart`.
    public init(blockStart: Int, index: Int) {
        self.blockStart = blockStart
        self.index = index
    }
}

/// A text laid out in lines at one width, walked a line at a time from any offset, so a pager
/// can page through a text it never holds whole (a book mapped from disk and laid out around
/// the page shown). Offsets are UTF-8 byte offsets into the text.
public protocol PagedLines: AnyObject {
    /// The line holding `offset` (the last one starting at or before it, clamped to the text);
    /// nil for an empty text.
    func position(of offset: Int) -> LinePosition?
    /// Where the line at `position` starts.
    func start(of position: LinePosition) -> Int
    /// The line after `position`, crossing into the next block; nil after the last line.
    func next(_ position: LinePosition) -> LinePosition?
    /// The line before `position`, crossing into the block before; nil before the first line.
    func previous(_ position: LinePosition) -> LinePosition?
    /// The last line; nil for an empty text.
    var last: LinePosition? { get }
}

extension PagedLines {
    /// `steps` lines on (or back, when negative), stopping at either end.
    public func move(_ position: LinePosition, by steps: Int) -> LinePosition {
        var current = position
        if steps >= 0 {
            for _ in 0..<steps { guard let next = next(current) else { break }; current = next }
        } else {
            for _ in 0..<(-steps) { guard let previous = previous(current) else { break }; current = previous }
        }
        return current
    }

    /// `steps` lines on, or nil when the text ends before that.
    func move(_ position: LinePosition, exactly steps: Int) -> LinePosition? {
        var current = position
        for _ in 0..<max(0, steps) {
            guard let next = next(current) else { return nil }
            current = next
        }
        return current
    }

    /// The top line of the last page `height` lines high.
    public func lastPageTop(height: Int) -> LinePosition? {
        last.map { move($0, by: -(max(1, height) - 1)) }
    }

    /// Up to `count` lines from `position` on.
    public func positions(from position: LinePosition, count: Int) -> [LinePosition] {
        var result: [LinePosition] = []
        var current: LinePosition? = position
        while result.count < count, let here = current {
            result.append(here)
            current = next(here)
        }
        return result
    }
}
