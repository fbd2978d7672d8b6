import Foundation

/// Reads XML property lists with a tokenizer of its own for the plist subset of XML.
///
/// It never expands entities beyond XML's five predefined ones and numeric character
/// references: a DTD that declares entities is refused outright, so there is no billion-laughs
/// expansion and no external entity is ever fetched. Errors carry the 1-based line.
public enum XMLPropertyListReader {
    public static func read(_ data: Data, maxDepth: Int = PropertyListLimits.maxDepth) throws -> PropertyListValue {
        try data.withUnsafeBytes { bytes in
            var parser = XMLPropertyListParser(bytes: bytes, maxDepth: maxDepth)
            return try parser.parseDocument()
        }
    }

    /// True when, past an optional byte-order mark and whitespace, the data opens with markup.
    /// UTF-16 byte-order marks count too, so the reader can name the unsupported encoding.
    static func looksLikeXML(_ data: Data) -> Bool {
        var bytes = data[...]
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) { return true }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        return bytes.first(where: { !XMLPropertyListParser.isWhitespace($0) }) == UInt8(ascii: "<")
    }
}

/// The elements a property list may contain.
enum XMLTag: CaseIterable {
    case plist, dict, array, key, string, integer, real, date, data, `true`, `false`

    var name: String {
        switch self {
        case .plist: "plist"
        case .dict: "dict"
        case .array: "array"
        case .key: "key"
        case .string: "string"
        case .integer: "integer"
        case .real: "real"
        case .date: "date"
        case .data: "data"
        case .true: "true"
        case .false: "false"
        }
    }

    static let byName: [(tag: XMLTag, bytes: [UInt8])] = allCases.map { ($0, Array($0.name.utf8)) }
}

struct XMLPropertyListParser {
    private let bytes: UnsafeRawBufferPointer
    private let end: Int
    private let maxDepth: Int
    private var pos = 0

    init(bytes: UnsafeRawBufferPointer, maxDepth: Int) {
        self.bytes = bytes
        self.end = bytes.count
        self.maxDepth = maxDepth
    }

    private struct StartTag {
        let offset: Int
        let name: Range<Int>
        let tag: XMLTag?
        let selfClosing: Bool
    }

    // MARK: Document

    mutating func parseDocument() throws -> PropertyListValue {
        if end >= 2, (bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE) {
            throw error(.unsupportedEncoding, "UTF-16 input is not supported; property lists are read as UTF-8", at: 0)
        }
        // Checking the whole input once lets every later slice become a String without checks.
        if let bad = UTF8Validation.firstInvalidOffset(in: bytes) {
            throw error(.invalidUTF8, "byte 0x\(String(bytes[bad], radix: 16, uppercase: true)) at offset \(bad) is not valid UTF-8", at: bad)
        }
        if end >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { pos = 3 }
        try skipProlog()
        guard pos < end else { throw error(.truncated, "no <plist> element", at: pos) }
        let root = try startTag()
        guard root.tag == .plist else {
            throw error(.malformedXML, "the root element must be <plist>, not <\(text(root.name))>", at: root.offset)
        }
        guard !root.selfClosing else { throw error(.malformedXML, "<plist/> holds no value", at: root.offset) }
        try skipMisc()
        guard !atEndTag else { throw error(.malformedXML, "<plist> holds no value", at: pos) }
        let value = try parseValue(depth: 0)
        try skipMisc()
        try endTag(.plist)
        try skipMisc()
        guard pos == end else { throw error(.malformedXML, "content after </plist>", at: pos) }
        return value
    }

    /// Skips the XML declaration, comments, processing instructions and the DOCTYPE.
    private mutating func skipProlog() throws {
        while true {
            skipWhitespace()
            if starts(with: "<?") {
                try processingInstruction()
            } else if starts(with: "<!--") {
                try comment()
            } else if starts(with: "<!DOCTYPE") {
                try doctype()
            } else {
                return
            }
        }
    }

    /// The XML declaration may name an encoding; anything but UTF-8 (or its ASCII subset) is refused
    /// rather than misread.
    private mutating func processingInstruction() throws {
        let start = pos
        guard let close = find("?>", from: pos + 2) else { throw error(.truncated, "unterminated <?", at: start) }
        pos = close + 2
        let body = text(start + 2..<close)
        guard body.hasPrefix("xml"), let range = body.range(of: "encoding") else { return }
        let rest = body[range.upperBound...].drop(while: { $0 == " " || $0 == "=" || $0 == "\"" || $0 == "'" })
        let encoding = rest.prefix(while: { $0 != "\"" && $0 != "'" && $0 != " " && $0 != "?" }).lowercased()
        guard ["utf-8", "utf8", "us-ascii", "ascii"].contains(encoding) else {
            throw error(.unsupportedEncoding, "encoding \"\(encoding)\" is not supported (only UTF-8)", at: start)
        }
    }

    /// The DOCTYPE is skipped, not interpreted. Its internal subset is where entities would be
    /// declared, so any `<!ENTITY` or parameter-entity reference there is an error.
    private mutating func doctype() throws {
        let start = pos
        pos += 9
        var inSubset = false
        while pos < end {
            let b = bytes[pos]
            if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                guard let close = find(b, from: pos + 1) else { break }
                pos = close + 1
                continue
            }
            if inSubset {
                if starts(with: "<!--") { try comment(); continue }
                if starts(with: "<!ENTITY") {
                    throw error(.entityDeclaration, "the DTD declares an entity; entities are never expanded", at: pos)
                }
                if b == UInt8(ascii: "%") {
                    throw error(.entityDeclaration, "the DTD references a parameter entity; entities are never expanded",
                                at: pos)
                }
            }
            if b == UInt8(ascii: "[") { inSubset = true }
            if b == UInt8(ascii: "]") { inSubset = false }
            pos += 1
            if b == UInt8(ascii: ">"), !inSubset { return }
        }
        throw error(.truncated, "unterminated <!DOCTYPE", at: start)
    }

    // MARK: Values

    private mutating func parseValue(depth: Int) throws -> PropertyListValue {
        let open = try startTag()
        guard let tag = open.tag else {
            throw error(.unknownTag, "<\(text(open.name))> is not a property list element", at: open.offset)
        }
        switch tag {
        case .true, .false:
            if !open.selfClosing {
                skipWhitespace()
                try endTag(tag)
            }
            return .boolean(tag == .true)
        case .string:
            return .string(open.selfClosing ? "" : try characterData(tag))
        case .integer, .real, .date:
            let range = open.selfClosing ? pos..<pos : try plainText(tag)
            let trimmed = trimWhitespace(range)
            switch tag {
            case .integer: return .integer(try integer(trimmed, at: open.offset))
            case .real: return .real(try real(trimmed, at: open.offset))
            default:
                guard let date = ISO8601Date.parse(UnsafeRawBufferPointer(rebasing: bytes[trimmed])) else {
                    throw error(.malformedDate, "\"\(text(trimmed))\" is not a date of the form YYYY-MM-DDTHH:MM:SSZ",
                                at: open.offset)
                }
                return .date(date)
            }
        case .data:
            if open.selfClosing { return .data(Data()) }
            let range = try plainText(tag)
            switch Base64.decode(UnsafeRawBufferPointer(rebasing: bytes[range])) {
            case .success(let decoded): return .data(Data(decoded))
            case .failure(let failure):
                throw error(.malformedData, "<data> is not valid base64", at: range.lowerBound + failure.offset)
            }
        case .array, .dict:
            guard depth < maxDepth else {
                throw error(.tooDeep, "containers nest deeper than \(maxDepth)", at: open.offset)
            }
            if open.selfClosing { return tag == .array ? .array([]) : .dictionary([:]) }
            return tag == .array ? .array(try array(depth: depth + 1)) : try dictionary(depth: depth + 1)
        case .key:
            throw error(.malformedXML, "<key> outside a <dict>", at: open.offset)
        case .plist:
            throw error(.malformedXML, "<plist> inside <plist>", at: open.offset)
        }
    }

    private mutating func array(depth: Int) throws -> [PropertyListValue] {
        var elements = [PropertyListValue]()
        while true {
            try skipMisc()
            if atEndTag {
                try endTag(.array)
                return elements
            }
            elements.append(try parseValue(depth: depth))
        }
    }

    /// A dictionary whose only entry is `CF$UID` holding a non-negative integer is how Apple
    /// writes a UID in XML, so it is read back as one.
    private mutating func dictionary(depth: Int) throws -> PropertyListValue {
        var entries = [String: PropertyListValue]()
        while true {
            try skipMisc()
            if atEndTag {
                try endTag(.dict)
                break
            }
            let open = try startTag()
            guard open.tag == .key else {
                let kind: PropertyListError.Kind = open.tag == nil ? .unknownTag : .malformedXML
                throw error(kind, "expected <key> in <dict>, found <\(text(open.name))>", at: open.offset)
            }
            let key = open.selfClosing ? "" : try characterData(.key)
            try skipMisc()
            if atEndTag {
                throw error(.malformedXML, "<key>\(key)</key> has no value", at: pos)
            }
            guard entries.updateValue(try parseValue(depth: depth), forKey: key) == nil else {
                throw error(.duplicateKey, "key \"\(key)\" appears twice in one <dict>", at: open.offset)
            }
        }
        if entries.count == 1, case .integer(let uid)? = entries["CF$UID"], uid >= 0 {
            return .uid(UInt64(uid))
        }
        return .dictionary(entries)
    }

    private func integer(_ range: Range<Int>, at offset: Int) throws -> Int64 {
        var i = range.lowerBound
        var negative = false
        if i < range.upperBound, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        var radix: UInt64 = 10
        if i + 1 < range.upperBound, bytes[i] == UInt8(ascii: "0"), bytes[i + 1] | 0x20 == UInt8(ascii: "x") {
            radix = 16
            i += 2
        }
        guard i < range.upperBound else {
            throw error(.malformedNumber, "\"\(text(range))\" is not an integer", at: offset)
        }
        var magnitude: UInt64 = 0
        var overflow = false
        while i < range.upperBound {
            let b = bytes[i]
            let digit: UInt64
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt64(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt64(b - UInt8(ascii: "A") + 10)
            default: digit = 16
            }
            guard digit < radix else {
                throw error(.malformedNumber, "\"\(text(range))\" is not an integer", at: offset)
            }
            let (shifted, o1) = magnitude.multipliedReportingOverflow(by: radix)
            let (sum, o2) = shifted.addingReportingOverflow(digit)
            overflow = overflow || o1 || o2
            magnitude = sum
            i += 1
        }
        let limit = negative ? UInt64(Int64.max) + 1 : UInt64(Int64.max)
        guard !overflow, magnitude <= limit else {
            throw error(.integerOverflow, "\(text(range)) does not fit in a signed 64-bit integer", at: offset)
        }
        return negative ? Int64(bitPattern: 0 &- magnitude) : Int64(magnitude)
    }

    private func real(_ range: Range<Int>, at offset: Int) throws -> Double {
        guard let value = Double(text(range)) else {
            throw error(.malformedNumber, "\"\(text(range))\" is not a real number", at: offset)
        }
        return value
    }

    // MARK: Character data

    /// Text of a `<string>` or `<key>` up to its end tag, with entities, character references,
    /// CDATA sections, comments and XML's CR/CRLF-to-LF line-end normalisation handled.
    private mutating func characterData(_ tag: XMLTag) throws -> String {
        let start = pos
        while pos < end {
            let b = bytes[pos]
            if b == UInt8(ascii: "<") || b == UInt8(ascii: "&") || b == UInt8(ascii: "\r") { break }
            pos += 1
        }
        if atEndTag {
            let value = text(start..<pos)
            try endTag(tag)
            return value
        }
        var buffer = [UInt8](UnsafeRawBufferPointer(rebasing: bytes[start..<pos]))
        while true {
            guard pos < end else { throw error(.truncated, "the file ends inside <\(tag.name)>", at: pos) }
            let b = bytes[pos]
            if b == UInt8(ascii: "&") {
                try entity(into: &buffer)
            } else if b == UInt8(ascii: "\r") {
                appendNormalizingLineEnds(pos..<pos + 1, to: &buffer)
                pos += 1
            } else if b != UInt8(ascii: "<") {
                buffer.append(b)
                pos += 1
            } else if atEndTag {
                try endTag(tag)
                return String(decoding: buffer, as: UTF8.self)
            } else if starts(with: "<![CDATA[") {
                guard let close = find("]]>", from: pos + 9) else {
                    throw error(.truncated, "unterminated CDATA section", at: pos)
                }
                appendNormalizingLineEnds(pos + 9..<close, to: &buffer)
                pos = close + 3
            } else if starts(with: "<!--") {
                try comment()
            } else {
                throw error(.malformedXML, "markup inside <\(tag.name)>", at: pos)
            }
        }
    }

    private mutating func appendNormalizingLineEnds(_ range: Range<Int>, to buffer: inout [UInt8]) {
        for i in range {
            let b = bytes[i]
            if b != UInt8(ascii: "\r") {
                buffer.append(b)
            } else if i + 1 >= end || bytes[i + 1] != UInt8(ascii: "\n") {
                buffer.append(UInt8(ascii: "\n"))
            }
        }
    }

    private mutating func entity(into buffer: inout [UInt8]) throws {
        let start = pos
        guard let semicolon = find(UInt8(ascii: ";"), from: pos + 1, within: 12) else {
            throw error(.malformedXML, "'&' does not start an entity reference (write &amp;)", at: start)
        }
        let name = text(start + 1..<semicolon)
        pos = semicolon + 1
        switch name {
        case "lt": buffer.append(UInt8(ascii: "<"))
        case "gt": buffer.append(UInt8(ascii: ">"))
        case "amp": buffer.append(UInt8(ascii: "&"))
        case "quot": buffer.append(UInt8(ascii: "\""))
        case "apos": buffer.append(UInt8(ascii: "'"))
        default:
            guard name.hasPrefix("#") else {
                throw error(.unknownEntity, "&\(name); is not a predefined entity; entities are never expanded", at: start)
            }
            let hex = name.hasPrefix("#x")
            guard let code = UInt32(name.dropFirst(hex ? 2 : 1), radix: hex ? 16 : 10), code != 0,
                  let scalar = Unicode.Scalar(code)
            else {
                throw error(.malformedXML, "&\(name); is not a valid character reference", at: start)
            }
            buffer.append(contentsOf: String(Character(scalar)).utf8)
        }
    }

    /// Content of `<integer>`, `<real>`, `<date>` and `<data>`, which holds no markup.
    private mutating func plainText(_ tag: XMLTag) throws -> Range<Int> {
        let start = pos
        guard let close = find(UInt8(ascii: "<"), from: pos) else {
            throw error(.truncated, "the file ends inside <\(tag.name)>", at: pos)
        }
        pos = close
        guard atEndTag else {
            throw error(.malformedXML, "markup inside <\(tag.name)>", at: pos)
        }
        try endTag(tag)
        return start..<close
    }

    // MARK: Tokens

    private mutating func startTag() throws -> StartTag {
        let offset = pos
        guard pos < end else { throw error(.truncated, "the file ends where an element was expected", at: pos) }
        guard bytes[pos] == UInt8(ascii: "<") else {
            throw error(.malformedXML, "text where an element was expected", at: pos)
        }
        pos += 1
        let name = try nameToken()
        while true {
            skipWhitespace()
            guard pos < end else { throw error(.truncated, "the file ends inside a tag", at: pos) }
            switch bytes[pos] {
            case UInt8(ascii: ">"):
                pos += 1
                return StartTag(offset: offset, name: name, tag: tag(named: name), selfClosing: false)
            case UInt8(ascii: "/"):
                guard pos + 1 < end, bytes[pos + 1] == UInt8(ascii: ">") else {
                    throw error(.malformedXML, "'/' in a tag not followed by '>'", at: pos)
                }
                pos += 2
                return StartTag(offset: offset, name: name, tag: tag(named: name), selfClosing: true)
            default:
                try skipAttribute()
            }
        }
    }

    /// Attributes (`version` on `<plist>`) carry nothing a property list needs; they are
    /// checked for shape and skipped.
    private mutating func skipAttribute() throws {
        _ = try nameToken()
        skipWhitespace()
        guard pos < end, bytes[pos] == UInt8(ascii: "=") else {
            throw error(pos < end ? .malformedXML : .truncated, "attribute without '=' and a value", at: pos)
        }
        pos += 1
        skipWhitespace()
        guard pos < end, bytes[pos] == UInt8(ascii: "\"") || bytes[pos] == UInt8(ascii: "'") else {
            throw error(pos < end ? .malformedXML : .truncated, "attribute value not quoted", at: pos)
        }
        guard let close = find(bytes[pos], from: pos + 1) else {
            throw error(.truncated, "unterminated attribute value", at: pos)
        }
        pos = close + 1
    }

    private mutating func endTag(_ expected: XMLTag) throws {
        let offset = pos
        guard atEndTag else {
            if pos >= end { throw error(.truncated, "the file ends before </\(expected.name)>", at: pos) }
            throw error(.malformedXML, "expected </\(expected.name)>", at: pos)
        }
        pos += 2
        let name = try nameToken()
        skipWhitespace()
        guard pos < end else { throw error(.truncated, "the file ends inside </\(expected.name)>", at: pos) }
        guard bytes[pos] == UInt8(ascii: ">") else {
            throw error(.malformedXML, "unexpected character in </\(text(name))>", at: pos)
        }
        pos += 1
        guard tag(named: name) == expected else {
            throw error(.mismatchedTag, "<\(expected.name)> closed by </\(text(name))>", at: offset)
        }
    }

    private mutating func nameToken() throws -> Range<Int> {
        let start = pos
        while pos < end, Self.isNameByte(bytes[pos]) { pos += 1 }
        guard pos > start else {
            if pos >= end { throw error(.truncated, "the file ends where a name was expected", at: pos) }
            throw error(.malformedXML, "expected a name", at: pos)
        }
        return start..<pos
    }

    /// Whitespace, comments and processing instructions may sit between elements; other text
    /// may not.
    private mutating func skipMisc() throws {
        while true {
            skipWhitespace()
            if starts(with: "<!--") {
                try comment()
            } else if starts(with: "<?") {
                guard let close = find("?>", from: pos + 2) else { throw error(.truncated, "unterminated <?", at: pos) }
                pos = close + 2
            } else if pos < end, bytes[pos] != UInt8(ascii: "<") {
                throw error(.malformedXML, "text outside <string>, <key> and other value elements", at: pos)
            } else {
                return
            }
        }
    }

    private mutating func comment() throws {
        guard let close = find("-->", from: pos + 4) else { throw error(.truncated, "unterminated comment", at: pos) }
        pos = close + 3
    }

    private mutating func skipWhitespace() {
        while pos < end, Self.isWhitespace(bytes[pos]) { pos += 1 }
    }

    // MARK: Byte helpers

    private var atEndTag: Bool {
        pos + 1 < end && bytes[pos] == UInt8(ascii: "<") && bytes[pos + 1] == UInt8(ascii: "/")
    }

    private func tag(named range: Range<Int>) -> XMLTag? {
        let name = UnsafeRawBufferPointer(rebasing: bytes[range])
        for entry in XMLTag.byName where entry.bytes.count == name.count && entry.bytes.elementsEqual(name) {
            return entry.tag
        }
        return nil
    }

    private func starts(with literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard end - pos >= count else { return false }
        for i in 0..<count where bytes[pos + i] != literal.utf8Start[i] { return false }
        return true
    }

    private func find(_ byte: UInt8, from start: Int, within limit: Int = .max) -> Int? {
        var i = start
        let stop = limit == .max ? end : min(end, start + limit)
        while i < stop {
            if bytes[i] == byte { return i }
            i += 1
        }
        return nil
    }

    private func find(_ literal: StaticString, from start: Int) -> Int? {
        let first = literal.utf8Start[0]
        let count = literal.utf8CodeUnitCount
        var i = start
        while let candidate = find(first, from: i) {
            guard end - candidate >= count else { return nil }
            var matched = true
            for k in 1..<count where bytes[candidate + k] != literal.utf8Start[k] { matched = false; break }
            if matched { return candidate }
            i = candidate + 1
        }
        return nil
    }

    private func trimWhitespace(_ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, Self.isWhitespace(bytes[lower]) { lower += 1 }
        while upper > lower, Self.isWhitespace(bytes[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    private func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    static func isWhitespace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D
    }

    private static func isNameByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: ":"), 0x80...0xFF:
            return true
        default:
            return false
        }
    }

    /// Lines are counted only when an error is raised, keeping the hot path free of bookkeeping.
    private func error(_ kind: PropertyListError.Kind, _ message: String, at offset: Int) -> PropertyListError {
        var line = 1
        for i in 0..<min(offset, end) where bytes[i] == 0x0A { line += 1 }
        return PropertyListError(kind, message, position: line, unit: .line)
    }
}
