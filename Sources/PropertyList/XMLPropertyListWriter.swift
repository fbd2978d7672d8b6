import FoundationEssentials

/// Writes the XML form Apple writes: DTD header, tab indentation, sorted keys, `CF$UID`
/// dictionaries for UIDs. Data is one base64 line (every reader accepts that) and dates are
/// whole seconds, the only precision the format has.
public enum XMLPropertyListWriter {
    static let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """

    /// The XML bytes of `value`, in UTF-8.
    ///
    /// - Throws: ``PropertyListError`` for a value no property list may hold (see
    ///   ``PropertyListValue/storageProblem``), or a UID too big for an XML `<integer>`.
    public static func data(from value: PropertyListValue) throws -> Data {
        var writer = XMLWriter()
        writer.out.append(contentsOf: header.utf8)
        try writer.write(value, depth: 0)
        writer.out.append(contentsOf: "</plist>\n".utf8)
        return Data(writer.out)
    }
}

private struct XMLWriter {
    var out: [UInt8] = []

    init() { out.reserveCapacity(4096) }

    mutating func write(_ value: PropertyListValue, depth: Int) throws {
        indent(depth)
        switch value {
        case .string(let s): element("string", escaping: s)
        case .integer(let i): element("integer", ascii: String(i))
        case .unsignedInteger(let u): element("integer", ascii: String(u))
        case .real(let r): element("real", ascii: Self.format(r))
        case .boolean(let b): out.append(contentsOf: (b ? "<true/>\n" : "<false/>\n").utf8)
        case .date(let d):
            guard let text = ISO8601Date.format(d) else { throw unwritableDate(d) }
            element("date", ascii: text)
        case .data(let d):
            out.append(contentsOf: "<data>".utf8)
            d.withUnsafeBytes { Base64.encode($0, into: &out) }
            out.append(contentsOf: "</data>\n".utf8)
        case .uid(let u):
            // Apple writes a UID as a one-entry dictionary; its readers turn it back into a UID.
            // CF reads the <integer> inside as signed, and ours makes a UID again only of an Int64.
            guard u <= UInt64(Int64.max) else {
                throw PropertyListError(.unrepresentableValue, "UID \(u) does not fit an XML <integer>",
                                        position: 0, unit: .none)
            }
            out.append(contentsOf: "<dict>\n".utf8)
            indent(depth + 1)
            out.append(contentsOf: "<key>CF$UID</key>\n".utf8)
            indent(depth + 1)
            element("integer", ascii: String(u))
            indent(depth)
            out.append(contentsOf: "</dict>\n".utf8)
        case .array(let elements):
            try checkDepth(depth)
            if elements.isEmpty {
                out.append(contentsOf: "<array/>\n".utf8)
                return
            }
            out.append(contentsOf: "<array>\n".utf8)
            for element in elements { try write(element, depth: depth + 1) }
            indent(depth)
            out.append(contentsOf: "</array>\n".utf8)
        case .dictionary(let dictionary):
            try checkDepth(depth)
            if dictionary.isEmpty {
                out.append(contentsOf: "<dict/>\n".utf8)
                return
            }
            out.append(contentsOf: "<dict>\n".utf8)
            for entry in sortedEntries(dictionary) {
                indent(depth + 1)
                element("key", escaping: entry.key)
                try write(entry.value, depth: depth + 1)
            }
            indent(depth)
            out.append(contentsOf: "</dict>\n".utf8)
        }
    }

    private func checkDepth(_ depth: Int) throws {
        guard depth < PropertyListLimits.deepestNesting else { throw nestedTooDeep() }
    }

    private mutating func indent(_ depth: Int) {
        for _ in 0..<depth { out.append(UInt8(ascii: "\t")) }
    }

    private mutating func element(_ name: StaticString, ascii text: String) {
        open(name)
        out.append(contentsOf: text.utf8)
        close(name)
    }

    /// Escapes the markup characters, and CR so that XML's line-end normalisation cannot turn
    /// it into LF on the way back in.
    private mutating func element(_ name: StaticString, escaping text: String) {
        open(name)
        var text = text
        text.withUTF8 { bytes in
            var runStart = 0
            for (i, byte) in bytes.enumerated() {
                let escape: StaticString
                switch byte {
                case UInt8(ascii: "&"): escape = "&amp;"
                case UInt8(ascii: "<"): escape = "&lt;"
                case UInt8(ascii: ">"): escape = "&gt;"
                case UInt8(ascii: "\r"): escape = "&#13;"
                default: continue
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
                out.append(contentsOf: UnsafeBufferPointer(start: escape.utf8Start, count: escape.utf8CodeUnitCount))
                runStart = i + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        close(name)
    }

    private mutating func open(_ name: StaticString) {
        out.append(UInt8(ascii: "<"))
        out.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        out.append(UInt8(ascii: ">"))
    }

    private mutating func close(_ name: StaticString) {
        out.append(contentsOf: "</".utf8)
        out.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        out.append(contentsOf: ">\n".utf8)
    }

    /// Shortest text that reads back to the same double; infinities and NaN in the spellings
    /// Apple's and Python's readers accept.
    private static func format(_ r: Double) -> String {
        if r.isNaN { return "nan" }
        if r.isInfinite { return r < 0 ? "-inf" : "inf" }
        return r.description
    }
}
