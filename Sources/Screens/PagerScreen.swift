import KeyedArchive
import Terminal

/// A scrolling text reader. Its place is kept as a position in the text (the first character
/// of the top line), not as a line number, so the same sentence stays on top when the width
/// changes and lines wrap differently.
open class PagerScreen: Screen {
    public var text: String {
        didSet {
            layout = nil
            anchor = text.startIndex
            setNeedsDisplay()
        }
    }
    /// The first character shown on the top line.
    public private(set) var anchor: String.Index
    private var layout: (width: Int, lines: [Range<String.Index>])?
    private var pageHeight = 10

    /// A pager over `text`, wrapped to the width it is drawn at.
    public init(title: String, text: String, restorationIdentifier: String? = nil) {
        self.text = text
        self.anchor = text.startIndex
        super.init(title: title, restorationIdentifier: restorationIdentifier)
    }

    /// The place as a UTF-8 offset: what is saved and restored.
    public var anchorOffset: Int {
        get { text.utf8.distance(from: text.startIndex, to: anchor) }
        set {
            let clamped = min(max(0, newValue), text.utf8.count)
            let raw = text.utf8.index(text.startIndex, offsetBy: clamped)
            // Snap to the character boundary at or before the offset (runs once, on restore).
            var boundary = text.startIndex
            for index in text.indices {
                if index > raw { break }
                boundary = index
            }
            anchor = boundary
            setNeedsDisplay()
        }
    }

    open override func encodeRestorableState(with coder: KeyedArchiver) throws {
        coder.encode(anchorOffset, forKey: "anchorOffset")
    }

    open override func decodeRestorableState(with coder: KeyedUnarchiver) throws {
        anchorOffset = try coder.decodeInteger(forKey: "anchorOffset")
    }

    private func lines(width: Int) -> [Range<String.Index>] {
        if let layout, layout.width == width { return layout.lines }
        let lines = DisplayWidth.wrapRanges(text, to: width)
        layout = (width, lines)
        return lines
    }

    /// Index of the wrapped line holding the anchor.
    private func topLine(in lines: [Range<String.Index>]) -> Int {
        var low = 0, high = lines.count - 1
        while low < high {  // last line starting at or before the anchor
            let mid = (low + high + 1) / 2
            if lines[mid].lowerBound <= anchor { low = mid } else { high = mid - 1 }
        }
        return max(0, low)
    }

    /// Moves the view `delta` rows down (up when negative), kept within the text.
    public func scroll(by delta: Int) {
        guard let layout else { return }
        let maxTop = max(0, layout.lines.count - pageHeight)
        let target = min(max(0, topLine(in: layout.lines) + delta), maxTop)
        anchor = layout.lines[min(target, layout.lines.count - 1)].lowerBound
        setNeedsDisplay()
    }

    open override var keyBindings: [KeyBinding] {
        [
            KeyBinding([.pageDown, .character(" ")], label: "Space", help: "Next page") { [unowned self] in self.scroll(.pages(1)) },
            KeyBinding([.pageUp, .character("b")], label: "b", help: "Previous page") { [unowned self] in self.scroll(.pages(-1)) },
        ] + MotionKeys(lineHelp: "Scroll a line").bindings { [unowned self] in self.scroll($0) }
    }

    /// A page keeps one line of the last one on screen, as less does, so the eye finds its place.
    private func scroll(_ motion: Motion) {
        switch motion {
        case .pages(let n): scroll(by: n * max(1, pageHeight - 1))
        case .first: scroll(by: Int.min / 2)
        case .last: scroll(by: Int.max / 2)
        case .lines(let n): scroll(by: n)
        }
    }

    open override func handle(_ event: Event) throws -> Bool {
        if case .mouse(let mouse) = event {
            guard let motion = Motion(wheel: mouse) else { return false }
            scroll(motion)
            return true
        }
        return try super.handle(event)
    }

    open override var statusText: String? {
        guard let layout, !layout.lines.isEmpty else { return nil }
        let top = topLine(in: layout.lines)
        let last = min(layout.lines.count, top + pageHeight)
        return "\(last * 100 / layout.lines.count)%"
    }

    open override func draw(in canvas: Canvas) {
        let margin = canvas.width >= 60 ? 2 : 1
        let width = max(1, canvas.width - 2 * margin)
        let lines = lines(width: width)
        pageHeight = max(1, canvas.height)
        let top = topLine(in: lines)
        for row in 0..<min(canvas.height, lines.count - top) {
            let line = String(text[lines[top + row]])
            canvas.write(line, x: margin, y: row)
        }
    }
}
