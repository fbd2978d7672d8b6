import FoundationEssentials
import Platform

/// A password written into a URL's user information (`scheme://user:password@host/…`). Works on
/// the text itself, not on a parsed URL, so a password is found even in an address that is
/// otherwise unusable (an unknown option, a bad port) — exactly when it would otherwise end up
/// in the defaults file or a saved draft. One rule for the settings screens and the sync server.
public enum URLPassword {
    /// The address without its password, and the password; nil when `text` holds none.
    /// `postgres://alice:secret@host/db` → (`postgres://alice@host/db`, `secret`).
    public static func split(from text: String) -> (address: String, password: String)? {
        guard let scheme = text.firstRange(of: "://") else { return nil }
        let rest = text[scheme.upperBound...]
        // The user information ends at the last "@" before any query: a password may hold "/"
        // or "@" when the user did not percent-encode it, the host and database never do.
        let beforeQuery = rest[..<(rest.firstIndex(where: { $0 == "?" || $0 == "#" }) ?? rest.endIndex)]
        guard let at = beforeQuery.lastIndex(of: "@") else { return nil }
        let userInfo = rest[..<at]
        guard let colon = userInfo.firstIndex(of: ":") else { return nil }
        let encoded = String(userInfo[userInfo.index(after: colon)...])
        let password = encoded.percentDecoded ?? encoded
        let address = String(text[..<scheme.upperBound]) + userInfo[..<colon] + rest[at...]
        return (address, password)
    }

    /// Whether `text` holds a password (an empty one counts: `user:@host` is still a password field).
    public static func isPresent(in text: String) -> Bool { split(from: text) != nil }
}
