import Foundation
import Testing

/// The notes editor at the smallest size the app draws (40×10) in tmux: typed words wrap whole,
/// and the cursor stays on screen after a large paste and a resize.
@Suite("Notes editor wrapping in tmux", .whenEndToEndIsAskedFor)
struct EditorWrapJourneyTests {
    /// Opens the March Hare's notes for editing in a 40×10 terminal.
    private func openNotes() throws -> TmuxSession {
        let tmux = try TmuxSession(columns: 40, rows: 10)
        try tmux.launchApp()
        try tmux.type("2")
        try tmux.waitForText("▸ Alice")
        try tmux.type("/march")
        try tmux.waitForText("▸ March Hare")
        try tmux.press("Enter")
        try tmux.waitForText("March Hare")
        try tmux.type("e")
        try tmux.waitForText("Notes (editing")
        return tmux
    }

    /// The editor's rows on `screen`: those between the notes header and the hint bar.
    private func editorRows(_ screen: [String], rows: Int) -> Range<Int> {
        let header = screen.firstIndex { $0.hasPrefix("─ Notes (editing") } ?? rows - 1
        return (header + 1)..<(rows - 1)
    }

    /// The screen once the status line differs from `status` and two captures agree: a capture
    /// can fall between the rows of one frame.
    private func settledScreen(_ tmux: TmuxSession, after status: String) throws -> [String] {
        var previous: [String] = []
        return try tmux.waitFor("the screen after a move") { screen in
            defer { previous = screen }
            return screen.count >= 10 && screen[9] != status && screen == previous
        }
    }

    @Test("words typed at 40 columns are never split across rows, and every row of them can be reached")
    func typedWordsWrapWhole() throws {
        let tmux = try openNotes()
        var words = MadeUpWords(suffix: "q")
        let typed = (0..<60).map { _ in words.next() }
        let sentence = typed.joined(separator: " ")
        try tmux.type(sentence)
        try tmux.waitFor("the whole sentence typed") { $0[9].hasSuffix("Col \(sentence.count + 1)") }
        // From the first row down to the last, one row at a time: the cursor's row each time.
        try tmux.press("Home")
        var seen: [String] = []
        var status = ""
        for step in 0..<40 {
            let screen = try settledScreen(tmux, after: status)
            status = screen[9]
            let cursor = try tmux.cursor()
            let rows = editorRows(screen, rows: 10)
            tmux.check(rows.contains(cursor.y), "step \(step): the cursor (row \(cursor.y)) is in the editor's rows \(rows)")
            for row in rows {
                for token in screen[row].split(separator: " ") {
                    tmux.check(typed.contains(String(token)), "step \(step): \"\(token)\" on row \(row) is not a whole word")
                }
            }
            if seen.last != screen[cursor.y] { seen.append(screen[cursor.y]) }
            if status.hasSuffix("Col \(sentence.count + 1)") { break }
            // Down to the next row; on the last one, End to the end of the text.
            try tmux.press(screen[cursor.y].split(separator: " ").contains { String($0) == typed.last } ? "End" : "Down")
        }
        #expect(seen.flatMap { $0.split(separator: " ").map(String.init) } == typed, "\(seen)")
        try tmux.press("Escape")
        try tmux.waitForText("Notes (e to edit)")
    }

    @Test("a word typed at the start of a long pasted line rewraps it, and its rows still hold whole words to the end")
    func editAtTheStartOfALongLine() throws {
        let tmux = try openNotes()
        var words = MadeUpWords(suffix: "z")
        let line = (0..<3_000).map { _ in words.next() }
        let file = tmux.home.appendingPathComponent("line.txt")
        try line.joined(separator: " ").write(to: file, atomically: true, encoding: .utf8)
        _ = try tmux.tmux(["load-buffer", file.path])
        _ = try tmux.tmux(["paste-buffer", "-p", "-t", "0"])
        let length = line.joined(separator: " ").count
        try tmux.waitFor("the whole line pasted", timeout: 20) { $0[9].hasSuffix("Ln 1, Col \(length + 1)") }
        try tmux.press("Home")
        try tmux.type("wonderfully ")
        let top = try tmux.waitFor("the new word at the start") { $0[9].hasSuffix("Col 13") && $0.contains { $0.hasPrefix(" wonderfully ") } }
        for row in editorRows(top, rows: 10) {
            for token in top[row].split(separator: " ") {
                tmux.check(token == "wonderfully" || line.contains(String(token)), "\"\(token)\" on row \(row) is not a whole word")
            }
        }
        // The end of the line, cut from rows taken up again after the edit, holds whole words too.
        try tmux.press("End")
        let end = try tmux.waitFor("the end of the line") { $0[9].hasSuffix("Col \(length + 13)") }
        let cursor = try tmux.cursor()
        tmux.check(end[cursor.y].hasSuffix(" " + line.last!), "the cursor's row ends with the last word: \(end[cursor.y])")
        for row in editorRows(end, rows: 10) {
            for token in end[row].split(separator: " ") {
                tmux.check(line.contains(String(token)), "\"\(token)\" on row \(row) is not a whole word")
            }
        }
        try tmux.press("Escape")
        try tmux.waitForText("Notes (e to edit)")
    }

    @Test("after a large paste, and after resizing, the cursor's row is on screen and shows the end of the paste")
    func cursorVisibleAfterALargePaste() throws {
        let tmux = try openNotes()
        try tmux.type("Tea:")
        var words = MadeUpWords(suffix: "x")
        let lines = (0..<300).map { index in (0..<(index % 12 + 1)).map { _ in words.next() }.joined(separator: " ") }
        let file = tmux.home.appendingPathComponent("paste.txt")
        try ("\n" + lines.joined(separator: "\n") + "\nthe end").write(to: file, atomically: true, encoding: .utf8)
        _ = try tmux.tmux(["load-buffer", file.path])
        _ = try tmux.tmux(["paste-buffer", "-p", "-t", "0"])
        try tmux.waitFor("the whole paste, the cursor after it", timeout: 20) { $0[9].hasSuffix("Ln 302, Col 8") }
        for (columns, rows) in [(40, 10), (57, 13), (40, 10)] {
            try tmux.resize(columns: columns, rows: rows)
            let screen = try tmux.waitFor("the editor at \(columns)×\(rows)") {
                $0.count >= rows && $0[rows - 1].hasSuffix("Ln 302, Col 8") && $0.contains(" the end")
            }
            let cursor = try tmux.cursor()
            tmux.check(editorRows(screen, rows: rows).contains(cursor.y), "at \(columns)×\(rows) the cursor (row \(cursor.y)) is in the editor")
            tmux.check(screen[cursor.y] == " the end" && cursor.x == 8, "at \(columns)×\(rows) the cursor is after “the end”")
        }
        try tmux.press("Escape")
        try tmux.waitForText("Notes (e to edit)")
    }
}
