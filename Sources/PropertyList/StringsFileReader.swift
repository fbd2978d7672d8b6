import FoundationEssentials

/// Reads Apple's `.strings` localization tables as iOS does: the old-style (OpenStep) text
/// syntax `"key" = "value";` with `//` and `/* */` comments, in UTF-16 with a byte-order mark
/// or UTF-8 (with or without one), or a binary property list of strings, which Xcode writes
/// when it compiles a table.
public enum StringsFileReader {
    /// Tables are a few kilobytes; this keeps a hostile file from costing more than a moment.
    public static let maxBytes = 4 << 20

    /// Reads a `.strings` table in any of the forms Apple tools write.
    ///
    /// - Parameter data: The whole file, at most ``maxBytes``.
    /// - Returns: Each key with its localized text.
    /// - Throws: ``PropertyListError`` for a file over the limit, text that does not parse, or a
    ///   binary table that is not a dictionary of strings.
    public static func read(_ data: Data) throws -> [String: String] {
        guard data.count <= maxBytes else {
            throw PropertyListError(.limitExceeded, "a strings table of \(data.count) bytes is over the \(maxBytes)-byte limit",
                                    position: 0, unit: .none)
        }
        if BinaryPropertyListReader.hasMagic(data) { return try binaryTable(data) }
        let text = try decode(data)
        var parser = OldStyleStringsParser(scalars: Array(text.unicodeScalars))
        return try parser.table()
    }

    private static func binaryTable(_ data: Data) throws -> [String: String] {
        guard case .dictionary(let entries) = try BinaryPropertyListReader.read(data) else {
            throw PropertyListError(.malformedXML, "a binary strings table must be a dictionary", position: 0, unit: .none)
        }
        var table: [String: String] = [:]
        for (key, value) in entries {
            guard case .string(let text) = value else {
                throw PropertyListError(.invalidKey, "the entry \"\(MessageText.excerpt(key))\" is \(value.kindDescription), not a string",
                                        position: 0, unit: .none)
            }
            table[key] = text
        }
        return table
    }

    /// UTF-16 by its byte-order mark, else UTF-8; anything else is refused, never guessed.
    static func decode(_ data: Data) throws -> String {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            let littleEndian = bytes[0] == 0xFF
            guard bytes.count % 2 == 0 else {
                throw PropertyListError(.truncated, "UTF-16 text ends in half a character", position: bytes.count, unit: .byteOffset)
            }
            let units = stride(from: 2, to: bytes.count, by: 2).map { i in
                littleEndian ? UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8 : UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1])
            }
            var text = ""
            var iterator = units.makeIterator()
            var decoder = UTF16()
            loop: while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar): text.unicodeScalars.append(scalar)
                case .emptyInput: break loop
                case .error:
                    throw PropertyListError(.invalidUTF16, "an unpaired surrogate in UTF-16 text", position: 0, unit: .none)
                }
            }
            return text
        }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        guard let text = String(validating: body, as: UTF8.self) else {
            throw PropertyListError(.invalidUTF8, "the table is neither UTF-16 with a byte-order mark nor UTF-8", position: 0, unit: .none)
        }
        return text
    }
}

/// The old-style syntax of a strings table: entries `key = value;` (or `key;`, meaning the key
/// is its own value), each side quoted or a bare word, optionally inside one pair of braces.
struct OldStyleStringsParser {
    let scalars: [Unicode.Scalar]
    var pos = 0
    private var line = 1

    init(scalars: [Unicode.Scalar]) { self.scalars = scalars }

    mutating func table() throws -> [String: String] {
        var table: [String: String] = [:]
        try skipSpaceAndComments()
        let braced = peek == "{"
        if braced { advance() }
        while true {
            try skipSpaceAndComments()
            guard let next = peek else {
                if braced { throw failure(.truncated, "the table ends before its closing brace") }
                return table
            }
            if braced && next == "}" {
                advance()
                try skipSpaceAndComments()
                guard peek == nil else { throw failure(.malformedXML, "text after the table's closing brace") }
                return table
            }
            let key = try string()
            try skipSpaceAndComments()
            if peek == ";" {
                advance()
                table[key] = key
                continue
            }
            guard peek == "=" else { throw failure(.malformedXML, "expected = or ; after \"\(MessageText.excerpt(key))\"") }
            advance()
            try skipSpaceAndComments()
            let value = try string()
            try skipSpaceAndComments()
            guard peek == ";" else { throw failure(.malformedXML, "expected ; after the value of \"\(MessageText.excerpt(key))\"") }
            advance()
            // As CF does, a key given twice keeps the last value.
            table[key] = value
        }
    }

    private var peek: Unicode.Scalar? { pos < scalars.count ? scalars[pos] : nil }

    private mutating func advance() {
        if scalars[pos] == "\n" { line += 1 }
        pos += 1
    }

    private mutating func skipSpaceAndComments() throws {
        while let c = peek {
            if c.properties.isWhitespace {
                advance()
            } else if c == "/", pos + 1 < scalars.count, scalars[pos + 1] == "/" {
                while let d = peek, d != "\n" { advance() }
            } else if c == "/", pos + 1 < scalars.count, scalars[pos + 1] == "*" {
                let start = line
                advance(); advance()
                while true {
                    guard let d = peek else { throw failure(.truncated, "a /* comment opened on line \(start) never ends") }
                    if d == "*", pos + 1 < scalars.count, scalars[pos + 1] == "/" {
                        advance(); advance()
                        break
                    }
                    advance()
                }
            } else {
                return
            }
        }
    }

    private static func isBare(_ c: Unicode.Scalar) -> Bool {
        c.properties.isAlphabetic || ("0"..."9").contains(c) || "_$+/:.-".unicodeScalars.contains(c)
    }

    private mutating func string() throws -> String {
        guard let first = peek else { throw failure(.truncated, "the table ends where a string should be") }
        if first == "\"" { return try quoted() }
        guard Self.isBare(first) else { throw failure(.malformedXML, "unexpected \"\(first)\" where a string should be") }
        var text = String.UnicodeScalarView()
        while let c = peek, Self.isBare(c) {
            text.append(c)
            advance()
        }
        return String(text)
    }

    private mutating func quoted() throws -> String {
        let start = line
        advance()
        var text = String.UnicodeScalarView()
        while true {
            guard let c = peek else { throw failure(.truncated, "a string opened on line \(start) never ends") }
            advance()
            if c == "\"" { return String(text) }
            guard c == "\\" else {
                text.append(c)
                continue
            }
            guard let escaped = peek else { throw failure(.truncated, "the table ends inside an escape") }
            advance()
            switch escaped {
            case "n": text.append("\n")
            case "t": text.append("\t")
            case "r": text.append("\r")
            case "a": text.append("\u{07}")
            case "b": text.append("\u{08}")
            case "f": text.append("\u{0C}")
            case "v": text.append("\u{0B}")
            case "U", "u": try appendUnicodeEscape(to: &text)
            case "0"..."7":
                // Up to three octal digits, as in C.
                var value = escaped.value - 48
                for _ in 0..<2 {
                    guard let d = peek, ("0"..."7").contains(d) else { break }
                    value = value * 8 + d.value - 48
                    advance()
                }
                text.append(Unicode.Scalar(value) ?? "\u{FFFD}")
            default: text.append(escaped)
            }
        }
    }

    /// `\UXXXX`: four hex digits, one UTF-16 unit; a surrogate pair comes as two escapes.
    private mutating func appendUnicodeEscape(to text: inout String.UnicodeScalarView) throws {
        let unit = try hexUnit()
        if (0xD800..<0xDC00).contains(unit), pos + 1 < scalars.count, scalars[pos] == "\\", scalars[pos + 1] == "U" || scalars[pos + 1] == "u" {
            let saved = pos
            advance(); advance()
            let low = try hexUnit()
            if (0xDC00..<0xE000).contains(low) {
                text.append(Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!)
                return
            }
            pos = saved
        }
        text.append(Unicode.Scalar(unit) ?? "\u{FFFD}")
    }

    private mutating func hexUnit() throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let d = peek, let digit = Int(String(d), radix: 16) else {
                throw failure(.malformedNumber, "\\U must be followed by four hexadecimal digits")
            }
            value = value * 16 + UInt32(digit)
            advance()
        }
        return value
    }

    private func failure(_ kind: PropertyListError.Kind, _ message: String) -> PropertyListError {
        PropertyListError(kind, message, position: line, unit: .line)
    }
}
