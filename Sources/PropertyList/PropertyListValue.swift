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
