import Foundation

/// One property-list value: the types Apple's XML and binary formats can hold, plus the UID
/// that keyed archives use to point between objects.
public enum PropertyListValue: Hashable, Sendable {
    case string(String)
    case integer(Int64)
    case real(Double)
    case boolean(Bool)
    case date(Date)
    case data(Data)
    case array([PropertyListValue])
    case dictionary([String: PropertyListValue])
    case uid(UInt64)
}

extension PropertyListValue {
    /// The value's type as messages name it: "string", "integer", "UID".
    public var kindName: String {
        switch self {
        case .string: "string"
        case .integer: "integer"
        case .real: "real"
        case .boolean: "boolean"
        case .date: "date"
        case .data: "data"
        case .array: "array"
        case .dictionary: "dictionary"
        case .uid: "UID"
        }
    }

    /// The same with its article, for sentences: "a string", "an integer", "data".
    public var kindDescription: String {
        switch self {
        case .data: kindName
        case .integer, .array: "an " + kindName
        default: "a " + kindName
        }
    }
}
