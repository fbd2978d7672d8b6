import Defaults
import FoundationEssentials
import PropertyList
import WonderlandApp

/// The value part of `defaults write KEY …`, with macOS's type flags.
enum DefaultsValueParser {
    struct Failure: Error {
        let message: String
    }

    private enum Scalar: String, CaseIterable {
        case string, int, integer, float, bool, boolean, date, data
    }

    private static let typeFlags = Set(Scalar.allCases.map(\.rawValue) + ["array", "array-add", "dict", "dict-add"])

    /// `arguments` follow the key. `existing` is the key's saved value, for -array-add and -dict-add.
    static func parse(_ arguments: [String], existing: PropertyListValue?) throws -> PropertyListValue {
        var tokens = arguments[...]
        var literal = false
        if tokens.first == "--" {
            tokens = tokens.dropFirst()
            literal = true
        }
        guard let first = tokens.first else { throw Failure(message: "write needs a value after the key") }
        // A lone value such as `-33.8,151.2` or `-5` is a value, not a type flag it is not.
        let isTypeFlag = first.hasPrefix("-") && first.count >= 2 && Self.typeFlags.contains(String(first.dropFirst()))
        if literal || !isTypeFlag && tokens.count == 1 || !first.hasPrefix("-") || first.count < 2 {
            guard tokens.count == 1 else { throw Failure(message: "too many values; quote a value with spaces, or use -array") }
            return .string(first)
        }
        tokens = tokens.dropFirst()
        let flag = String(first.dropFirst())
        switch flag {
        case "array", "array-add":
            var items: [PropertyListValue] = []
            while !tokens.isEmpty { items.append(try element(&tokens)) }
            if flag == "array-add", case .array(let old)? = existing { items = old + items }
            return .array(items)
        case "dict", "dict-add":
            var entries: [String: PropertyListValue] = [:]
            if flag == "dict-add", case .dictionary(let old)? = existing { entries = old }
            while let key = tokens.first {
                tokens = tokens.dropFirst()
                guard !tokens.isEmpty else { throw Failure(message: "-dict needs a value for key \(key)") }
                entries[key] = try element(&tokens)
            }
            return .dictionary(entries)
        default:
            guard let scalar = Scalar(rawValue: flag) else { throw Failure(message: "unknown type flag \(first)") }
            if tokens.first == "--" { tokens = tokens.dropFirst() }
            guard tokens.count == 1, let text = tokens.first else {
                throw Failure(message: "\(first) takes exactly one value")
            }
            return try value(text, as: scalar)
        }
    }

    /// One array item or dictionary value, with an optional scalar type flag before it.
    private static func element(_ tokens: inout ArraySlice<String>) throws -> PropertyListValue {
        let first = tokens.removeFirst()
        if first.hasPrefix("-"), let scalar = Scalar(rawValue: String(first.dropFirst())) {
            guard !tokens.isEmpty else { throw Failure(message: "\(first) needs a value") }
            return try value(tokens.removeFirst(), as: scalar)
        }
        if first == "--", !tokens.isEmpty { return .string(tokens.removeFirst()) }
        return .string(first)
    }

    private static func value(_ text: String, as type: Scalar) throws -> PropertyListValue {
        switch type {
        case .string:
            return .string(text)
        case .int, .integer:
            guard let number = Int64(text) else { throw Failure(message: "not an integer: \(text)") }
            return .integer(number)
        case .float:
            guard let number = Double(text), number.isFinite else { throw Failure(message: "not a number: \(text)") }
            return .real(number)
        case .bool, .boolean:
            switch text.lowercased() {
            case "yes", "true", "1": return .boolean(true)
            case "no", "false", "0": return .boolean(false)
            default: throw Failure(message: "not a boolean (YES, NO, true, false, 1, 0): \(text)")
            }
        case .date:
            guard let date = date(text) else { throw Failure(message: "not a date: \(text)") }
            return .date(date)
        case .data:
            guard let bytes = hex(text) else { throw Failure(message: "not hex data: \(text)") }
            return .data(bytes)
        }
    }

    private static func date(_ text: String) -> Date? {
        CommandDateText.parse(text)
    }

    private static func hex(_ text: String) -> Data? {
        var digits = text.filter { !$0.isWhitespace && $0 != "<" && $0 != ">" }
        if digits.hasPrefix("0x") { digits.removeFirst(2) }
        guard digits.count % 2 == 0 else { return nil }
        var bytes = Data()
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            guard let byte = UInt8(digits[index ..< next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
