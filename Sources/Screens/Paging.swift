/// How a pager moves through its lines: the page arithmetic every pager shares, as a value so
/// a pager that lays out its own text (a book) moves exactly as one over a string does.
///
/// A place is an offset (the page shown is the one whose top line holds it); a move answers
/// the offset of the new top line, or nil when there is nowhere to go that way.
public struct Paging: Hashable, Sendable {
    /// Lines of a page kept on the next one, so the eye finds its place.
    public var keptLines: Int
    /// Whether a page forward stops at the last full page (the text's end on the bottom row)
    /// or turns to whatever is left, as a book's last page may be short.
    public var stopsAtLastPage: Bool

    /// A way of moving that keeps `keptLines` of a page on the next and stops at the last full
    /// page when `stopsAtLastPage`.
    public init(keptLines: Int, stopsAtLastPage: Bool) {
        self.keptLines = keptLines
        self.stopsAtLastPage = stopsAtLastPage
    }

    /// As less scrolls: a page keeps one line and the end of the text stays on the bottom row.
    public static let scrolling = Paging(keptLines: 1, stopsAtLastPage: true)
    /// As a book's pages turn: none shared, the last one as short as it comes.
    public static let turningPages = Paging(keptLines: 0, stopsAtLastPage: false)

    /// The new top line's offset after `motion` from the page at `anchor`, for pages `height`
    /// lines high; nil when the text is empty or the page is already at that end. A move down
    /// by lines never goes past the last page nor, from beyond it, back up.
    public func target(of motion: Motion, from anchor: Int, height: Int, in lines: some PagedLines) -> Int? {
        guard let top = lines.position(of: anchor) else { return nil }
        let current = lines.start(of: top)
        switch motion {
        case .first:
            return 0
        case .last:
            return lines.lastPageTop(height: height).map(lines.start(of:))
        case .lines(let n):
            var target = lines.start(of: lines.move(top, by: n))
            if n > 0, let last = lines.lastPageTop(height: height) { target = max(current, min(target, lines.start(of: last))) }
            return target == current ? nil : target
        case .pages(let n) where n < 0:
            guard lines.previous(top) != nil else { return nil }
            return lines.start(of: lines.move(top, by: n * step(height)))
        case .pages(let n):
            if stopsAtLastPage {
                return target(of: .lines(n * step(height)), from: anchor, height: height, in: lines)
            }
            return lines.move(top, exactly: n * step(height)).map(lines.start(of:))
        }
    }

    /// The lines of the page at `anchor`.
    public func page(at anchor: Int, height: Int, in lines: some PagedLines) -> [LinePosition] {
        guard let top = lines.position(of: anchor) else { return [] }
        return lines.positions(from: top, count: max(1, height))
    }

    private func step(_ height: Int) -> Int { max(1, height - keptLines) }
}
