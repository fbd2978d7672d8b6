public enum PropertyListFormat: Sendable, Equatable {
    case xml
    case binary
}

/// Limits shared by both readers and both writers.
public enum PropertyListLimits {
    /// Arrays and dictionaries nested deeper than this are refused, so hostile input cannot
    /// exhaust the stack of the recursive readers (nor of code that walks the result), and
    /// whatever the writers accept the readers can read back.
    public static let maxDepth = 512
}
