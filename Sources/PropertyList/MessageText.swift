/// Pieces of error messages: counts with thousands separators, and excerpts of input short
/// enough that a hostile key or string cannot turn one message into megabytes.
public enum MessageText {
    /// How much of a quoted piece of input a message shows.
    public static let excerptLength = 200

    /// `text` cut to `limit` characters, with "…" when something was cut.
    public static func excerpt(_ text: some StringProtocol, limit: Int = excerptLength) -> String {
        var end = text.startIndex
        var count = 0
        while end < text.endIndex, count < limit {
            text.formIndex(after: &end)
            count += 1
        }
        return end == text.endIndex ? String(text) : String(text[..<end]) + "…"
    }

    /// 1000000 as "1,000,000".
    public static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (i, digit) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return value < 0 ? "-" + out : out
    }
}
