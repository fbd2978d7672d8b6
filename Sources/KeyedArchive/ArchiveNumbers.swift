import PropertyList

/// How stored numbers convert to the Swift type asked for, shared by keyed scalars (inline in
/// an object) and NSNumber entries (in arrays and dictionaries).
enum ArchiveNumbers {
    static func int64<T: FixedWidthInteger>(_ value: T) throws -> Int64 {
        guard let stored = Int64(exactly: value) else {
            throw ArchiveError(.valueOutOfRange("\(value) does not fit in a 64-bit signed archive integer"))
        }
        return stored
    }

    static func integer<T: FixedWidthInteger>(_ value: PropertyListValue, as type: T.Type) throws -> T {
        guard case .integer(let stored) = value else {
            throw ArchiveError(.typeMismatch(expected: "\(T.self)", found: value.kindName))
        }
        guard let result = T(exactly: stored) else {
            throw ArchiveError(.valueOutOfRange("\(stored) does not fit in \(T.self)"))
        }
        return result
    }

    /// Integers are accepted where a Double is asked for, as NSCoder's decodeDouble does.
    static func double(_ value: PropertyListValue) throws -> Double {
        switch value {
        case .real(let number): return number
        case .integer(let number): return Double(number)
        default: throw ArchiveError(.typeMismatch(expected: "Double", found: value.kindName))
        }
    }

    static func bool(_ value: PropertyListValue) throws -> Bool {
        guard case .boolean(let flag) = value else {
            throw ArchiveError(.typeMismatch(expected: "Bool", found: value.kindName))
        }
        return flag
    }
}
