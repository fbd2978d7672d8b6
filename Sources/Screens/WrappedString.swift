import Terminal

/// A string wrapped whole at one width: what a pager over text held in memory pages through.
final class WrappedString: PagedLines {
    let text: String
    let width: Int
    let ranges: [Range<String.Index>]
    /// Each line's start as a UTF-8 offset, in order.
    private let starts: [Int]

    init(_ text: String, width: Int) {
        self.text = text
        self.width = width
        ranges = DisplayWidth.wrapRanges(text, to: width)
        starts = ranges.map { text.utf8.distance(from: text.startIndex, to: $0.lowerBound) }
    }

    var count: Int { ranges.count }

    func position(of offset: Int) -> LinePosition? {
        guard !starts.isEmpty else { return nil }
        var low = 0, high = starts.count - 1
        while low < high {  // the last line starting at or before the offset
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return LinePosition(blockStart: 0, index: low)
    }

    func start(of position: LinePosition) -> Int { starts[position.index] }

    func next(_ position: LinePosition) -> LinePosition? {
        position.index + 1 < starts.count ? LinePosition(blockStart: 0, index: position.index + 1) : nil
    }

    func previous(_ position: LinePosition) -> LinePosition? {
        position.index > 0 ? LinePosition(blockStart: 0, index: position.index - 1) : nil
    }

    var last: LinePosition? { starts.isEmpty ? nil : LinePosition(blockStart: 0, index: starts.count - 1) }

    func line(at position: LinePosition) -> Substring { text[ranges[position.index]] }
}
