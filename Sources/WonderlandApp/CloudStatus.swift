import Cloud

/// The one line the user sees about syncing, in the tab bar: nothing while sync is off,
/// "synced", "syncing, 2 changes waiting", or "offline, 2 changes waiting: <why>" (the count
/// first: a long reason is what the tab bar cuts). A server is named at the end ("synced ·
/// server postgres://alice@db:5432/wonderland"), where a narrow tab bar cuts it first: the
/// user typed that address and may have mistyped it, which a folder seldom hides.
public final class CloudStatusBoard {
    public internal(set) var text: String?
    public init() {}

    static func describe(_ status: KeyValueStoreStatus?, suspended: Bool = false, server: String? = nil) -> String? {
        guard var state = describeState(status) else { return nil }
        // After the state, before the server: the user learns something was refused, and
        // `wonderland cloud status` names it.
        if let skipped = status?.skippedChanges, skipped > 0 { state += ", \(skipped) skipped" }
        guard let server else { return state }
        return "\(state) · \(server)"
    }

    private static func describeState(_ status: KeyValueStoreStatus?) -> String? {
        guard let status else { return nil }
        let waiting = status.pendingChanges
        let changes = waiting == 1 ? "1 change waiting" : "\(waiting) changes waiting"
        switch status.isReachable {
        case nil:
            return waiting > 0 ? "sync: connecting, \(changes)" : "sync: connecting"
        case true?:
            return waiting > 0 ? "syncing, \(changes)" : "synced"
        case false?:
            let why = status.problem.map { ": \($0)" } ?? ""
            return waiting > 0 ? "offline, \(changes)\(why)" : "offline\(why)"
        }
    }
}
