// Inlinable, so a caller's String gets a specialised copy: the generic one looks up the
// string's scalar view and indices through witness tables at run time.
extension StringProtocol {
    /// Without leading and trailing white space, line breaks included: Unicode's White_Space
    /// and U+200B, judged scalar by scalar as Foundation's `.whitespacesAndNewlines` judged
    /// them (a combining mark after a space keeps the mark).
    @inlinable public func trimmingWhitespace() -> String {
        trimmingScalars { $0.properties.isWhitespace || $0 == "\u{200B}" }
    }

    /// Without leading and trailing tabs and space separators (and U+200B), as Foundation's
    /// `.whitespaces`; line breaks stay.
    @inlinable public func trimmingSpaces() -> String {
        trimmingScalars { $0 == "\t" || $0 == "\u{200B}" || $0.properties.generalCategory == .spaceSeparator }
    }

    /// Without the leading and trailing scalars that match `drop`.
    @inlinable public func trimmingScalars(where drop: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !drop($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !drop($0) })!
        return String(self[first ..< scalars.index(after: last)])
    }

    /// Without the leading and trailing characters that match `drop`.
    @inlinable public func trimming(where drop: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !drop($0) }) else { return "" }
        let last = lastIndex(where: { !drop($0) })!
        return String(self[first...last])
    }
}
