import Terminal

/// The frame being drawn, shared by every canvas cut from it.
final class FrameTarget {
    var buffer: CellBuffer
    init(size: Size) { buffer = CellBuffer(size: size) }
}

/// A screen's drawing surface: a rectangle of the frame, with coordinates relative to its top
/// left corner and every write clipped to it, so a screen cannot draw outside its region.
///
/// A screen gets one in ``Screen/draw(in:)``; cut it into parts with ``subcanvas(_:)`` (and
/// `Rect`'s `splitTop(_:)`, `splitBottom(_:)` and `centered(width:height:)`), and draw with
/// ``write(_:x:y:style:)``, ``fill(_:with:style:)`` and ``drawBox(style:)``. Text is measured in
/// terminal columns: a wide character takes two, a combining mark none. To draw off any
/// terminal, in a test, use ``drawing(size:capabilities:_:)``.
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

    /// A canvas for part of this one, clipped to it: what a container gives each child.
    ///
    /// - Parameter rect: The part, in this canvas's coordinates; whatever lies outside the canvas
    ///   is cut off.
    /// - Returns: A canvas whose (0, 0) is `rect`'s top left corner.
    public func subcanvas(_ rect: Rect) -> Canvas {
        Canvas(target: target, frame: Rect(x: frame.x + rect.x, y: frame.y + rect.y, width: rect.width, height: rect.height).intersection(frame), capabilities: capabilities)
    }

    /// Writes `text` on one row from (`x`, `y`), clipped to the canvas.
    ///
    /// Control characters and bidirectional overrides are drawn as visible stand-ins, so text
    /// from a file or the network cannot move the cursor or reorder the screen. Line breaks are
    /// not followed: wrap with `DisplayWidth.wrap(_:to:)` first.
    ///
    /// - Parameters:
    ///   - text: The text; anything past the canvas's right edge is cut.
    ///   - x: The column of the first character, in canvas coordinates.
    ///   - y: The row, in canvas coordinates.
    ///   - style: The style of the cells written.
    /// - Returns: The columns the text advanced, to place what comes after it.
    @discardableResult
    public func write(_ text: String, x: Int, y: Int, style: Style = .plain) -> Int {
        target.buffer.write(text, at: Point(x: frame.x + x, y: frame.y + y), style: style, clip: frame)
    }

    /// Writes text padded with spaces to `width` columns, so it covers what was drawn there before:
    /// for cells of a table or a field that changes length.
    public func write(_ text: String, x: Int, y: Int, width: Int, style: Style = .plain) {
        write(DisplayWidth.pad(text, to: width), x: x, y: y, style: style)
    }

    /// Fills `rect` (the whole canvas by default) with one character in a style: clears a region,
    /// or paints a bar's background before writing on it.
    public func fill(_ rect: Rect? = nil, with character: Character = " ", style: Style = .plain) {
        let local = rect ?? bounds
        target.buffer.fill(Rect(x: frame.x + local.x, y: frame.y + local.y, width: local.width, height: local.height).intersection(frame), with: character, style: style)
    }

    /// Changes the style of cells already drawn in `rect`, keeping their text: highlights a
    /// selection after the rows are written.
    ///
    /// - Parameters:
    ///   - rect: The cells to change, in canvas coordinates.
    ///   - change: Edits each cell's style in place, such as `{ $0.reverse = true }`.
    public func restyle(_ rect: Rect, _ change: (inout Style) -> Void) {
        target.buffer.restyle(Rect(x: frame.x + rect.x, y: frame.y + rect.y, width: rect.width, height: rect.height).intersection(frame), change)
    }

    /// Shows the terminal cursor at a position in canvas coordinates, where a focused text field
    /// is typed; a position outside the canvas shows none. The last call in a frame wins.
    public func placeCursor(x: Int, y: Int) {
        guard x >= 0, y >= 0, x < frame.width, y < frame.height else { return }
        target.buffer.cursor = Point(x: frame.x + x, y: frame.y + y)
    }

    /// Draws a single-line box around the canvas's edge, in box-drawing characters (ASCII on a
    /// terminal without Unicode); draw inside it on `subcanvas` of the inner rectangle.
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
