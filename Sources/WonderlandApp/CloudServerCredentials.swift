import Defaults
import FoundationEssentials

/// Keeps a server password out of the settings (finding one is `URLPassword`, in Defaults, so
/// the settings screens use the same rule): what the user is told, and redaction.
public enum CloudServerCredentials {
    /// What the user is told to do with a password instead.
    public static let advice = "Put the password in ~/.pgpass (chmod 600) or PGPASSWORD, and the address without it, as in postgres://alice@db.example.org/wonderland."
}

extension CloudServerCredentials {
    /// What a hidden password is shown as.
    public static let mask = "•••"

    /// `text` fit to show: the last guard before anything is shown or printed. The password
    /// field of every address in it (`postgres://alice:PASSWORD@host`) is replaced by dots, and
    /// nothing else is. A password from elsewhere (a password file, PGPASSWORD) that could be
    /// quoted in free text (a server's error message) is replaced wherever it occurs only when
    /// it is distinctive: a short or common one ("sam", "0.0") would take the same letters out
    /// of a host, a user's name or a path, hiding what the user needs to read and showing
    /// where the password is.
    public static func redact(_ text: String, passwords: [String]) -> String {
        var text = URLPassword.maskingPasswordFields(in: text, with: mask)
        for password in passwords where isDistinctive(password) {
            // Scalar by scalar, so an occurrence goes even where the text joins its last letter to
            // a combining mark; then by Characters, so one spelled with other but equivalent
            // scalars ("é" as "e" and an accent) goes too.
            text = String(text.unicodeScalars.replacing(password.unicodeScalars, with: mask.unicodeScalars))
            text = text.replacing(password, with: mask)
        }
        return text
    }

    /// Whether `password` is unlikely to occur in text by chance: at least 8 characters, with
    /// a letter and a digit among them. Only such a password is replaced as text.
    public static func isDistinctive(_ password: String) -> Bool {
        password.count >= 8 && password.contains(where: \.isLetter) && password.contains(where: \.isNumber)
    }
}
