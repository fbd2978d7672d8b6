/// The two encodings of a property list.
public enum PropertyListFormat: Sendable, Equatable {
    /// `<plist version="1.0">`: readable, and what hand-written files use.
    case xml
    /// `bplist00`: compact, and what NSKeyedArchiver writes.
    case binary
}
