import FoundationEssentials

/// One property-list value: the types Apple's XML and binary formats can hold, plus the UID
/// that keyed archives use to point between objects.
///
/// Read one with `PropertyListReader`, write one with `PropertyListSerializer`, and switch over
/// it to use it. Values compare by content, so a dictionary's key order does not matter.
public enum PropertyListValue: Hashable, Sendable {
    /// A string (`<string>`): any Unicode text.
    case string(String)
    /// An integer (`<integer>`) in `Int64`'s range.
    case integer(Int64)
    /// An integer above `Int64.max`, up to `UInt64.max`, as Apple writes them (a 16-byte binary
    /// integer, a long XML `<integer>`). Only such values: anything that fits `Int64` is always
    /// `.integer`, so one number has one form and equal numbers compare equal. Build it through
    /// `integer(unsigned:)` when the value may be small.
    case unsignedInteger(UInt64)
    /// A floating-point number (`<real>`).
    case real(Double)
    /// `<true/>` or `<false/>`.
    case boolean(Bool)
    /// A date (`<date>`); XML keeps whole seconds, binary keeps the full `Double`.
    case date(Date)
    /// Bytes (`<data>`, base64 in XML).
    case data(Data)
    /// An ordered list of values (`<array>`).
    case array([PropertyListValue])
    /// String keys to values (`<dict>`).
    case dictionary([String: PropertyListValue])
    /// A keyed archive's reference to an entry of its `$objects` (`CF$UID` in XML); other
    /// property lists do not hold them.
    case uid(UInt64)
}

extension PropertyListValue {
    /// The value's type as messages name it: "string", "integer", "UID".
    public var kindName: String {
        switch self {
        case .string: "string"
        case .integer, .unsignedInteger: "integer"
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
        case .integer, .unsignedInteger, .array: "an " + kindName
        default: "a " + kindName
        }
    }
}

extension PropertyListValue {
    /// The canonical value for an unsigned number: `.integer` when it fits `Int64`, else `.unsignedInteger`.
    public static func integer(unsigned value: UInt64) -> PropertyListValue {
        value <= UInt64(Int64.max) ? .integer(Int64(value)) : .unsignedInteger(value)
    }

    /// An integer's decimal digits, whichever range it is in; nil for anything else.
    public var integerText: String? {
        switch self {
        case .integer(let number): String(number)
        case .unsignedInteger(let number): String(number)
        default: nil
        }
    }
}
