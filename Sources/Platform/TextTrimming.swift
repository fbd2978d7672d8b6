extension StringProtocol {
    /// Without leading and trailing white space, line breaks included (Unicode's White_Space).
    public func trimmingWhitespace() -> String {
        trimming { $0.isWhitespace }
    }

    /// Without leading and trailing spaces and tabs; line breaks stay.
    public func trimmingSpaces() -> String {
        trimming { $0.isWhitespace && !$0.isNewline }
    }

    /// Without the leading and trailing characters that match `drop`.
    public func trimming(where drop: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !drop($0) }) else { return "" }
        let last = lastIndex(where: { !drop($0) })!
        return String(self[first...last])
    }
}
