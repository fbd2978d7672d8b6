/// What text from outside (a file, the synced store, a server, a typed path) must become before
/// it reaches a terminal or a log: every character that could steer the terminal or reorder
/// what a reader sees is replaced by a visible stand-in, and a message is cut to a length a
/// person can read. The terminal's cell buffer applies `standIn` to everything drawn; the log
/// writer and the messages printed on standard error apply `visible` and `bounded`.
public enum SafeText {
    /// Characters a message keeps of one quoted piece of input: enough for any real title, path
    /// or error, short enough that a 1 MB line cannot flood a screen or a log.
    public static let messageLimit = 200
    /// Characters kept of a whole line written to a log or to standard error: its own words
    /// plus an error that may itself quote input.
    public static let lineLimit = 400

    /// The visible stand-in for a grapheme that must not reach a terminal as it is, or nil when
    /// the grapheme is safe to show.
    ///
    /// C0 controls and DEL become their Unicode control pictures (␛ for ESC, ␇ for BEL, ␉ for
    /// tab), which say what the byte was; line breaks of every kind (CR LF, NEL, U+2028/2029)
    /// become ␤. C1 controls and the bidirectional overrides, embeddings, isolates and marks
    /// have no picture and become U+FFFD, the mark for "something here cannot be shown".
    /// Each stand-in is one column wide.
    public static func standIn(for character: Character) -> Character? {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return nil }
        // Controls never join a grapheme cluster, except CR LF, so looking at the first scalar
        // (and the cluster's length for CR LF) covers every cluster a Swift string can form.
        if scalars.count > 1 { return first.value == 0x0D ? "\u{2424}" : nil }
        return standIn(forScalar: first.value)
    }

    /// `text` with every unsafe grapheme replaced by its stand-in; for text written somewhere
    /// other than the cell buffer (a log line, a message on standard error).
    public static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { standIn(forScalar: $0.value) != nil }) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text { result.append(standIn(for: character) ?? character) }
        return result
    }

    /// The first `limit` characters of `text`, then "…" when there was more. Reads no further
    /// than it keeps, so bounding a huge string costs what the bound costs.
    public static func bounded<Text: StringProtocol>(_ text: Text, to limit: Int = messageLimit) -> String {
        let keep = max(0, limit)
        guard let cut = text.index(text.startIndex, offsetBy: keep, limitedBy: text.endIndex), cut < text.endIndex else {
            return String(text)
        }
        return String(text[..<cut]) + "…"
    }

    private static func standIn(forScalar value: UInt32) -> Character? {
        switch value {
        case 0x0A, 0x0D, 0x85, 0x2028, 0x2029: return "\u{2424}"
        case 0x00..<0x20: return Character(Unicode.Scalar(0x2400 + value)!)
        case 0x7F: return "\u{2421}"
        case 0x80..<0xA0: return "\u{FFFD}"
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return "\u{FFFD}"
        default: return nil
        }
    }
}
