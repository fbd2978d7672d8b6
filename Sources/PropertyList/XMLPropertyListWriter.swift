import FoundationEssentials

/// Writes the XML form Apple writes: DTD header, tab indentation, sorted keys, `CF$UID`
/// dictionaries for UIDs. Data is one base64 line (every reader accepts that) and dates are
/// whole seconds, the only precision the format has.
public enum XMLPropertyListWriter {
    static let header: StaticString = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """

    /// The XML bytes of `value`, in UTF-8.
    ///
    /// - Throws: ``PropertyListError`` for a value no property list may hold (see
    ///   ``PropertyListValue/storageProblem``), or a UID too big for an XML `<integer>`.
    public static func data(from value: PropertyListValue) throws -> Data {
        let writer = XMLWriter()
        writer.out.append(header)
        try writer.write(value, depth: 0)
        writer.out.append("</plist>\n")
        return writer.out.takeData()
    }
}

/// Every piece goes straight into one byte buffer: no intermediate strings for numbers, tags
/// or indents, since a 10 MB file is millions of such pieces.
private final class XMLWriter {
    let out = XMLOutputBuffer()
    private var keyOrder = DictionaryKeyOrder()

    func write(_ value: PropertyListValue, depth: Int) throws {
        indent(depth)
        switch value {
        case .string(let s): element("<string>", escaping: s, "</string>\n")
        case .integer(let i):
            out.append("<integer>")
            out.appendDecimal(i)
            out.append("</integer>\n")
        case .unsignedInteger(let u):
            out.append("<integer>")
            out.appendDecimal(u)
            out.append("</integer>\n")
        case .real(let r):
            out.append("<real>")
            out.append(contentsOf: Self.format(r))
            out.append("</real>\n")
        case .boolean(let b): out.append(b ? "<true/>\n" : "<false/>\n")
        case .date(let d):
            out.append("<date>")
            var written = false
            out.append(atMost: ISO8601Date.formattedLength) { place in
                written = ISO8601Date.write(d, into: place)
                return written ? ISO8601Date.formattedLength : 0
            }
            guard written else { throw unwritableDate(d) }
            out.append("</date>\n")
        case .data(let d):
            out.append("<data>")
            d.withUnsafeBytes { bytes in
                out.append(atMost: Base64.encodedCount(bytes.count)) { Base64.encode(bytes, into: $0) }
            }
            out.append("</data>\n")
        case .uid(let u):
            // Apple writes a UID as a one-entry dictionary; its readers turn it back into a UID.
            // CF reads the <integer> inside as signed, and ours makes a UID again only of an Int64.
            guard u <= UInt64(Int64.max) else {
                throw PropertyListError(.unrepresentableValue, "UID \(u) does not fit an XML <integer>",
                                        position: 0, unit: .none)
            }
            out.append("<dict>\n")
            indent(depth + 1)
            out.append("<key>CF$UID</key>\n")
            indent(depth + 1)
            out.append("<integer>")
            out.appendDecimal(u)
            out.append("</integer>\n")
            indent(depth)
            out.append("</dict>\n")
        case .array(let elements):
            try checkDepth(depth)
            if elements.isEmpty {
                out.append("<array/>\n")
                return
            }
            out.append("<array>\n")
            for element in elements { try write(element, depth: depth + 1) }
            indent(depth)
            out.append("</array>\n")
        case .dictionary(let dictionary):
            try checkDepth(depth)
            if dictionary.isEmpty {
                out.append("<dict/>\n")
                return
            }
            out.append("<dict>\n")
            let sorted = keyOrder.sort(dictionary)
            defer { keyOrder.release(sorted) }
            for offset in sorted {
                let entry = dictionary[keyOrder[offset]]
                indent(depth + 1)
                element("<key>", escaping: entry.key, "</key>\n")
                try write(entry.value, depth: depth + 1)
            }
            indent(depth)
            out.append("</dict>\n")
        }
    }

    private func checkDepth(_ depth: Int) throws {
        guard depth < PropertyListLimits.deepestNesting else { throw nestedTooDeep() }
    }

    private func indent(_ depth: Int) {
        out.append(repeating: UInt8(ascii: "\t"), count: depth)
    }

    /// Escapes the markup characters, and CR so that XML's line-end normalisation cannot turn
    /// it into LF on the way back in. Runs without any of them, nearly all text, go in whole.
    private func element(_ open: StaticString, escaping text: String, _ close: StaticString) {
        out.append(open)
        var text = text
        text.withUTF8 { bytes in
            var runStart = 0
            var i = 0
            let count = bytes.count
            while i < count {
                let byte = bytes[i]
                // Every byte to escape is below "?": one compare passes most text by.
                if byte < UInt8(ascii: "?") {
                    let escape: StaticString?
                    switch byte {
                    case UInt8(ascii: "&"): escape = "&amp;"
                    case UInt8(ascii: "<"): escape = "&lt;"
                    case UInt8(ascii: ">"): escape = "&gt;"
                    case UInt8(ascii: "\r"): escape = "&#13;"
                    default: escape = nil
                    }
                    if let escape {
                        out.append(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[runStart..<i]))
                        out.append(escape)
                        runStart = i + 1
                    }
                }
                i += 1
            }
            out.append(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[runStart..<count]))
        }
        out.append(close)
    }

    /// Shortest text that reads back to the same double; infinities and NaN in the spellings
    /// Apple's and Python's readers accept.
    private static func format(_ r: Double) -> String {
        if r.isNaN { return "nan" }
        if r.isInfinite { return r < 0 ? "-inf" : "inf" }
        return r.description
    }
}
