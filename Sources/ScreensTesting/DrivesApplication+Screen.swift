import Screens
import Terminal

extension DrivesApplication {
    /// Every row of the screen as text, trailing spaces removed: what a person reads.
    public var lines: [String] { terminal.lines }
    /// The whole screen as one string, rows joined by line breaks.
    public var text: String { terminal.text }
    /// The bottom row, where the application shows the keys that act.
    public var hintBar: String { terminal.lines[terminal.lines.count - 1] }
    /// The rows above the hint bar.
    public var content: [String] { Array(terminal.lines.dropLast()) }
    /// Where the terminal's cursor shows (a focused text field puts it there); nil when hidden.
    public var cursor: Point? { terminal.frame.cursor }

    /// The cell at column `x`, row `y`: its text and its style.
    public func cell(x: Int, y: Int) -> Cell { terminal.frame[x, y] }

    /// The first row, from the top, whose text contains `text`.
    public func row(containing text: String) -> Int? {
        terminal.lines.firstIndex { $0.contains(text) }
    }

    /// The column where `text` starts on row `y`, in cells (a wide character counts as two).
    public func column(of text: String, row y: Int) -> Int? {
        guard y >= 0, y < terminal.size.rows else { return nil }
        let row = terminal.frame.text(row: y)
        guard let range = row.firstRange(of: text) else { return nil }
        return DisplayWidth.of(row[..<range.lowerBound])
    }

    /// The style of the cell where `text` starts on row `y`.
    public func style(of text: String, row y: Int) -> Style? {
        column(of: text, row: y).map { terminal.frame[$0, y].style }
    }

    /// The styles of every cell `text` covers on row `y` (a wide character's second half
    /// included); nil when the row does not show it.
    public func styles(of text: String, row y: Int) -> [Style]? {
        guard let x = column(of: text, row: y) else { return nil }
        let width = DisplayWidth.of(text)
        return (x..<min(x + width, terminal.size.columns)).map { terminal.frame[$0, y].style }
    }

    /// The text inside `rect`, one string per row, trailing spaces removed; the parts of
    /// `rect` outside the screen are left out.
    public func region(_ rect: Rect) -> [String] {
        let area = rect.intersection(terminal.frame.bounds)
        guard !area.isEmpty else { return [] }
        return (area.y..<area.maxY).map { y in
            var row = ""
            for x in area.x..<area.maxX where !terminal.frame[x, y].isContinuation { row += terminal.frame[x, y].text }
            return String(row.reversed().drop { $0 == " " }.reversed())
        }
    }

    /// The screen with its rows numbered and its right edge marked, for failure messages:
    /// trailing spaces and empty rows are then visible.
    public var numberedScreen: String {
        let width = String(terminal.size.rows - 1).count
        let rows = (0..<terminal.size.rows).map { y in
            let number = String(y)
            return String(repeating: " ", count: width - number.count) + number + "│" + terminal.frame.text(row: y) + "│"
        }
        return "screen \(terminal.size), cursor \(cursor.map { "at \($0.x),\($0.y)" } ?? "hidden"):\n" + rows.joined(separator: "\n")
    }
}
