import FoundationEssentials
import PropertyList

/// A property list as JSON, for tools that read no plists: data as base64 text, dates as
/// ISO 8601 text, keys sorted so two exports compare line by line. Written iteratively, so a
/// deep value cannot exhaust the stack.
enum JSONText {
    static func data(_ value: PropertyListValue) -> Data {
        var out = ""
        out.reserveCapacity(4096)
        enum Step { case value(PropertyListValue, Int), text(String) }
        var stack: [Step] = [.value(value, 0)]
        while let step = stack.popLast() {
            switch step {
            case .text(let text):
                out += text
            case .value(let value, let depth):
                let indent = String(repeating: "  ", count: depth + 1), closing = String(repeating: "  ", count: depth)
                switch value {
                case .string(let text): append(text, to: &out)
                case .integer(let number): out += String(number)
                case .unsignedInteger(let number): out += String(number)
                case .real(let number): out += number.isFinite ? "\(number)" : "null"
                case .boolean(let flag): out += flag ? "true" : "false"
                case .date(let date): append(ISO8601Date.format(date) ?? "", to: &out)
                case .data(let bytes): append(bytes.base64EncodedString(), to: &out)
                case .uid(let number): out += "{\"CF$UID\": \(number)}"
                case .array(let items):
                    guard !items.isEmpty else { out += "[]"; continue }
                    out += "[\n"
                    stack.append(.text("\n\(closing)]"))
                    for (index, item) in items.enumerated().reversed() {
                        stack.append(.value(item, depth + 1))
                        stack.append(.text(index == 0 ? indent : ",\n\(indent)"))
                    }
                case .dictionary(let entries):
                    guard !entries.isEmpty else { out += "{}"; continue }
                    out += "{\n"
                    stack.append(.text("\n\(closing)}"))
                    for (index, key) in entries.keys.sorted().enumerated().reversed() {
                        stack.append(.value(entries[key]!, depth + 1))
                        var name = ""
                        append(key, to: &name)
                        stack.append(.text((index == 0 ? indent : ",\n\(indent)") + name + ": "))
                    }
                }
            }
        }
        out += "\n"
        return Data(out.utf8)
    }

    /// `text` as a JSON string: quotes, backslashes and every control character escaped.
    private static func append(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x2028 ... 0x2029).contains(scalar.value):
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
