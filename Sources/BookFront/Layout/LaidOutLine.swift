/// One line on screen: the bytes it shows (line ends inside are shown as one space) and
/// whether it is the blank line between paragraphs. Lines are found by where they start,
/// so an offset belongs to the last line starting at or before it.
public struct LaidOutLine: Hashable, Sendable {
    public var range: Range<Int>
    public var isBlank: Bool
    /// The last line of a paragraph or of a line kept on its own: never justified.
    public var endsParagraph: Bool

    public init(range: Range<Int>, isBlank: Bool = false, endsParagraph: Bool = false) {
        self.range = range
        self.isBlank = isBlank
        self.endsParagraph = endsParagraph || isBlank
    }

    public var start: Int { range.lowerBound }
}

/// A block laid out at one width: its byte span and its lines, in order.
public struct LaidOutBlock: Sendable {
    public var start: Int
    public var end: Int
    public var lines: [LaidOutLine]

    /// Index of the line holding `offset` (the last one starting at or before it).
    public func lineIndex(containing offset: Int) -> Int {
        var low = 0, high = lines.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lines[middle].start <= offset { low = middle } else { high = middle - 1 }
        }
        return max(0, low)
    }
}
