import Foundation
import KeyedArchive
import PropertyList

/// Renders a property list as an indented tree. A keyed archive is shown resolved: objects by
/// class name and keys, references followed, and an object met a second time (shared, or a
/// cycle) printed as `<see #N ClassName>` instead of again.
final class PlistPrinter {
    private var output = ""
    private var expanded: Set<Int> = []
    private var depth = 0
    private let contents: ArchiveContents?

    /// Leaf Foundation classes print inline as values and never as back-references.
    private static let leafClasses: Set<String> = ["NSString", "NSMutableString", "NSData", "NSMutableData", "NSDate"]
    private static let arrayClasses: Set<String> = ["NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSOrderedSet", "NSMutableOrderedSet"]
    private static let dictionaryClasses: Set<String> = ["NSDictionary", "NSMutableDictionary"]

    struct TooDeep: Error, CustomStringConvertible {
        var description: String { "nesting deeper than \(ArchiveFormat.maximumDepth) levels" }
    }

    static func render(_ value: PropertyListValue) throws -> String {
        if ArchiveContents.isKeyedArchive(value) {
            let contents = try ArchiveContents(value)
            let printer = PlistPrinter(contents: contents)
            printer.output = "NSKeyedArchiver archive, \(contents.objects.count) objects\n"
            for key in contents.top.keys.sorted() {
                printer.output += "\(key) => "
                try printer.archived(contents.top[key]!, indent: "")
                printer.output += "\n"
            }
            return printer.output
        }
        let printer = PlistPrinter(contents: nil)
        try printer.plain(value, indent: "")
        printer.output += "\n"
        return printer.output
    }

    private init(contents: ArchiveContents?) { self.contents = contents }

    // MARK: Plain property lists

    private func plain(_ value: PropertyListValue, indent: String) throws {
        switch value {
        case .array(let items):
            try array(items, indent: indent, element: plain)
        case .dictionary(let fields):
            try nested {
                output += "{\n"
                for key in fields.keys.sorted() {
                    output += "\(indent)  \(quoted(key)) => "
                    try plain(fields[key]!, indent: indent + "  ")
                    output += "\n"
                }
                output += "\(indent)}"
            }
        default:
            output += scalar(value)
        }
    }

    /// An array, one numbered element a line, each drawn by `element`.
    private func array(_ items: [PropertyListValue], indent: String,
                       element: (PropertyListValue, String) throws -> Void) throws {
        try nested {
            output += "[\n"
            for (position, item) in items.enumerated() {
                output += "\(indent)  \(position) => "
                try element(item, indent + "  ")
                output += "\n"
            }
            output += "\(indent)]"
        }
    }

    private func scalar(_ value: PropertyListValue) -> String {
        switch value {
        case .string(let text): quoted(text)
        case .integer(let number): String(number)
        case .real(let number): String(number)
        case .boolean(let flag): flag ? "true" : "false"
        case .date(let date): dateText(date.timeIntervalSinceReferenceDate)
        case .data(let bytes): dataSummary(bytes)
        case .uid(let uid): "UID(\(uid))"
        case .array, .dictionary: ""
        }
    }

    private func quoted(_ text: String) -> String { "\"" + text.unicodeScalars.map { $0.escaped(asASCII: false) }.joined() + "\"" }

    private func dataSummary(_ bytes: Data) -> String {
        let shown = bytes.prefix(32).map { String(format: "%02x", $0) }.joined()
        return "<\(bytes.count) bytes \(shown)\(bytes.count > 32 ? "…" : "")>"
    }

    // MARK: Keyed archives

    /// Renders a value found in an archive: a UID is followed, anything else is a scalar or a
    /// plain container written inline.
    private func archived(_ value: PropertyListValue, indent: String) throws {
        switch value {
        case .uid(let uid): try object(at: Int(uid), indent: indent)
        case .array(let items):
            try array(items, indent: indent, element: archived)
        case .dictionary:
            try plain(value, indent: indent)
        default:
            output += scalar(value)
        }
    }

    private func object(at index: Int, indent: String) throws {
        guard let contents, index != 0 else { output += "nil"; return }
        let entry = contents.objects[index]
        guard let className = contents.classNames[index], case .dictionary(let fields) = entry else {
            output += scalar(entry)
            return
        }
        if Self.leafClasses.contains(className) {
            output += leaf(className, fields)
            return
        }
        guard expanded.insert(index).inserted else {
            output += "<see #\(index) \(className)>"
            return
        }
        output += "\(className) #\(index) "
        if Self.arrayClasses.contains(className), case .array(let items)? = fields["NS.objects"] {
            try archived(.array(items), indent: indent)
        } else if Self.dictionaryClasses.contains(className),
                  case .array(let keys)? = fields["NS.keys"], case .array(let values)? = fields["NS.objects"] {
            try nested {
                output += "{\n"
                for (key, value) in zip(keys, values) {
                    output += "\(indent)  "
                    try archived(key, indent: indent + "  ")
                    output += " => "
                    try archived(value, indent: indent + "  ")
                    output += "\n"
                }
                output += "\(indent)}"
            }
        } else {
            try nested {
                output += "{\n"
                for key in fields.keys.sorted() where key != ArchiveFormat.classKey {
                    output += "\(indent)  \(quoted(key)) => "
                    try archived(fields[key]!, indent: indent + "  ")
                    output += "\n"
                }
                output += "\(indent)}"
            }
        }
    }

    private func leaf(_ className: String, _ fields: [String: PropertyListValue]) -> String {
        switch fields["NS.string"] ?? fields["NS.data"] ?? fields["NS.time"] {
        case .string(let text)?: return quoted(text)
        case .data(let bytes)?: return dataSummary(bytes)
        case .real(let seconds)?: return dateText(seconds)
        case .integer(let seconds)?: return dateText(Double(seconds))
        default: return "\(className) (malformed)"
        }
    }

    /// Foundation traps describing a NaN date, which a binary plist may well hold.
    private func dateText(_ secondsSince2001: Double) -> String {
        secondsSince2001.isNaN ? "date NaN" : Date(timeIntervalSinceReferenceDate: secondsSince2001).description
    }

    private func nested(_ body: () throws -> Void) throws {
        guard depth < ArchiveFormat.maximumDepth else { throw TooDeep() }
        depth += 1
        defer { depth -= 1 }
        try body()
    }
}
