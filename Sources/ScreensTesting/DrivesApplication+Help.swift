import Screens
import Terminal

extension DrivesApplication {
    /// The key labels the help box (F1, `?`) shows, top to bottom, as a person reads them in
    /// its left column; nil when no help box is on screen. Rows without a label (a wrapped
    /// line) are left out.
    public var shownHelpKeyLabels: [String]? {
        let titleStart = "┌─ Keys: "
        guard let top = row(containing: titleStart), let left = column(of: titleStart, row: top),
              let right = (left + 1..<terminal.size.columns).first(where: { terminal.frame[$0, top].text == "┐" }) else { return nil }
        var labels: [String] = []
        for y in top + 1..<terminal.size.rows {
            guard terminal.frame[left, y].text == "│" else { break }
            guard let text = region(Rect(x: left + 2, y: y, width: right - left - 3, height: 1)).first,
                  !text.isEmpty, !text.hasPrefix(" ") else { continue }
            labels.append(text.firstRange(of: "  ").map { String(text[..<$0.lowerBound]) } ?? text)
        }
        return labels
    }
}
