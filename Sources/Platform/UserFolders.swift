#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The user's folders as the XDG Base Directory spec places them, read from an environment
/// given by the caller (so a test passes its own). A base-directory variable counts only when
/// it is an absolute path: unset, empty and relative ones are ignored, as the spec says, and
/// the default under the home folder is used. A relative path would move the files with the
/// current folder.
///
/// The home folder is HOME when that is an absolute path; otherwise the password file's entry
/// for this user, so a process started without HOME (cron, `env -i`) still finds its files.
public struct UserFolders: Sendable {
    /// The base directories the app keeps files in.
    public enum Base: Sendable, CaseIterable {
        case config, data, state, cache

        /// The variable that names it.
        public var variable: String {
            switch self {
            case .config: "XDG_CONFIG_HOME"
            case .data: "XDG_DATA_HOME"
            case .state: "XDG_STATE_HOME"
            case .cache: "XDG_CACHE_HOME"
            }
        }

        /// Where it is under the home folder when the variable does not count.
        public var underHome: String {
            switch self {
            case .config: ".config"
            case .data: ".local/share"
            case .state: ".local/state"
            case .cache: ".cache"
            }
        }
    }

    public let environment: [String: String]
    private let accountHome: @Sendable () -> String?

    /// `accountHome` is asked only when HOME does not count; tests pass their own.
    public init(environment: [String: String], accountHome: @escaping @Sendable () -> String? = { UserFolders.passwordFileHome() }) {
        self.environment = environment
        self.accountHome = accountHome
    }

    /// HOME when it is an absolute path, without trailing slashes; nil when it is unset, empty
    /// or relative.
    public var environmentHome: String? { Self.absolute(environment["HOME"]) }

    /// HOME, else this user's home in the password file, else "/var/empty" (where Foundation
    /// also ends): a folder nothing can be written to, so nothing lands in the root.
    public var home: String {
        environmentHome ?? Self.absolute(accountHome()) ?? "/var/empty"
    }

    /// The base directory: its variable when that is absolute, else its default under `home`.
    public func folder(_ base: Base) -> String {
        Self.absolute(environment[base.variable]) ?? FilePaths.join(home, base.underHome)
    }

    /// As `folder(_:)`, but nil when the environment names neither the variable nor HOME: a
    /// process with no home of its own (a test) then keeps nothing there.
    public func folderNamedByEnvironment(_ base: Base) -> String? {
        if let named = Self.absolute(environment[base.variable]) { return named }
        return environmentHome.map { FilePaths.join($0, base.underHome) }
    }

    public var configHome: String { folder(.config) }
    public var dataHome: String { folder(.data) }
    public var stateHome: String { folder(.state) }

    /// `path` without its trailing slashes ("/" stays "/"), when it is absolute.
    static func absolute(_ path: String?) -> String? {
        guard var path, path.hasPrefix("/") else { return nil }
        while path.utf8.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }
}
