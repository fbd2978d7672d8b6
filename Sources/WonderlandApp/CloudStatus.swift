import Cloud

/// The one line the user sees about syncing, in the tab bar: nothing while sync is off,
/// "synced", "syncing, 2 changes waiting", "synced, 1 skipped" (changes from elsewhere not
/// applied), or "offline, 2 changes waiting: <why>" (the counts first: a long reason is what
/// the tab bar cuts). A server is named at the end ("synced ·
/// server postgres://alice@db:5432/wonderland"), where a narrow tab bar cuts it first: the
/// user typed that address and may have mistyped it, which a folder seldom hides.
public final class CloudStatusBoard {
    public internal(set) var text: String?
    public init() {}

    /// The status when it says something is wrong (offline, and why): worth keeping among the
    /// messages, unlike the "syncing" and "synced" every change passes through.
    public var problem: String? {
        guard let text, text.hasPrefix("offline") else { return nil }
        return text
    }

    static func describe(_ status: KeyValueStoreStatus?, suspended: Bool = false, server: String? = nil) -> String? {
        guard let state = describeState(status) else { return nil }
        guard let server else { return state }
        return "\(state) · \(server)"
    }

    private static func describeState(_ status: KeyValueStoreStatus?) -> String? {
        guard let status else { return nil }
        let waiting = status.pendingChanges
        var counts: [String] = []
        if waiting > 0 { counts.append(waiting == 1 ? "1 change waiting" : "\(waiting) changes waiting") }
        // Changes from elsewhere that were not applied: counted here, named by
        // `wonderland cloud status`. Before any reason, which is what a narrow tab bar cuts.
        if status.skippedChanges > 0 { counts.append("\(status.skippedChanges) skipped") }
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
