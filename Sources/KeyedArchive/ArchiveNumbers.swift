import PropertyList

/// How stored numbers convert to the Swift type asked for, shared by keyed scalars (inline in
/// an object) and NSNumber entries (in arrays and dictionaries).
enum ArchiveNumbers {
    /// The stored form of an integer: NSNumber holds Int64.min...UInt64.max, as the property
    /// list does (16-byte integers above Int64.max); only wider types can fall outside.
    static func stored<T: FixedWidthInteger>(_ value: T) throws -> PropertyListValue {
        if let signed = Int64(exactly: value) { return .integer(signed) }
        if let unsigned = UInt64(exactly: value) { return .unsignedInteger(unsigned) }
        throw ArchiveError(.valueOutOfRange("\(value) lies outside an archive integer's \(Int64.min)...\(UInt64.max)"))
    }

    static func integer<T: FixedWidthInteger>(_ value: PropertyListValue, as type: T.Type) throws -> T {
        let result: T?
        switch value {
        case .integer(let stored): result = T(exactly: stored)
        case .unsignedInteger(let stored): result = T(exactly: stored)
        default: throw ArchiveError(.typeMismatch(expected: "\(T.self)", found: value.kindName))
        }
        guard let result else {
            throw ArchiveError(.valueOutOfRange("\(value.integerText ?? "") does not fit in \(T.self)"))
        }
        return result
    }

    /// Integers are accepted where a Double is asked for, as NSCoder's decodeDouble does.
    static func double(_ value: PropertyListValue) throws -> Double {
        switch value {
        case .real(let number): return number
        case .integer(let number): return Double(number)
        case .unsignedInteger(let number): return Double(number)
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
