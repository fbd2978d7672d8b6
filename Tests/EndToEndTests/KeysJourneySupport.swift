import Foundation

/// What the key journeys share: raw bytes and pastes as a terminal sends them, the Open
/// prompt, and reading the text inside a box drawn over the app.
extension TmuxSession {
    /// Bytes exactly as a terminal would send them (`send-keys -H`).
    func sendRaw(_ bytes: [UInt8]) throws {
        try tmux(["send-keys", "-t", "0", "-H"] + bytes.map { String(format: "%02x", $0) })
    }

    func sendRaw(_ text: String) throws { try sendRaw(Array(text.utf8)) }

    /// Pastes `text` the way tmux pastes its buffer into an app that asked for bracketed paste.
    func pasteBuffer(_ text: String) throws {
        let file = home.appendingPathComponent("paste-\(UUID().uuidString.prefix(6)).txt")
        try Data(text.utf8).write(to: file)
        try tmux(["load-buffer", file.path])
        try tmux(["paste-buffer", "-p", "-t", "0"])
    }

    /// From a running app: the Book tab, then its Open prompt (empty while no book is open).
    func openBookPrompt() throws {
        try type("3")
        try waitForText("o Open")
        try type("o")
        try waitForText("Open a book")
    }

    func quitApp() throws {
        try type("q")
        try waitForText("exit=0")
    }

    /// The text between a box's borders on `row`; nil for a row outside any box.
    static func insideBox(_ row: String) -> String? {
        guard let first = row.firstIndex(of: "│"), let last = row.lastIndex(of: "│"), first < last else { return nil }
        return String(row[row.index(after: first)..<last])
    }

    /// The text inside a box `offset` rows below the row holding `text` (a prompt's field is two
    /// rows below its question).
    static func boxRow(_ screen: [String], below text: String, offset: Int) -> String? {
        guard let row = screen.firstIndex(where: { $0.contains(text) }), row + offset < screen.count else { return nil }
        return insideBox(screen[row + offset])?.trimmingCharacters(in: .whitespaces)
    }
}
