import BookFront
import Cloud

/// The one line the user sees about syncing, in the tab bar: nothing while sync is off,
/// "synced", "syncing, 2 changes waiting", "synced, 1 skipped" (changes from elsewhere not
/// applied), or "offline, 2 changes waiting: <why>" (the counts first: a long reason is what
/// the tab bar cuts). A server is named at the end ("synced ·
/// server postgres://alice@db:5432/wonderland"), where a narrow tab bar cuts it first: the
/// user typed that address and may have mistyped it, which a folder seldom hides. When the
/// store keeps only the most recent reading places, it says how many of how many ("synced,
/// 200 of 1,996 places"); keys the store refused are counted ("1 refused").
public final class CloudStatusBoard {
    public internal(set) var text: String?
    /// Sync news not worth stopping the user for (a value the store refused stays on this
    /// machine): kept among the app's messages (`M`), oldest first, each once.
    public private(set) var notes: [String] = []
    static let notesKept = 20
    public init() {}

    /// Keeps `note` for the message log, unless it is there already.
    func addNote(_ note: String) {
        guard !notes.contains(note) else { return }
        notes.append(note)
        if notes.count > Self.notesKept { notes.removeFirst(notes.count - Self.notesKept) }
    }

    /// The status when it says something is wrong (offline, and why): worth keeping among the
    /// messages, unlike the "syncing" and "synced" every change passes through.
    public var problem: String? {
        guard let text, text.hasPrefix("offline") else { return nil }
        return text
    }

    static func describe(_ status: KeyValueStoreStatus?, suspended: Bool = false, server: String? = nil,
                         shares: [EntryShareSummary] = []) -> String? {
        guard let state = describeState(status, shares: shares) else { return nil }
        guard let server else { return state }
        return "\(state) · \(server)"
    }

    private static func describeState(_ status: KeyValueStoreStatus?, shares: [EntryShareSummary]) -> String? {
        guard let status else { return nil }
        let waiting = status.pendingChanges
        var counts: [String] = []
        if waiting > 0 { counts.append(waiting == 1 ? "1 change waiting" : "\(waiting) changes waiting") }
        // Changes from elsewhere that were not applied: counted here, named by
        // `wonderland cloud status`. Before any reason, which is what a narrow tab bar cuts.
        if status.skippedChanges > 0 { counts.append("\(status.skippedChanges) skipped") }
        if status.refusedKeys > 0 { counts.append("\(status.refusedKeys) refused") }
        for share in shares where share.leftOut > 0 {
            counts.append("\(grouped(share.synced)) of \(grouped(share.known)) \(names(share.localKey).short)")
        }
        let tail = counts.isEmpty ? "" : ", " + counts.joined(separator: ", ")
        switch status.isReachable {
        case nil:
            return "sync: connecting" + tail
        case true?:
            return counts.isEmpty ? "synced" : (waiting > 0 ? "syncing" : "synced") + tail
        case false?:
            return "offline" + tail + (status.problem.map { ": \($0)" } ?? "")
        }
    }
}

extension CloudStatusBoard {
    /// One line per rule with a share, for `wonderland cloud status`: how many entries this
    /// machine knows, how many the store holds, and why the rest stay here.
    public static func shareLines(_ shares: [EntryShareSummary]) -> [String] {
        shares.map { share in
            let name = names(share.localKey)
            let known = "\(grouped(share.known)) \(share.known == 1 ? name.one : name.many)"
            guard share.leftOut > 0 else { return "\(name.title): \(known), all synced" }
            guard share.synced > 0 else { return "\(name.title): \(known), none synced yet (the app sends the \(grouped(share.share.maximumEntries)) most recent)" }
            return "\(name.title): \(known), the \(grouped(share.synced)) most recent synced; \(grouped(share.leftOut)) older "
                + "stay on this machine until read again (the store keeps at most \(grouped(share.share.maximumEntries)), "
                + "so the pin always has room)"
        }
    }

    /// What a rule's entries are called.
    static func names(_ localKey: String) -> (title: String, one: String, many: String, short: String) {
        localKey == ReadingPositions.storeKey ? ("Reading places", "book", "books", "places") : (localKey, "entry", "entries", "entries")
    }

    /// 1996 → "1,996".
    static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return (number < 0 ? "-" : "") + out
    }
}
