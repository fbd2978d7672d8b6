import FoundationEssentials
import Defaults
import KeyedArchive
import Platform
import PropertyList
import WonderlandApp

/// Property lists as macOS `defaults read` prints them: the old-style (OpenStep) text format,
/// with CoreFoundation's nesting quirk (a nested collection is indented once for its line and
/// once more for its own level), `1`/`0` for booleans, and data as `{length = N, bytes = 0x…}`.
enum OldStylePlist {
    /// `decodingArchives`: a data value holding a keyed archive is shown as its object tree
    /// (no longer the old-style format, so only when asked for).
    static func text(_ value: PropertyListValue, level: Int = 0, decodingArchives: Bool = false) -> String {
        let indent = String(repeating: "    ", count: level)
        func text(_ value: PropertyListValue, level: Int) -> String { Self.text(value, level: level, decodingArchives: decodingArchives) }
        switch value {
        case .data(let bytes) where decodingArchives:
            guard let tree = PropertyListPrinter.archiveTree(in: bytes) else { return Self.text(value, level: level) }
            return String(tree.unicodeScalars.replacing("\n".unicodeScalars, with: ("\n" + String(repeating: "    ", count: level + 1)).unicodeScalars))
        case .string(let string): return quoted(string)
        case .integer, .unsignedInteger, .real, .boolean: return DefaultsConversion.string(value) ?? ""
        case .date(let date): return dateText(date)
        case .data(let bytes):
            return "{length = \(bytes.count), bytes = 0x\(bytes.map { cFormat("%02x", $0) }.joined())}"
        case .uid(let uid): return "{value = \(uid)}"
        case .array(let items):
            let inner = String(repeating: "    ", count: level + 1)
            let lines = items.map { inner + text($0, level: level + 1) }
            return indent + "(\n" + lines.map { $0 }.joined(separator: ",\n") + (lines.isEmpty ? "" : "\n") + indent + ")"
        case .dictionary(let entries):
            let inner = String(repeating: "    ", count: level + 1)
            let lines = entries.keys.sorted().map { inner + quoted($0) + " = " + text(entries[$0]!, level: level + 1) + ";\n" }
            return indent + "{\n" + lines.joined() + indent + "}"
        }
    }

    /// The form `defaults read DOMAIN KEY` prints: a string bare, anything else as above.
    static func topLevelText(_ value: PropertyListValue, decodingArchives: Bool = false) -> String {
        if case .string(let string) = value { return string }
        return text(value, decodingArchives: decodingArchives)
    }

    /// `read-type`'s word for a value.
    static func typeName(_ value: PropertyListValue) -> String {
        switch value {
        case .string: "string"
        case .integer, .unsignedInteger: "integer"
        case .real: "float"
        case .boolean: "boolean"
        case .date: "date"
        case .data: "data"
        case .array: "array"
        case .dictionary: "dictionary"
        case .uid: "UID"
        }
    }

    static func dateText(_ date: Date) -> String {
        // A NaN or infinite date (a damaged file) has no calendar form; say what it is instead.
        guard date.timeIntervalSinceReferenceDate.isFinite else { return PropertyListValue.describe(date) }
        return CommandDateText.utc(date, separator: .space, zone: " +0000")
    }

    private static let bare = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$/:.-")

    /// Bare when the old-style format allows it, else quoted with CF's escapes.
    static func quoted(_ string: String) -> String {
        if !string.isEmpty, string.allSatisfy({ bare.contains($0) }) { return string }
        var result = "\""
        for unit in string.unicodeScalars {
            switch unit {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case " " ... "~": result.unicodeScalars.append(unit)
            default:
                for code in String(unit).utf16 { result += cFormat("\\U%04x", code) }
            }
        }
        return result + "\""
    }
}
