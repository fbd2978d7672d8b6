import Foundation

/// Steps the synced-store journeys share, folder or server alike.
extension TmuxSession {
    /// On the Map tab: `r`, the title in place of the suggested one, Enter; waits for the pin.
    func rememberPlace(_ title: String) throws {
        try type("r")
        _ = try waitForText("Remember this place")
        try press("C-u")
        try type(title)
        try press("Enter")
        _ = try waitForText("⚑ \(title)")
    }

    /// On the Map tab: `c` and the confirm's `y`.
    func clearPin() throws {
        try type("c")
        _ = try waitForText("Clear the pin")
        try type("y")
    }
}

/// A book of numbered paragraphs beside the sync folder, removed with this object.
final class SyncedBook {
    let path: String
    init(beside folder: URL) throws {
        path = folder.deletingLastPathComponent().appendingPathComponent("wl-e2e-book-\(getpid())-\(UUID().uuidString.prefix(8)).txt").path
        // A chapter heading, so no "no chapter headings" notice can pop up over the page turns
        // once the background scan ends.
        try ("CHAPTER I. Down the Rabbit-Hole\n\n" + (1...600).map { "Paragraph \($0): Alice was beginning to get very tired of sitting by her sister.\n" }.joined(separator: "\n"))
            .write(toFile: path, atomically: true, encoding: .utf8)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}

extension TmuxSession {
    /// Launches on `book` with the reading position synced, shows the Book tab, and waits until
    /// the store has synced.
    func openSynced(_ book: SyncedBook) throws {
        try launchApp("--book \(book.path) -WLSyncReadingPosition YES")
        try type("3")
        let shown = try waitFor("the book") { $0.joined().contains("Paragraph 1:") || $0.joined().contains("About this book") }
        if shown.joined().contains("About this book") { try press("Enter") }
        _ = try waitForText("synced")
    }

    /// Six pages on in the Book tab from page `start`; returns the "Paragraph N:" at the top of
    /// the page reached.
    func readSixPages(from start: Int = 1) throws -> String {
        for _ in 0..<6 { try press("Space") }
        let top = try waitFor("six pages on") { $0.joined().contains("page \(start + 6) of") }.first { $0.contains("Paragraph ") } ?? ""
        guard let paragraph = top.range(of: #"Paragraph \d+:"#, options: .regularExpression).map({ String(top[$0]) }) else {
            throw E2EError("no paragraph at the top of the page: \(top)")
        }
        return paragraph
    }
}
