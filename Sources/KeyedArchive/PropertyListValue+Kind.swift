import PropertyList

extension PropertyListValue {
    /// The value's type as error messages name it.
    var kindName: String {
        switch self {
        case .string: return "string"
        case .integer: return "integer"
        case .real: return "real"
        case .boolean: return "boolean"
        case .date: return "date"
        case .data: return "data"
        case .array: return "array"
        case .dictionary: return "dictionary"
        case .uid: return "UID"
        }
    }
}
