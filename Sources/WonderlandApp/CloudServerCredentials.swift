import Foundation

/// Keeps a server password out of the settings: finds one written into a server address and
/// gives back the address without it. Works on the text itself, not on a parsed URL, so a
/// password is found and removed even in an address that is otherwise unusable (an unknown
/// option, a bad port), which is exactly when it would otherwise stay in the defaults file.
public enum CloudServerCredentials {
    /// What the user is told to do with a password instead.
    public static let advice = "Put the password in ~/.pgpass (chmod 600) or PGPASSWORD, and the address without it, as in postgres://alice@db.example.org/wonderland."

    /// The address without its password, and the password; nil when `text` holds none.
    /// `postgres://alice:secret@host/db` → (`postgres://alice@host/db`, `secret`).
    public static func splitPassword(from text: String) -> (address: String, password: String)? {
        guard let scheme = text.range(of: "://") else { return nil }
        let rest = text[scheme.upperBound...]
        // The user information ends at the last "@" before any query: a password may hold "/"
        // or "@" when the user did not percent-encode it, the host and database never do.
        let beforeQuery = rest[..<(rest.firstIndex(where: { $0 == "?" || $0 == "#" }) ?? rest.endIndex)]
        guard let at = beforeQuery.lastIndex(of: "@") else { return nil }
        let userInfo = rest[..<at]
        guard let colon = userInfo.firstIndex(of: ":") else { return nil }
        let encoded = String(userInfo[userInfo.index(after: colon)...])
        let password = encoded.removingPercentEncoding ?? encoded
        let address = String(text[..<scheme.upperBound]) + userInfo[..<colon] + rest[at...]
        return (address, password)
    }

    /// Whether `text` holds a password (an empty one counts: `user:@host` is still a password field).
    public static func holdsPassword(_ text: String) -> Bool { splitPassword(from: text) != nil }
}

extension CloudServerCredentials {
    /// `text` with every occurrence of the passwords replaced by dots: the last guard before
    /// anything is shown or printed.
    public static func redact(_ text: String, passwords: [String]) -> String {
        var text = text
        for password in passwords where !password.isEmpty {
            text = text.replacingOccurrences(of: password, with: "•••")
        }
        return text
    }
}
