import Screens
import Terminal

/// The checks behind the `expect…` methods, each giving the failure message or nil when the
/// screen is as expected; for tests that want to decide themselves what a mismatch means.
extension DrivesApplication {
    /// Row `y` reads exactly `expected` (trailing spaces ignored).
    public func mismatch(row y: Int, equals expected: String) -> String? {
        guard let actual = row(y) else { return "there is no row \(y)\n\(numberedScreen)" }
        guard actual != expected else { return nil }
        return "row \(y) is\n  “\(actual)”\nnot\n  “\(expected)”\n\(firstDifference(actual, expected))\n\(numberedScreen)"
    }

    /// Row `y` shows `text` somewhere.
    public func mismatch(row y: Int, contains text: String) -> String? {
        guard let actual = row(y) else { return "there is no row \(y)\n\(numberedScreen)" }
        guard !actual.contains(text) else { return nil }
        let elsewhere = row(containing: text).map { " (it is on row \($0))" } ?? ""
        return "row \(y) does not show “\(text)”\(elsewhere)\n\(numberedScreen)"
    }

    /// The screen shows `text` on some row.
    public func mismatch(screenContains text: String) -> String? {
        guard row(containing: text) == nil else { return nil }
        return "“\(text)” is not on the screen\n\(numberedScreen)"
    }

    /// No row shows `text`.
    public func mismatch(screenDoesNotContain text: String) -> String? {
        guard let y = row(containing: text) else { return nil }
        return "“\(text)” is on the screen, on row \(y)\n\(numberedScreen)"
    }

    /// The text inside `rect` reads `expected`, row by row (trailing spaces ignored).
    public func mismatch(region rect: Rect, equals expected: [String]) -> String? {
        let actual = region(rect)
        guard actual != expected else { return nil }
        var lines = ["the region at \(rect.x),\(rect.y) (\(rect.width)×\(rect.height)) differs:"]
        for index in 0..<max(actual.count, expected.count) {
            let have = index < actual.count ? "“\(actual[index])”" : "(no row)"
            let want = index < expected.count ? "“\(expected[index])”" : "(no row)"
            lines.append(have == want ? "  row \(rect.y + index): \(have)" : "  row \(rect.y + index): \(have), expected \(want)")
        }
        return lines.joined(separator: "\n") + "\n\(numberedScreen)"
    }

    /// The cursor shows at `point`, or is hidden when `point` is nil.
    public func mismatch(cursorAt point: Point?) -> String? {
        guard cursor != point else { return nil }
        func words(_ point: Point?) -> String { point.map { "at \($0.x),\($0.y)" } ?? "hidden" }
        return "the cursor is \(words(cursor)), expected \(words(point))\n\(numberedScreen)"
    }

    /// Every cell of `text` on row `y` has each of `attributes`.
    public func mismatch(styleOf text: String, row y: Int, has attributes: [StyleAttribute]) -> String? {
        guard let styles = styles(of: text, row: y), let x = column(of: text, row: y) else {
            return mismatch(row: y, contains: text) ?? "“\(text)” is not on row \(y)\n\(numberedScreen)"
        }
        for (offset, style) in styles.enumerated() {
            let missing = attributes.filter { !$0.isPresent(in: style) }
            guard missing.isEmpty else {
                return "“\(text)” on row \(y) is not \(missing.map(\.description).joined(separator: ", ")): "
                    + "the cell at column \(x + offset) is \(StyleAttribute.describe(style))\n\(numberedScreen)"
            }
        }
        return nil
    }

    /// No cell of `text` on row `y` has any of `attributes`.
    public func mismatch(styleOf text: String, row y: Int, lacks attributes: [StyleAttribute]) -> String? {
        guard let styles = styles(of: text, row: y), let x = column(of: text, row: y) else {
            return mismatch(row: y, contains: text) ?? "“\(text)” is not on row \(y)\n\(numberedScreen)"
        }
        for (offset, style) in styles.enumerated() {
            let present = attributes.filter { $0.isPresent(in: style) }
            guard present.isEmpty else {
                return "“\(text)” on row \(y) should not be \(present.map(\.description).joined(separator: ", ")): "
                    + "the cell at column \(x + offset) is \(StyleAttribute.describe(style))\n\(numberedScreen)"
            }
        }
        return nil
    }

    /// The text of row `y`, trailing spaces removed; nil past the last row.
    func row(_ y: Int) -> String? {
        y >= 0 && y < terminal.lines.count ? terminal.lines[y] : nil
    }

    /// Where two strings part, as a caret under the first character that differs.
    private func firstDifference(_ actual: String, _ expected: String) -> String {
        let common = zip(actual, expected).prefix { $0 == $1 }.count
        let column = DisplayWidth.of(actual.prefix(common))
        return "   " + String(repeating: " ", count: column) + "^ from column \(column)"
    }
}
