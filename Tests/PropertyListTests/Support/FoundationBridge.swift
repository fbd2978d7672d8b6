import Foundation
@testable import PropertyList

/// Converts between our values and the object graphs Foundation's `PropertyListSerialization`
/// reads and writes, so its results can be compared structurally with ours.
enum FoundationBridge {
    static func object(_ value: PropertyListValue) -> Any {
        switch value {
        case .string(let s): s
        case .integer(let i): NSNumber(value: i)
        case .unsignedInteger(let u): NSNumber(value: u)
        case .real(let r): NSNumber(value: r)
        case .boolean(let b): b
        case .date(let d): d
        case .data(let d): d
        case .array(let a): a.map(object)
        case .dictionary(let d): d.mapValues(object)
        case .uid: preconditionFailure("Foundation offers no public way to build a UID")
        }
    }

    static func value(_ object: Any) -> PropertyListValue? {
        if type(of: object) == Bool.self, let b = object as? Bool { return .boolean(b) }
        if let s = object as? String { return .string(s) }
        if let d = object as? Date { return .date(d) }
        if let d = object as? Data { return .data(d) }
        if let n = object as? NSNumber {
            let type = String(cString: n.objCType)
            return type == "d" || type == "f" ? .real(n.doubleValue) : .integer(n.int64Value)
        }
        if let a = object as? [Any] {
            let elements = a.compactMap(value)
            return elements.count == a.count ? .array(elements) : nil
        }
        if let d = object as? [String: Any] {
            let entries = d.compactMapValues(value)
            return entries.count == d.count ? .dictionary(entries) : nil
        }
        // Foundation's private UID class carries its number in a stored property named `value`.
        if String(describing: type(of: object)).contains("KeyedArchiverUID"),
           let child = Mirror(reflecting: object).children.first(where: { $0.label == "value" }),
           let number = child.value as? UInt32 {
            return .uid(UInt64(number))
        }
        return nil
    }

    static func write(_ value: PropertyListValue, format: PropertyListFormat) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: object(value),
                                           format: format == .xml ? .xml : .binary, options: 0)
    }

    static func read(_ data: Data) throws -> PropertyListValue? {
        value(try PropertyListSerialization.propertyList(from: data, options: [], format: nil))
    }
}
