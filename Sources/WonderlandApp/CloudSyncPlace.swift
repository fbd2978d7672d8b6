import CloudServer
import FoundationEssentials

/// Where the synced store syncs, and what chose it: a folder, a PostgreSQL server, or a server
/// address that cannot be used (the store then works on this machine's copy and says why).
public struct CloudSyncPlace: Equatable {
    public enum Kind: Equatable {
        case folder(URL)
        /// The address may carry a password (from WONDERLAND_SYNC_URL, or one the app removed
        /// from the settings this run); it is used, never printed. The lookup says which
        /// password the backend gets and where it came from.
        case server(PostgresSyncAddress, PostgresPassword.Lookup)
        /// Why the address cannot be used; never the address's password.
        case unusableServer(String)
    }

    public var kind: Kind
    /// What chose it, for `cloud status`: "WONDERLAND_SYNC_URL", "the Sync Server setting",
    /// "WONDERLAND_SYNC_FOLDER", "the Sync Folder setting" or "the default".
    public var source: String

    public init(kind: Kind, source: String) {
        self.kind = kind
        self.source = source
    }

    public var isServer: Bool {
        if case .folder = kind { return false }
        return true
    }

    /// The password in use, to keep out of anything printed.
    public var password: String? {
        guard case .server(let address, let lookup) = kind else { return nil }
        return lookup.password ?? address.inlinePassword
    }

    /// Text fit to show: the password field of any address in `text` replaced by dots, and the
    /// password itself, should a library's error message quote it, when it is distinctive
    /// (`CloudServerCredentials.redact`): nothing else is touched, so a short password that is
    /// also part of the host, the user's name or a path leaves them readable.
    public func redacting(_ text: String) -> String {
        CloudServerCredentials.redact(text, passwords: [password, inlinePassword].compactMap { $0 })
    }

    private var inlinePassword: String? {
        guard case .server(let address, _) = kind else { return nil }
        return address.inlinePassword
    }
}
