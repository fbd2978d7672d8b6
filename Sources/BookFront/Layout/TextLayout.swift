import FoundationEssentials
import Screens

/// Lays out a book lazily at one width: only the blocks around the offsets asked about, with
/// a small cache, so opening a 10 MB book near its end costs a page, not the book. The reader
/// pages through it as a pager's lines.
public final class TextLayout: PagedLines {
    public let text: BookText
    public let width: Int
    private var cache: [Int: LaidOutBlock] = [:]
    private static let cacheLimit = 512

    /// A line's place: the block it belongs to and its index there.
    public typealias Position = LinePosition

    public init(text: BookText, width: Int) {
        self.text = text
        self.width = max(1, width)
    }

    public var isEmpty: Bool { text.count == 0 }

    private func withScanner<T>(_ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        text.bytes.withUnsafeBytes { raw in body(raw.bindMemory(to: UInt8.self)) }
    }

    /// The block starting at `start` (which must be a block start).
    public func block(startingAt start: Int) -> LaidOutBlock {
        if let cached = cache[start] { return cached }
        let block = withScanner { bytes -> LaidOutBlock in
            let scanner = BlockScanner(bytes: bytes)
            let end = scanner.blockEnd(from: start)
            return LaidOutBlock(start: start, end: end, lines: LineWrapper(bytes: bytes, width: width).layout(blockFrom: start, to: end))
        }
        if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
        cache[start] = block
        return block
    }

    public func blockStart(containing offset: Int) -> Int {
        withScanner { BlockScanner(bytes: $0).blockStart(containing: offset) }
    }

    /// The line holding `offset` (clamped to the text).
    public func position(of offset: Int) -> Position? {
        guard !isEmpty else { return nil }
        let start = blockStart(containing: offset)
        let block = block(startingAt: start)
        return Position(blockStart: start, index: block.lineIndex(containing: offset))
    }

    public func line(at position: Position) -> LaidOutLine {
        block(startingAt: position.blockStart).lines[position.index]
    }

    public func start(of position: Position) -> Int { line(at: position).start }

    public func next(_ position: Position) -> Position? {
        let block = block(startingAt: position.blockStart)
        if position.index + 1 < block.lines.count { return Position(blockStart: block.start, index: position.index + 1) }
        guard block.end < text.count else { return nil }
        return Position(blockStart: block.end, index: 0)
    }

    public func previous(_ position: Position) -> Position? {
        if position.index > 0 { return Position(blockStart: position.blockStart, index: position.index - 1) }
        guard position.blockStart > 0 else { return nil }
        let start = blockStart(containing: position.blockStart - 1)
        return Position(blockStart: start, index: block(startingAt: start).lines.count - 1)
    }

    /// Up to `count` lines from `position` on.
    public func lines(from position: Position, count: Int) -> [(position: Position, line: LaidOutLine)] {
        positions(from: position, count: count).map { ($0, line(at: $0)) }
    }

    /// The first line of the text.
    public var first: Position? { isEmpty ? nil : Position(blockStart: 0, index: 0) }

    /// The last line of the text.
    public var last: Position? { position(of: text.count - 1) }
}
