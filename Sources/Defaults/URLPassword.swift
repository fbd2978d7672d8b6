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
        guard let field = passwordRange(in: text[...]) else { return nil }
        let encoded = String(text[field])
        let password = encoded.percentDecoded ?? encoded
        // Without the field and the ":" before it.
        let address = String(text[..<text.index(before: field.lowerBound)]) + text[field.upperBound...]
        return (address, password)
    }

    /// Where the password field of the address in `text` is: the text between the user
    /// information's first ":" and its "@", as written (percent-encoded or not). Nil when the
    /// address has no password field; an empty range for `user:@host`.
    public static func passwordRange(in text: Substring) -> Range<String.Index>? {
        guard let scheme = text.firstRange(of: "://") else { return nil }
        let rest = text[scheme.upperBound...]
        // The user information ends at the last "@" before any query: a password may hold "/"
        // or "@" when the user did not percent-encode it, the host and database never do.
        let beforeQuery = rest[..<(rest.firstIndex(where: { $0 == "?" || $0 == "#" }) ?? rest.endIndex)]
        guard let at = beforeQuery.lastIndex(of: "@") else { return nil }
        let userInfo = rest[..<at]
        guard let colon = userInfo.firstIndex(of: ":") else { return nil }
        return userInfo.index(after: colon)..<at
    }

    /// `text` with the password field of every address in it (`scheme://user:PASSWORD@host`)
    /// replaced by `mask`, and nothing else changed. In free text an address ends at the first
    /// space or line break, so "@" further on (a user named in the sentence) is not taken for
    /// the end of its user information.
    public static func maskingPasswordFields(in text: String, with mask: String) -> String {
        var result = ""
        var rest = text[...]
        while let scheme = rest.firstRange(of: "://") {
            let end = rest[scheme.upperBound...].firstIndex(where: \.isWhitespace) ?? rest.endIndex
            let address = rest[..<end]
            if let field = passwordRange(in: address), !field.isEmpty {
                result += rest[..<field.lowerBound] + mask + rest[field.upperBound..<end]
            } else {
                result += address
            }
            rest = rest[end...]
        }
        return result + rest
    }

    /// Whether `text` holds a password (an empty one counts: `user:@host` is still a password field).
    public static func isPresent(in text: String) -> Bool { split(from: text) != nil }
}
