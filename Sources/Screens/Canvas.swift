import Terminal

/// The frame being drawn, shared by every canvas cut from it.
final class FrameTarget {
    var buffer: CellBuffer
    init(size: Size) { buffer = CellBuffer(size: size) }
}

/// A screen's drawing surface: a rectangle of the frame, with coordinates relative to its top
/// left corner and every write clipped to it, so a screen cannot draw outside its region.
public struct Canvas {
    let target: FrameTarget
    /// Where this canvas sits in the frame.
    public let frame: Rect
    /// What the terminal can show, for screens that draw differently without Unicode or colour.
    public let capabilities: TerminalCapabilities

    init(target: FrameTarget, frame: Rect, capabilities: TerminalCapabilities) {
        self.target = target
        self.frame = frame.intersection(target.buffer.bounds)
        self.capabilities = capabilities
    }

    /// The canvas' width in cells.
    public var width: Int { frame.width }
    /// The canvas' height in cells.
    public var height: Int { frame.height }
    /// The whole canvas in its own coordinates.
    public var bounds: Rect { Rect(x: 0, y: 0, width: frame.width, height: frame.height) }

    /// A canvas for part of this one (in local coordinates).
    public func subcanvas(_ rect: Rect) -> Canvas {
        Canvas(target: target, frame: Rect(x: frame.x + rect.x, y: frame.y + rect.y, width: rect.width, height: rect.height).intersection(frame), capabilities: capabilities)
    }

    /// Writes `text` at (`x`, `y`), clipped to the canvas; returns the columns it advanced.
    /// Control characters and bidirectional overrides are drawn as visible stand-ins.
    @discardableResult
    public func write(_ text: String, x: Int, y: Int, style: Style = .plain) -> Int {
        target.buffer.write(text, at: Point(x: frame.x + x, y: frame.y + y), style: style, clip: frame)
    }

    /// Writes text cut to fit `width` columns (with an ellipsis) and padded with spaces.
    public func write(_ text: String, x: Int, y: Int, width: Int, style: Style = .plain) {
        write(DisplayWidth.pad(text, to: width), x: x, y: y, style: style)
    }

    /// Fills `rect` (the whole canvas by default) with one character in a style.
    public func fill(_ rect: Rect? = nil, with character: Character = " ", style: Style = .plain) {
        let local = rect ?? bounds
        target.buffer.fill(Rect(x: frame.x + local.x, y: frame.y + local.y, width: local.width, height: local.height).intersection(frame), with: character, style: style)
    }

    /// Changes the style of cells already drawn in `rect`, keeping their text (selection bars).
    public func restyle(_ rect: Rect, _ change: (inout Style) -> Void) {
        target.buffer.restyle(Rect(x: frame.x + rect.x, y: frame.y + rect.y, width: rect.width, height: rect.height).intersection(frame), change)
    }

    /// Shows the terminal cursor at a local position (a focused text field does this).
    public func placeCursor(x: Int, y: Int) {
        guard x >= 0, y >= 0, x < frame.width, y < frame.height else { return }
        target.buffer.cursor = Point(x: frame.x + x, y: frame.y + y)
    }

    /// A single-line box around the canvas' edge.
    public func drawBox(style: Style = .plain) {
        guard width >= 2, height >= 2 else { return }
        write("┌" + String(repeating: "─", count: width - 2) + "┐", x: 0, y: 0, style: style)
        for row in 1..<(height - 1) {
            write("│", x: 0, y: row, style: style)
            write("│", x: width - 1, y: row, style: style)
        }
        write("└" + String(repeating: "─", count: width - 2) + "┘", x: 0, y: height - 1, style: style)
    }
}
