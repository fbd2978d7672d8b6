import FoundationEssentials
import Platform
import Terminal

/// The whole book laid out once at a width: how many lines it has, and checkpoints (block
/// start, lines before it) about every `checkpointSpacing` bytes so the line number of any
/// offset costs only the layout since the checkpoint before it.
public struct LineCount: Sendable {
    /// 16 KiB: the page number a first frame shows lays out at most that much (about 0.1 ms),
    /// for an index of 16 bytes per checkpoint (100 KB for a 100 MB book). A paragraph longer
    /// than this is one block up to `BlockScanner.cutSpacing`, so checkpoints are never closer
    /// than blocks.
    static let checkpointSpacing = 16 * 1024

    public var width: Int
    public var totalLines: Int
    public var checkpoints: [(blockStart: Int, linesBefore: Int)]

    /// Lines before the block holding `offset`'s line, plus that line's index: its line number.
    public func lineNumber(of offset: Int, in layout: TextLayout) -> Int {
        lineNumber(of: offset, in: layout, checked: false) ?? 0
    }

    /// `lineNumber(of:in:)`, or nil when the count does not fit the text: the checkpoint it
    /// starts from is no block start, or the line is past the last (a count read from a
    /// damaged index).
    public func checkedLineNumber(of offset: Int, in layout: TextLayout) -> Int? {
        lineNumber(of: offset, in: layout, checked: true)
    }

    private func lineNumber(of offset: Int, in layout: TextLayout, checked: Bool) -> Int? {
        guard let target = layout.position(of: offset) else { return 0 }
        var low = 0, high = checkpoints.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if checkpoints[middle].blockStart <= target.blockStart { low = middle } else { high = middle - 1 }
        }
        var (start, lines) = checkpoints.isEmpty ? (0, 0) : checkpoints[low]
        if checked, start >= layout.text.count || layout.blockStart(containing: start) != start { return nil }
        while start < target.blockStart {
            let block = layout.block(startingAt: start)
            lines += block.lines.count
            start = block.end
        }
        if checked, start != target.blockStart || lines + target.index >= max(1, totalLines) { return nil }
        return lines + target.index
    }

    static let releaseSpacing = 8 << 20

    /// Lays out the whole text; `isCancelled` is asked between blocks. Nil when cancelled.
    public static func count(text: BookText, width: Int, isCancelled: () -> Bool = { false }) -> LineCount? {
        let width = max(1, width)
        return text.bytes.withUnsafeBytes { raw -> LineCount? in
            let bytes = raw.bindMemory(to: UInt8.self)
            let scanner = BlockScanner(bytes: bytes)
            let wrapper = LineWrapper(bytes: bytes, width: width)
            var checkpoints: [(blockStart: Int, linesBefore: Int)] = [(0, 0)]
            var nextCheckpoint = Self.checkpointSpacing
            var start = 0, lines = 0, blocks = 0
            var scratch: [LaidOutLine] = []
            scratch.reserveCapacity(256)
            var nextCut = scanner.cut(after: 0)
            // A mapped book is read once from end to end here: give back what was passed, so
            // counting a 1 GB file does not leave it all resident.
            var released = 0
            while start < bytes.count {
                if start - released >= Self.releaseSpacing {
                    text.releaseResidentPages(released..<start)
                    released = start
                }
                if nextCut <= start { nextCut = scanner.cut(after: start) }
                if start >= nextCheckpoint {
                    checkpoints.append((start, lines))
                    nextCheckpoint = (start / Self.checkpointSpacing + 1) * Self.checkpointSpacing
                }
                let end = scanner.blockEnd(from: start, limit: nextCut)
                scratch.removeAll(keepingCapacity: true)
                wrapper.layout(blockFrom: start, to: end, into: &scratch)
                lines += scratch.count
                start = end
                blocks += 1
                if blocks % 64 == 0 && isCancelled() { return nil }
            }
            return LineCount(width: width, totalLines: lines, checkpoints: checkpoints)
        }
    }
}

/// Counts a book's lines on a background thread and leaves the result for the main thread,
/// which it wakes with `Wakeup.post()`. Starting a new count cancels the one running.
public final class BackgroundLineCounter: @unchecked Sendable {
    private let lock = Lock()
    private var generation = 0
    private var finished: (generation: Int, bookID: String, count: LineCount)?
    /// Called on the worker thread when a count is ready (the app posts a wake-up).
    private let notify: @Sendable () -> Void

    public init(notify: @escaping @Sendable () -> Void = { Wakeup.post() }) { self.notify = notify }

    /// Starts counting `document` at `width`; the previous count, if still running, stops.
    public func start(document: BookDocument, width: Int) {
        let mine: Int = lock.withLock {
            generation += 1
            finished = nil
            return generation
        }
        let text = document.text, id = document.id
        startThread(stackSize: 1 << 20) { [self] in
            let result = LineCount.count(text: text, width: width) { self.lock.withLock { self.generation != mine } }
            guard let result else { return }
            let stored: Bool = self.lock.withLock {
                guard self.generation == mine else { return false }
                self.finished = (mine, id, result)
                return true
            }
            if stored { self.notify() }
        }
    }

    public func cancel() { lock.withLock { generation += 1; finished = nil } }

    /// The finished count, once (nil while counting or after it was taken).
    public func takeResult() -> (bookID: String, count: LineCount)? {
        lock.withLock {
            guard let done = finished, done.generation == generation else { return nil }
            finished = nil
            return (done.bookID, done.count)
        }
    }
}
