public enum PropertyListFormat: Sendable, Equatable {
    case xml
    case binary
}
