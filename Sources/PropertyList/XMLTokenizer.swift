/// The byte-level half of the XML reader: prolog, tags, character data and the scanning
/// helpers the value parser in XMLPropertyListReader.swift is built on.
extension XMLPropertyListParser {
    // MARK: Prolog

    /// Skips the XML declaration, comments, processing instructions and the DOCTYPE.
    mutating func skipProlog() throws {
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
        guard starts(with: "<?xml", at: start) else { return }
        // Found among the bytes (a string search costs a first launch more than the file), as
        // Characters only when a non-ASCII neighbour could join the word to another character.
        guard let found = find("encoding", from: start + 2, before: close) else { return }
        let afterWord: Substring
        if bytes[found - 1] < 0x80 && (found + 8 == close || bytes[found + 8] < 0x80) {
            afterWord = Substring(text(found + 8..<close))
        } else {
            let body = text(start + 2..<close)
            guard let range = body.firstRange(of: "encoding") else { return }
            afterWord = body[range.upperBound...]
        }
        let rest = afterWord.drop(while: { $0 == " " || $0 == "=" || $0 == "\"" || $0 == "'" })
        let encoding = rest.prefix(while: { $0 != "\"" && $0 != "'" && $0 != " " && $0 != "?" }).lowercased()
        guard ["utf-8", "utf8", "us-ascii", "ascii"].contains(encoding) else {
            throw error(.unsupportedEncoding, "encoding \"\(MessageText.excerpt(encoding))\" is not supported (only UTF-8)", at: start)
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

    // MARK: Character data

    /// Text of a `<string>` or `<key>` up to its end tag, with entities, character references,
    /// CDATA sections, comments and XML's CR/CRLF-to-LF line-end normalisation handled.
    mutating func characterData(_ tag: XMLTag) throws -> String {
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
    mutating func plainText(_ tag: XMLTag) throws -> Range<Int> {
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

    mutating func startTag() throws -> StartTag {
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

    mutating func endTag(_ expected: XMLTag) throws {
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
            throw error(.malformedXML, "unexpected character in </\(excerpt(name))>", at: pos)
        }
        pos += 1
        guard tag(named: name) == expected else {
            throw error(.mismatchedTag, "<\(expected.name)> closed by </\(excerpt(name))>", at: offset)
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
    mutating func skipMisc() throws {
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

    mutating func skipWhitespace() {
        while pos < end, Self.isWhitespace(bytes[pos]) { pos += 1 }
    }

    // MARK: Byte helpers

    var atEndTag: Bool {
        pos + 1 < end && bytes[pos] == UInt8(ascii: "<") && bytes[pos + 1] == UInt8(ascii: "/")
    }

    private func tag(named range: Range<Int>) -> XMLTag? {
        XMLTag.named(UnsafeRawBufferPointer(rebasing: bytes[range]))
    }

    private func starts(with literal: StaticString) -> Bool { starts(with: literal, at: pos) }

    private func starts(with literal: StaticString, at offset: Int) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard end - offset >= count else { return false }
        for i in 0..<count where bytes[offset + i] != literal.utf8Start[i] { return false }
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

    /// Where `literal` starts at or after `start`, wholly before `limit` (the end by default).
    private func find(_ literal: StaticString, from start: Int, before limit: Int? = nil) -> Int? {
        let first = literal.utf8Start[0]
        let count = literal.utf8CodeUnitCount
        let stop = min(limit ?? end, end)
        var i = start
        while let candidate = find(first, from: i) {
            guard stop - candidate >= count else { return nil }
            var matched = true
            for k in 1..<count where bytes[candidate + k] != literal.utf8Start[k] { matched = false; break }
            if matched { return candidate }
            i = candidate + 1
        }
        return nil
    }

    func trimWhitespace(_ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, Self.isWhitespace(bytes[lower]) { lower += 1 }
        while upper > lower, Self.isWhitespace(bytes[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    /// Input quoted in a message: at most a message excerpt's length, cut with "…".
    func excerpt(_ range: Range<Int>) -> String {
        let shown = range.lowerBound..<min(range.upperBound, range.lowerBound + 4 * MessageText.excerptLength)
        let quoted = MessageText.excerpt(text(shown))
        return shown == range || quoted.hasSuffix("…") ? quoted : quoted + "…"
    }

    func text(_ range: Range<Int>) -> String {
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
}
