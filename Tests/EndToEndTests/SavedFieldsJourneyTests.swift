import Foundation
import Testing

/// What the user is told is saved at once survives a kill -9 the moment the screen shows it;
/// and a device that followed another's reading, killed and relaunched, keeps the newer place
/// and does not send the other device back.
@Suite("Saved at once, and newest wins, in tmux", .whenEndToEndIsAskedFor)
struct SavedFieldsJourneyTests {
    static let paris = "--location 48.8566,2.3522"

    func killApp(_ tmux: TmuxSession) throws {
        kill(try tmux.appPID(), SIGKILL)
        try tmux.waitForText("exit=137")
    }

    func archiveDate(_ tmux: TmuxSession) -> Date? {
        try? FileManager.default.attributesOfItem(atPath: tmux.archive.path)[.modificationDate] as? Date
    }

    func waitUntil(_ what: String, timeout: TimeInterval = 10, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            guard Date() < deadline else { throw E2EError("timed out waiting until \(what)") }
            usleep(50_000)
        }
    }

    /// What is saved under `key`: a setting from the defaults, a collection (notes, stars)
    /// from the collections database.
    func saved(_ tmux: TmuxSession, _ key: String) throws -> String {
        let result = key.hasPrefix("WL") ? try tmux.wonderland("collections", "export", key) : try tmux.wonderland("defaults", "read", key)
        return result.status == 0 ? result.output : ""
    }

    @Test("pin, map type, tracking mode and a note: kill -9 as soon as the screen shows each, three rounds; every one is on disk")
    func killedAsSoonAsShown() throws {
        let tmux = try TmuxSession(columns: 100, rows: 30)
        var lost: [String] = []
        // As the status line names them, by raw value; each round steps from what the launch shows,
        // so a step lost in one round is counted there and not again in the next.
        let mapTypes = ["Standard ·", "Satellite ·", "Hybrid ·"]
        let trackings = ["· Tracking off", "· Follow ", "· Follow with heading"]
        func shown(_ names: [String], in frame: [String]) -> Int? {
            names.indices.reversed().first { frame.joined(separator: "\n").contains(names[$0]) }
        }
        for round in 0..<3 {
            try tmux.launchForFirstFrame("--fresh \(Self.paris)", forbidding: nil)
            try tmux.rememberPlace("Kept \(round)")
            try killApp(tmux)
            if !(try saved(tmux, "HPLocation")).contains("Kept \(round)") { lost.append("pin \(round)") }

            let mapFrame = try tmux.launchForFirstFrame("--fresh \(Self.paris)", forbidding: nil)
            let mapType = ((shown(mapTypes, in: mapFrame) ?? 0) + 1) % 3
            try tmux.type("m")
            _ = try tmux.waitForText(mapTypes[mapType])
            try killApp(tmux)
            if (try saved(tmux, "HPMapType")).trimmingCharacters(in: .whitespacesAndNewlines) != "\(mapType)" { lost.append("map type \(round)") }

            let trackingFrame = try tmux.launchForFirstFrame("--fresh \(Self.paris)", forbidding: nil)
            let tracking = ((shown(trackings, in: trackingFrame) ?? 1) + 1) % 3
            try tmux.type("t")
            _ = try tmux.waitForText(trackings[tracking])
            try killApp(tmux)
            if (try saved(tmux, "HPFollowHeading")).trimmingCharacters(in: .whitespacesAndNewlines) != "\(tracking)" { lost.append("tracking \(round)") }

            try tmux.launchForFirstFrame("--fresh", forbidding: nil)
            let note = "Fades away, round \(round)"
            try tmux.typeCheshireCatNote(note)
            try tmux.press("Escape")
            _ = try tmux.waitForText("Notes (e to edit)")
            try killApp(tmux)
            if !(try saved(tmux, "WLCharacterNotes")).contains(note) { lost.append("note \(round)") }
        }
        tmux.check(lost.isEmpty, "lost after kill -9: \(lost)")
    }

    @Test("a character starred: kill -9 as soon as the row says favourite; the defaults hold it")
    func favouriteKilledAsSoonAsShown() throws {
        let tmux = try TmuxSession(columns: 100, rows: 30)
        try tmux.launchForFirstFrame("--fresh", forbidding: nil)
        try tmux.type("2")
        _ = try tmux.waitForText("▸ Alice")
        try tmux.type("f")
        _ = try tmux.waitForText("▸ Alice  ch. 1 · favourite")
        try killApp(tmux)
        tmux.check((try saved(tmux, "WLFavouriteCharacters")).contains("alice"), "the star is on disk after kill -9")
    }

    @Test("two instances on one HOME each save a note on a different character and quit: both notes are kept")
    func twoInstancesKeepBothNotes() throws {
        let first = try TmuxSession(columns: 100, rows: 30, session: "first")
        let second = try TmuxSession(columns: 100, rows: 30, home: first.homeFolder, session: "second")
        for tmux in [first, second] { try tmux.launchApp() }
        try first.typeCheshireCatNote("Grins, then fades")
        try second.type("2")
        try second.waitForText("▸ Alice")
        try second.type("/mock")
        try second.waitForText("▸ Mock Turtle")
        try second.press("Enter")
        try second.type("e")
        try second.waitForText("Notes (editing")
        try second.type("Sobs about school")
        try second.waitForText("Sobs about school")
        // Both save within a moment of each other, each from the notes it read at launch.
        for tmux in [first, second] { try tmux.press("Escape") }
        for tmux in [first, second] { _ = try tmux.waitForText("Notes (e to edit)") }
        for tmux in [first, second] {
            try tmux.type("q")
            _ = try tmux.waitForText("exit=0")
        }
        let notes = try saved(first, "WLCharacterNotes")
        first.check(notes.contains("Grins, then fades") && notes.contains("Sobs about school"), "both notes kept: \(notes)")
    }

    @Test("a bookmark added, then deleted: kill -9 as soon as the screen says so, two rounds; the collections hold each change")
    func bookmarksKilledAsSoonAsShown() throws {
        let tmux = try TmuxSession(columns: 100, rows: 30)
        let book = try SyncedBook(beside: tmux.home.appendingPathComponent("books"))
        let defaults = tmux.home.appendingPathComponent(".config/wonderland/defaults.plist").path
        func bookmarks() throws -> String {
            let collections = tmux.home.appendingPathComponent(".local/share/wonderland/collections/collections.sqlite").path
            let dump = try Subprocess.run(["/usr/bin/env", "SAVED_FIELDS_COLLECTIONS=\(collections)", try SavedFieldsProcessTests.tool(), "dump", defaults])
            return dump.output.split(separator: "\n").first { $0.hasPrefix("bookmarks ") }.map(String.init) ?? "none"
        }
        var lost: [String] = []
        for round in 0..<2 {
            try tmux.launchForFirstFrame("--fresh --book \(book.path)", forbidding: nil)
            try tmux.type("3")
            let shown = try tmux.waitFor("the book") { $0.joined().contains("Paragraph ") || $0.joined().contains("About this book") }
            if shown.joined().contains("About this book") { try tmux.press("Enter") }
            // The first page, then the last: two different pages to mark.
            try tmux.type(round == 0 ? "g" : "G")
            _ = try tmux.waitForText(round == 0 ? "Paragraph 1:" : "Paragraph 600:")
            try tmux.type("a")
            _ = try tmux.waitForText("Bookmark added.")
            try killApp(tmux)
            let added = try bookmarks()
            if added.split(separator: ",").count != round + 1 { lost.append("add \(round): \(added)") }
        }
        try tmux.launchForFirstFrame("--fresh --book \(book.path)", forbidding: nil)
        try tmux.type("3")
        try tmux.type("B")
        _ = try tmux.waitForText("Bookmarks")
        try tmux.type("d")
        _ = try tmux.waitForText("Delete bookmark")
        try tmux.type("y")
        // The list comes back without the question once the deletion is done (and saved).
        _ = try tmux.waitFor("the list again") { !$0.joined().contains("Delete bookmark") && $0.joined().contains("─ Bookmarks") }
        try killApp(tmux)
        let left = try bookmarks()
        if left.split(separator: ",").count != 1 { lost.append("delete: \(left)") }
        tmux.check(lost.isEmpty, "lost after kill -9: \(lost)")
    }

    @Test("A follows B's reading, A is killed at once and relaunched: both end on B's page, and B is not sent back")
    func followedPlaceSurvivesAKill() throws {
        let folder = try SyncFolder()
        let book = try SyncedBook(beside: folder.url)
        let environment = ["WONDERLAND_SYNC_FOLDER": folder.url.path]
        let b = try TmuxSession(columns: 100, rows: 24, environment: environment, session: "B")
        let a = try TmuxSession(columns: 100, rows: 24, environment: environment, session: "A")
        for device in [b, a] { try device.openSynced(book) }
        // A reads a little first, and its archive is saved with that older place.
        let archivedBefore = archiveDate(a)
        try a.press("Space")
        _ = try a.waitForText("page 2 of")
        try waitUntil("A's archive is saved after the page turn") { archiveDate(a) != archivedBefore }
        _ = try b.waitForText("Moved to where you were reading elsewhere.")

        let paragraph = try b.readSixPages(from: 2)
        _ = try a.waitForText(paragraph)
        try killApp(a)

        try a.launchForFirstFrame("--book \(book.path) -WLSyncReadingPosition YES", forbidding: nil)
        _ = try a.waitForText("synced")
        try a.type("3")  // the kill may have come before the archive learnt of the Book tab
        let relaunched = try a.waitForText(paragraph)
        a.check(relaunched.joined().contains("page 8 of"), "A is back on B's page")
        // Give A's relaunch time to have sent anything it would send, then look at B.
        _ = try? b.waitFor("B sent back", timeout: 3) { $0.joined().contains("Moved to where you were reading elsewhere.") }
        let shownOnB = try b.screen()
        b.check(shownOnB.joined().contains(paragraph) && shownOnB.joined().contains("page 8 of"), "B stays on its page")
        for device in [a, b] {
            try device.type("q")
            _ = try device.waitForText("exit=0")
        }
    }
}
