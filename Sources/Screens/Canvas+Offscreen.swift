import Terminal

extension Canvas {
    /// Draws on a frame of its own, off any terminal, and returns that frame: for testing one
    /// drawing routine (a row, a box, a custom screen's `draw(in:)`) without an application,
    /// and for tools that print what a screen would show.
    ///
    /// ```swift
    /// let frame = Canvas.drawing(size: Size(columns: 20, rows: 3)) { canvas in
    ///     canvas.drawBox()
    ///     canvas.write("Hi", x: 1, y: 1)
    /// }
    /// frame.lines  // ["┌──────────────────┐", "│Hi                │", "└──────────────────┘"]
    /// ```
    public static func drawing(size: Size, capabilities: TerminalCapabilities = .init(colors: true, unicode: true),
                               _ draw: (Canvas) throws -> Void) rethrows -> CellBuffer {
        let target = FrameTarget(size: size)
        try draw(Canvas(target: target, frame: Rect(size: size), capabilities: capabilities))
        return target.buffer
    }
}
