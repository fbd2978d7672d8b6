import FoundationEssentials

/// Makes an EPUB's XML safe to hand to `XMLWalker`: the DOCTYPE (with any internal subset of
/// entity declarations, the "billion laughs" attack) is cut out before parsing, so no entity is
/// ever declared or expanded and no external DTD is fetched. What remains are the XML
/// predefined entities and numeric character references. Named HTML references that EPUB 2 books
/// take from the XHTML DTD (&nbsp;, &mdash;, …) are rewritten as numeric references from a
/// fixed table; any other named reference is shown as written. Whatever is cut leaves its line
/// breaks behind, so an error's line is the file's. The result is always valid UTF-8.
enum XMLSafety {
    struct Sanitized {
        var bytes: [UInt8]
        /// The document declared entities of its own (they were dropped, never expanded).
        var declaredEntities: Bool
    }

    static func sanitize(_ input: Data) -> Sanitized {
        let bytes = transcodingUTF16([UInt8](input))
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var declaredEntities = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "<") {
                if starts(bytes, at: index, with: "<!--") {
                    let end = find(bytes, "-->", from: index + 4).map { $0 + 3 } ?? bytes.count
                    output.append(contentsOf: bytes[index..<end])
                    index = end
                    continue
                }
                if starts(bytes, at: index, with: "<![CDATA[") {
                    let end = find(bytes, "]]>", from: index + 9).map { $0 + 3 } ?? bytes.count
                    output.append(contentsOf: bytes[index..<end])
                    index = end
                    continue
                }
                if starts(bytes, at: index, with: "<?") {
                    // Processing instructions are never used: all go, except the XML declaration
                    // at the very start, whose encoding `repairingUTF8` reads.
                    let end = find(bytes, "?>", from: index + 2).map { $0 + 2 } ?? bytes.count
                    if isDeclaration(bytes, at: index, after: output) {
                        output.append(contentsOf: bytes[index..<end])
                    } else {
                        appendLineBreaks(of: bytes[index..<end], to: &output)
                    }
                    index = end
                    continue
                }
                if starts(bytes, at: index, with: "<!DOCTYPE") || starts(bytes, at: index, with: "<!doctype") {
                    let end = doctypeEnd(bytes, from: index)
                    if find(bytes[index..<end], "<!ENTITY") != nil { declaredEntities = true }
                    appendLineBreaks(of: bytes[index..<end], to: &output)
                    index = end
                    continue
                }
                if starts(bytes, at: index, with: "<!ENTITY") {
                    declaredEntities = true
                    let end = bytes[index...].firstIndex(of: UInt8(ascii: ">")).map { $0 + 1 } ?? bytes.count
                    appendLineBreaks(of: bytes[index..<end], to: &output)
                    index = end
                    continue
                }
            }
            if byte == UInt8(ascii: "&") {
                let (replacement, consumed) = reference(bytes, at: index)
                output.append(contentsOf: replacement)
                index += consumed
                continue
            }
            output.append(byte)
            index += 1
        }
        return Sanitized(bytes: repairingUTF8(output), declaredEntities: declaredEntities)
    }

    private static func appendLineBreaks(of cut: ArraySlice<UInt8>, to output: inout [UInt8]) {
        output.append(contentsOf: cut.filter { $0 == 0x0A || $0 == 0x0D })
    }

    /// A UTF-16 document (EPUB allows it), told by its byte order mark or by the `<` it must
    /// start with, as UTF-8 without the mark; any other input as it is.
    static func transcodingUTF16(_ bytes: [UInt8]) -> [UInt8] {
        let bigEndian: Bool
        var start = 0
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            bigEndian = bytes[0] == 0xFE
            start = 2
        } else if bytes.starts(with: [0x00, 0x3C]) || bytes.starts(with: [0x3C, 0x00]) {
            bigEndian = bytes[0] == 0x00
        } else {
            return bytes
        }
        var units: [UInt16] = []
        units.reserveCapacity((bytes.count - start) / 2)
        var index = start
        while index + 1 < bytes.count {
            let high = UInt16(bytes[bigEndian ? index : index + 1])
            let low = UInt16(bytes[bigEndian ? index + 1 : index])
            units.append(high << 8 | low)
            index += 2
        }
        return Array(String(decoding: units, as: UTF16.self).utf8)
    }

    /// The parser is only ever given valid UTF-8: a document declaring Latin-1 is converted here
    /// and its declaration dropped; in any other (one that names an unknown encoding, or a
    /// broken one), each bad sequence becomes U+FFFD, as the book's text would show it anyway.
    static func repairingUTF8(_ bytes: [UInt8]) -> [UInt8] {
        if let declarationEnd = latin1DeclarationEnd(bytes) {
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count)
            for byte in bytes[declarationEnd...] {
                if byte < 0x80 {
                    output.append(byte)
                } else {
                    output.append(0xC0 | byte >> 6)
                    output.append(0x80 | byte & 0x3F)
                }
            }
            return output
        }
        if String(validating: bytes, as: UTF8.self) != nil { return bytes }
        return Array(String(decoding: bytes, as: UTF8.self).utf8)
    }

    /// Where the XML declaration ends, when it names ISO-8859-1.
    private static func latin1DeclarationEnd(_ bytes: [UInt8]) -> Int? {
        guard starts(bytes, at: 0, with: "<?xml"), let end = find(bytes.prefix(256), "?>"),
              let attribute = find(bytes[..<end], "encoding") else { return nil }
        let value = String(decoding: bytes[(attribute + 8)..<end], as: UTF8.self)
            .drop { $0 == " " || $0 == "=" || $0 == "\"" || $0 == "'" }
            .prefix { $0 != "\"" && $0 != "'" && $0 != " " }
            .lowercased()
        return value == "iso-8859-1" || value == "latin1" ? end + 2 : nil
    }

    /// `<?xml ` with nothing before it but a byte order mark.
    private static func isDeclaration(_ bytes: [UInt8], at index: Int, after output: [UInt8]) -> Bool {
        guard output.isEmpty || output == [0xEF, 0xBB, 0xBF], starts(bytes, at: index, with: "<?xml"),
              index + 5 < bytes.count else { return false }
        return [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index + 5])
    }

    /// The end of a DOCTYPE declaration (or of the text, when it is never closed).
    private static func doctypeEnd(_ bytes: [UInt8], from start: Int) -> Int {
        doctypeClose(bytes, from: start) ?? bytes.count
    }

    /// Just past the ">" that closes the DOCTYPE starting at `start` ("<!DOCTYPE"), beyond its
    /// internal subset ("[ … ]") and quoted strings; nil when the text ends first.
    static func doctypeClose(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start + 2
        var depth = 0
        var quote: UInt8?
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "]") {
                depth = max(0, depth - 1)
            } else if byte == UInt8(ascii: ">"), depth == 0 {
                return index + 1
            }
            index += 1
        }
        return nil
    }

    private static let predefined: Set<String> = ["amp", "lt", "gt", "quot", "apos"]
    private static let html: [String: Int] = [
        "nbsp": 0xA0, "shy": 0xAD, "copy": 0xA9, "reg": 0xAE, "trade": 0x2122, "deg": 0xB0, "sect": 0xA7, "para": 0xB6,
        "middot": 0xB7, "laquo": 0xAB, "raquo": 0xBB, "iexcl": 0xA1, "iquest": 0xBF, "pound": 0xA3, "euro": 0x20AC,
        "ndash": 0x2013, "mdash": 0x2014, "lsquo": 0x2018, "rsquo": 0x2019, "sbquo": 0x201A, "ldquo": 0x201C,
        "rdquo": 0x201D, "bdquo": 0x201E, "hellip": 0x2026, "dagger": 0x2020, "Dagger": 0x2021, "bull": 0x2022,
        "prime": 0x2032, "Prime": 0x2033, "times": 0xD7, "divide": 0xF7, "frac12": 0xBD, "frac14": 0xBC, "frac34": 0xBE,
        "eacute": 0xE9, "egrave": 0xE8, "ecirc": 0xEA, "euml": 0xEB, "aacute": 0xE1, "agrave": 0xE0, "acirc": 0xE2,
        "auml": 0xE4, "ccedil": 0xE7, "iacute": 0xED, "iuml": 0xEF, "oacute": 0xF3, "ocirc": 0xF4, "ouml": 0xF6,
        "uacute": 0xFA, "uuml": 0xFC, "ntilde": 0xF1, "szlig": 0xDF, "aelig": 0xE6, "AElig": 0xC6, "oelig": 0x153,
        "OElig": 0x152, "Eacute": 0xC9, "thinsp": 0x2009, "ensp": 0x2002, "emsp": 0x2003, "zwnj": 0x200C, "zwj": 0x200D,
    ]

    private static func reference(_ bytes: [UInt8], at index: Int) -> ([UInt8], Int) {
        var end = index + 1
        while end < bytes.count, end - index <= 32, isNameByte(bytes[end]) || bytes[end] == UInt8(ascii: "#") { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";"), end > index + 1 else {
            return (Array("&amp;".utf8), 1)  // a bare ampersand: show it
        }
        let name = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
        if name.hasPrefix("#") || predefined.contains(name) { return (Array(bytes[index...end]), end - index + 1) }
        if let scalar = html[name] { return (Array("&#\(scalar);".utf8), end - index + 1) }
        return (Array("&amp;".utf8), 1)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    private static func starts(_ bytes: [UInt8], at index: Int, with prefix: String) -> Bool {
        bytes[index...].starts(with: prefix.utf8)
    }

    static func find<Bytes: Collection>(_ bytes: Bytes, _ needle: String, from start: Bytes.Index? = nil) -> Bytes.Index?
    where Bytes.Element == UInt8 {
        let pattern = Array(needle.utf8)
        var index = start ?? bytes.startIndex
        while index != bytes.endIndex {
            if bytes[index...].starts(with: pattern) { return index }
            index = bytes.index(after: index)
        }
        return nil
    }
}
