extension StringProtocol {
    /// Without leading and trailing tabs and space separators, judged scalar by scalar as
    /// Foundation's `trimmingCharacters(in: .whitespaces)` judged them (its set also holds
    /// U+200B ZERO WIDTH SPACE): a combining mark after a space keeps the mark.
    public func trimmingSpaceScalars() -> String {
        trimmingScalars { $0 == "\t" || $0 == "\u{200B}" || $0.properties.generalCategory == .spaceSeparator }
    }

    /// The same for `.whitespacesAndNewlines`: Unicode's White_Space and U+200B.
    public func trimmingWhitespaceScalars() -> String {
        trimmingScalars { $0.properties.isWhitespace || $0 == "\u{200B}" }
    }

    /// Without the leading and trailing scalars that match `drop`.
    public func trimmingScalars(where drop: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !drop($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !drop($0) })!
        return String(self[first ..< scalars.index(after: last)])
    }
}
