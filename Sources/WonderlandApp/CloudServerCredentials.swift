import FoundationEssentials

/// Keeps a server password out of the settings (finding one is `URLPassword`, in Defaults, so
/// the settings screens use the same rule): what the user is told, and redaction.
public enum CloudServerCredentials {
    /// What the user is told to do with a password instead.
    public static let advice = "Put the password in ~/.pgpass (chmod 600) or PGPASSWORD, and the address without it, as in postgres://alice@db.example.org/wonderland."
}

extension CloudServerCredentials {
    /// `text` with every occurrence of the passwords replaced by dots: the last guard before
    /// anything is shown or printed.
    public static func redact(_ text: String, passwords: [String]) -> String {
        var text = text
        for password in passwords where !password.isEmpty {
            // Scalar by scalar, so an occurrence goes even where the text joins its last letter to
            // a combining mark; then by Characters, so one spelled with other but equivalent
            // scalars ("é" as "e" and an accent) goes too.
            text = String(text.unicodeScalars.replacing(password.unicodeScalars, with: "•••".unicodeScalars))
            text = text.replacing(password, with: "•••")
        }
        return text
    }
}
