import TextSafety

/// One terminal cell: a grapheme cluster and its style. The right half of a two-column character
/// is a continuation cell, so that the grid stays a plain rectangle.
public struct Cell: Hashable, Sendable {
    /// The grapheme cluster shown; empty in a continuation cell.
    public var text: String
    /// How the cell is drawn.
    public var style: Style
    /// True for the right half of a two-column character, which draws nothing of its own.
    public var isContinuation: Bool

    /// A cell showing `text` (a space by default) in `style`.
    public init(_ text: String = " ", style: Style = .plain, isContinuation: Bool = false) {
        self.text = text
        self.style = style
        self.isContinuation = isContinuation
    }

    /// A space in the plain style: what a new frame is filled with.
    public static let blank = Cell()
}

/// A frame: the whole screen as cells. Screens draw into it; a terminal presents it.
/// Tests read it back as plain text rows (and styles separately).
public struct CellBuffer: Hashable, Sendable {
    /// The frame's size in cells.
    public private(set) var size: Size
    /// The cells row by row, `size.columns` to a row.
    public private(set) var cells: [Cell]
    /// Where the terminal's cursor shows, if anywhere (a text field with focus sets it).
    public var cursor: Point?

    /// A frame of blank cells, with no cursor.
    public init(size: Size) {
        self.size = size
        self.cells = Array(repeating: .blank, count: max(0, size.columns * size.rows))
    }

    /// The whole frame as a rectangle at the origin.
    public var bounds: Rect { Rect(size: size) }

    /// The cell at column `x`, row `y` (both from 0); out of range traps, as an array index does.
    public subscript(x: Int, y: Int) -> Cell {
        get { cells[y * size.columns + x] }
        set { cells[y * size.columns + x] = newValue }
    }

    /// Writes `text` starting at `point`, never outside `clip` (the whole buffer by default).
    /// Returns the number of columns advanced. Every string any screen draws passes here, so
    /// this is where text from outside is made safe: controls, line breaks and bidirectional
    /// overrides become their one-column stand-ins (`SafeText.standIn`), and no byte from a
    /// file can move the real terminal's cursor or reorder what is shown.
    @discardableResult
    public mutating func write(_ text: String, at point: Point, style: Style = .plain, clip: Rect? = nil) -> Int {
        write(text, at: point, style: style, clip: clip, takingPlainCellsAsBytes: true)
    }

    /// `takingPlainCellsAsBytes: false` reads every cluster the slow way, so tests can check
    /// the shortcut (`plainCell`) against it.
    @discardableResult
    mutating func write(_ text: String, at point: Point, style: Style, clip: Rect?, takingPlainCellsAsBytes: Bool) -> Int {
        let area = (clip ?? bounds).intersection(bounds)
        guard point.y >= area.y, point.y < area.maxY else { return 0 }
        var x = point.x
        ClusterStepping.withBytes(of: text) { source, bytes in
            var offset = 0
            while offset < bytes.count {
                if takingPlainCellsAsBytes, let (scalar, length) = Self.plainCell(bytes, at: offset) {
                    if x >= area.maxX { break }
                    if x >= area.x { put(Cell(String(scalar), style: style), x: x, y: point.y) }
                    x += 1
                    offset += length
                    continue
                }
                let character = ClusterStepping.cluster(at: offset, in: source)
                offset += character.utf8.count
                let shown = SafeText.standIn(for: character) ?? character
                let grapheme = String(shown)
                let width = DisplayWidth.of(shown)
                if width == 0 {
                    attachToPreviousCell(grapheme, before: x, y: point.y, area: area)
                    continue
                }
                if x >= area.maxX { break }
                if x >= area.x {
                    if width == 2 && x + 1 >= area.maxX {
                        put(Cell(" ", style: style), x: x, y: point.y)  // half a wide character would not show
                    } else {
                        put(Cell(grapheme, style: style), x: x, y: point.y)
                        if width == 2 { put(Cell("", style: style, isContinuation: true), x: x + 1, y: point.y) }
                    }
                }
                x += width
            }
        }
        return x - point.x
    }

    /// The scalar at `offset` and its length in bytes when it is a whole cell by itself that
    /// needs no look at the width or stand-in tables: printable ASCII, box drawing, block
    /// elements or braille (one column each, never a stand-in), followed by the end, ASCII or
    /// another such scalar (none of which joins a cluster). Most of what an app draws, a map
    /// and its borders above all, is made of these.
    @inline(__always)
    static func plainCell(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> (Unicode.Scalar, Int)? {
        guard let (scalar, length) = plainScalar(bytes, at: offset) else { return nil }
        let next = offset + length
        guard next == bytes.count || bytes[next] < 0x80 || plainScalar(bytes, at: next) != nil else { return nil }
        return (scalar, length)
    }

    @inline(__always)
    private static func plainScalar(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> (Unicode.Scalar, Int)? {
        let lead = bytes[offset]
        if lead >= 0x20 && lead < 0x7F { return (Unicode.Scalar(lead), 1) }
        guard lead == 0xE2, offset + 2 < bytes.count else { return nil }
        let value = 0x2000 | UInt32(bytes[offset + 1] & 0x3F) << 6 | UInt32(bytes[offset + 2] & 0x3F)
        guard (0x2500...0x259F).contains(value) || (0x2800...0x28FF).contains(value) else { return nil }
        return (Unicode.Scalar(value)!, 3)
    }

    /// Fills a rectangle with one character (a space by default) in a style.
    public mutating func fill(_ rect: Rect, with character: Character = " ", style: Style = .plain) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        let line = String(repeating: character, count: area.width / max(1, DisplayWidth.of(character)))
        for y in area.y..<area.maxY { write(line, at: Point(x: area.x, y: y), style: style, clip: area) }
    }

    /// Changes the style of cells already drawn, keeping their text (selection bars, cursors).
    public mutating func restyle(_ rect: Rect, _ change: (inout Style) -> Void) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX { change(&cells[y * size.columns + x].style) }
        }
    }

    /// One row as plain text, wide characters once, trailing spaces kept.
    public func text(row y: Int) -> String {
        var line = ""
        for x in 0..<size.columns where !self[x, y].isContinuation { line += self[x, y].text }
        return line
    }

    /// All rows as plain text with trailing spaces removed: what a person reads off the screen.
    public var lines: [String] { (0..<size.rows).map { text(row: $0).trimmingTrailingSpaces() } }

    /// Keeps the grid consistent when a write lands on half of a wide character.
    private mutating func put(_ cell: Cell, x: Int, y: Int) {
        let index = y * size.columns + x
        if cells[index].isContinuation && x > 0 && !cell.isContinuation {
            cells[index - 1] = Cell(" ", style: cells[index - 1].style)
        }
        if !cells[index].isContinuation && x + 1 < size.columns && cells[index + 1].isContinuation {
            cells[index + 1] = Cell(" ", style: cells[index + 1].style)
        }
        cells[index] = cell
    }

    private mutating func attachToPreviousCell(_ mark: String, before x: Int, y: Int, area: Rect) {
        var target = x - 1
        while target >= area.x && target < area.maxX && self[target, y].isContinuation { target -= 1 }
        guard target >= area.x, target < area.maxX else { return }
        self[target, y].text += mark
    }
}
