/// One XML document's UTF-8 bytes as a stream of tokens: start tags with their attributes, end
/// tags, character data and CDATA sections. References are resolved (the five predefined
/// entities and numeric character references; no other entity exists), line ends are normalised
/// to LF as XML requires, and comments, processing instructions and a DOCTYPE are skipped. It
/// knows nothing of nesting: matching end tags to start tags is `XMLWalker`'s job.
///
/// Every loop moves forward through the bytes and every token is bounded, so no input, however
/// hostile, makes it trap, hang or take more than linear time.
struct XMLScanner {
    struct Tag {
        var name: String
        var attributes: [(name: String, value: String)]
        var selfClosing: Bool
        var offset: Int
    }

    enum Token {
        case start(Tag)
        case end(name: String, offset: Int)
        case text(String, offset: Int)
        case cdata(String, offset: Int)
        case finished(offset: Int)
    }

    struct SyntaxError: Error {
        var offset: Int
        var message: String
    }

    /// Far beyond any real document's, small enough that no tag costs more than it should.
    static let maxNameLength = 1024
    static let maxAttributes = 512
    /// libxml2's own limit on a value (an image inlined as a data: URI fits).
    static let maxAttributeValueLength = 10_000_000

    private let bytes: [UInt8]
    private var position = 0
    /// An error met inside character data, raised once the text before it has been handed on.
    private var pendingError: SyntaxError?

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    }

    mutating func next() throws(SyntaxError) -> Token {
        if let pendingError { throw pendingError }
        while position < bytes.count {
            let start = position
            guard bytes[position] == UInt8(ascii: "<") else { return .text(try text(), offset: start) }
            if starts(with: "</") {
                return .end(name: try endTag(), offset: start)
            } else if starts(with: "<!--") {
                try skipComment()
            } else if starts(with: "<![CDATA[") {
                return .cdata(try cdata(), offset: start)
            } else if starts(with: "<?") {
                try skipProcessingInstruction()
            } else if starts(with: "<!DOCTYPE") {
                try skipDoctype()
            } else if starts(with: "<!") {
                throw SyntaxError(offset: start, message: "unknown markup declaration")
            } else {
                return .start(try startTag())
            }
        }
        return .finished(offset: bytes.count)
    }

    /// The 1-based line of a byte offset: LF, CR LF and a lone CR each end a line.
    func line(at offset: Int) -> Int {
        var line = 1
        var index = 0
        let end = min(offset, bytes.count)
        while index < end {
            if bytes[index] == 0x0A {
                line += 1
            } else if bytes[index] == 0x0D, index + 1 >= bytes.count || bytes[index + 1] != 0x0A {
                line += 1
            }
            index += 1
        }
        return line
    }

    /// Where the first byte that is not a blank lies, at or after `offset`.
    func firstNonBlank(from offset: Int) -> Int {
        var index = offset
        while index < bytes.count, Self.isWhitespace(bytes[index]) { index += 1 }
        return index
    }

    // MARK: Tags

    private mutating func startTag() throws(SyntaxError) -> Tag {
        let start = position
        position += 1
        let name = try self.name()
        var attributes: [(name: String, value: String)] = []
        var seen: Set<String> = []
        while true {
            let spaced = skipWhitespace()
            guard position < bytes.count else { throw SyntaxError(offset: start, message: "the document ends inside <\(clipped(name))>") }
            if bytes[position] == UInt8(ascii: ">") {
                position += 1
                return Tag(name: name, attributes: attributes, selfClosing: false, offset: start)
            }
            if starts(with: "/>") {
                position += 2
                return Tag(name: name, attributes: attributes, selfClosing: true, offset: start)
            }
            guard spaced else { throw SyntaxError(offset: position, message: "attributes of <\(clipped(name))> must be separated by blanks") }
            let attributeStart = position
            let attribute = try self.name()
            guard seen.insert(attribute).inserted else {
                throw SyntaxError(offset: attributeStart, message: "attribute \(clipped(attribute)) appears twice")
            }
            guard attributes.count < Self.maxAttributes else {
                throw SyntaxError(offset: attributeStart, message: "<\(clipped(name))> has more than \(Self.maxAttributes) attributes")
            }
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "=") else {
                throw SyntaxError(offset: position, message: "attribute \(clipped(attribute)) has no value")
            }
            position += 1
            skipWhitespace()
            attributes.append((attribute, try attributeValue()))
        }
    }

    private mutating func endTag() throws(SyntaxError) -> String {
        let start = position
        position += 2
        let name = try self.name()
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ">") else {
            throw SyntaxError(offset: start, message: "the end tag </\(clipped(name))> is not closed by >")
        }
        position += 1
        return name
    }

    /// A name: ASCII letters, digits, "_", "-", ".", ":" and anything beyond ASCII (XML allows
    /// most of it; the rest is no danger), not starting with a digit, "-" or ".".
    private mutating func name() throws(SyntaxError) -> String {
        let start = position
        guard position < bytes.count, Self.startsName(bytes[position]) else {
            throw SyntaxError(offset: start, message: "a name is expected")
        }
        position += 1
        while position < bytes.count, Self.continuesName(bytes[position]) {
            position += 1
            if position - start > Self.maxNameLength {
                throw SyntaxError(offset: start, message: "a name is longer than \(Self.maxNameLength) bytes")
            }
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    /// Attribute-value normalisation as XML does it: a literal tab, line feed or carriage return
    /// (CR LF counting once) becomes a space; the same written as a character reference stays.
    private mutating func attributeValue() throws(SyntaxError) -> String {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'") else {
            throw SyntaxError(offset: position, message: "an attribute value must be quoted")
        }
        let start = position
        let quote = bytes[position]
        position += 1
        var value: [UInt8] = []
        while true {
            guard position < bytes.count else { throw SyntaxError(offset: start, message: "the document ends inside an attribute value") }
            let byte = bytes[position]
            if byte == quote {
                position += 1
                return String(decoding: value, as: UTF8.self)
            }
            if value.count >= Self.maxAttributeValueLength {
                throw SyntaxError(offset: start, message: "an attribute value is longer than \(Self.maxAttributeValueLength) bytes")
            }
            switch byte {
            case UInt8(ascii: "<"):
                throw SyntaxError(offset: position, message: "< is not allowed in an attribute value (write &lt;)")
            case UInt8(ascii: "&"):
                try reference(into: &value)
            case 0x0D:
                value.append(0x20)
                position += bytes.indices.contains(position + 1) && bytes[position + 1] == 0x0A ? 2 : 1
            case 0x09, 0x0A:
                value.append(0x20)
                position += 1
            default:
                try checkCharacter(at: position)
                value.append(byte)
                position += 1
            }
        }
    }

    // MARK: Character data

    private mutating func text() throws(SyntaxError) -> String {
        let start = position
        var text: [UInt8] = []
        do throws(SyntaxError) {
            while position < bytes.count {
                let byte = bytes[position]
                switch byte {
                case UInt8(ascii: "<"):
                    return String(decoding: text, as: UTF8.self)
                case UInt8(ascii: "&"):
                    try reference(into: &text)
                case 0x0D:
                    text.append(0x0A)
                    position += bytes.indices.contains(position + 1) && bytes[position + 1] == 0x0A ? 2 : 1
                case UInt8(ascii: ">") where position - 2 >= start && bytes[position - 1] == UInt8(ascii: "]")
                    && bytes[position - 2] == UInt8(ascii: "]"):
                    text.removeLast(2)
                    throw SyntaxError(offset: position - 2, message: "]]> is not allowed in text")
                default:
                    try checkCharacter(at: position)
                    text.append(byte)
                    position += 1
                }
            }
        } catch {
            guard !text.isEmpty else { throw error }
            pendingError = error
        }
        return String(decoding: text, as: UTF8.self)
    }

    private mutating func cdata() throws(SyntaxError) -> String {
        let start = position
        position += 9
        guard let close = find("]]>") else { throw SyntaxError(offset: start, message: "the document ends inside a CDATA section") }
        var text: [UInt8] = []
        text.reserveCapacity(close - position)
        while position < close {
            let byte = bytes[position]
            if byte == 0x0D {
                text.append(0x0A)
                position += bytes[position + 1] == 0x0A ? 2 : 1
            } else {
                try checkCharacter(at: position)
                text.append(byte)
                position += 1
            }
        }
        position = close + 3
        return String(decoding: text, as: UTF8.self)
    }

    /// `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&#N;` and `&#xH;`; anything else is an error
    /// (named references from HTML were rewritten by `XMLSafety` before parsing).
    private mutating func reference(into output: inout [UInt8]) throws(SyntaxError) {
        let start = position
        var end = position + 1
        while end < bytes.count, end - start <= 32, bytes[end] != UInt8(ascii: ";") { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";"), end > start + 1 else {
            throw SyntaxError(offset: start, message: "& does not start a reference (write &amp;)")
        }
        let name = bytes[(start + 1)..<end]
        position = end + 1
        switch String(decoding: name, as: UTF8.self) {
        case "amp": output.append(UInt8(ascii: "&"))
        case "lt": output.append(UInt8(ascii: "<"))
        case "gt": output.append(UInt8(ascii: ">"))
        case "quot": output.append(UInt8(ascii: "\""))
        case "apos": output.append(UInt8(ascii: "'"))
        case let other where other.hasPrefix("#"):
            guard let scalar = Self.characterReference(name.dropFirst()) else {
                throw SyntaxError(offset: start, message: "&\(clipped(other)); is not a valid character reference")
            }
            output.append(contentsOf: String(Character(scalar)).utf8)
        case let other:
            throw SyntaxError(offset: start, message: "&\(clipped(other)); is not an entity XML predefines")
        }
    }

    /// The digits of `&#…;` (decimal, or hexadecimal after a lowercase x), when they name a
    /// character XML allows.
    private static func characterReference(_ digits: ArraySlice<UInt8>) -> Unicode.Scalar? {
        var digits = digits
        var radix: UInt32 = 10
        if digits.first == UInt8(ascii: "x") {
            radix = 16
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty else { return nil }
        var value: UInt32 = 0
        for byte in digits {
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: digit = UInt32(byte - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: digit = UInt32(byte - UInt8(ascii: "A")) + 10
            default: return nil
            }
            value = value * radix + digit
            if value > 0x10FFFF { return nil }
        }
        guard isXMLCharacter(value) else { return nil }
        return Unicode.Scalar(value)
    }

    /// XML's Char production: tab, LF, CR and everything from U+0020 on but the surrogates,
    /// U+FFFE and U+FFFF.
    static func isXMLCharacter(_ value: UInt32) -> Bool {
        switch value {
        case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    /// Refuses the control characters XML forbids and U+FFFE/U+FFFF (EF BF BE/BF), the only
    /// non-characters of valid UTF-8 it names; the input is otherwise valid UTF-8 already.
    private func checkCharacter(at index: Int) throws(SyntaxError) {
        let byte = bytes[index]
        if byte < 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D {
            throw SyntaxError(offset: index, message: "control character \(byte) is not allowed in XML")
        }
        if byte == 0xEF, index + 2 < bytes.count, bytes[index + 1] == 0xBF, bytes[index + 2] >= 0xBE {
            throw SyntaxError(offset: index, message: "U+FFFE and U+FFFF are not allowed in XML")
        }
    }

    // MARK: Skipped markup

    private mutating func skipComment() throws(SyntaxError) {
        let start = position
        position += 4
        guard let close = find("--") else { throw SyntaxError(offset: start, message: "the document ends inside a comment") }
        guard close + 2 < bytes.count, bytes[close + 2] == UInt8(ascii: ">") else {
            throw SyntaxError(offset: close, message: "-- is not allowed inside a comment")
        }
        for index in position..<close { try checkCharacter(at: index) }
        position = close + 3
    }

    private mutating func skipProcessingInstruction() throws(SyntaxError) {
        let start = position
        position += 2
        guard let close = find("?>") else { throw SyntaxError(offset: start, message: "the document ends inside a processing instruction") }
        position = close + 2
    }

    /// Past the internal subset ("[ … ]") and quoted strings; nothing in it is interpreted (see
    /// `XMLSafety`, which cuts a DOCTYPE out before any parsing).
    private mutating func skipDoctype() throws(SyntaxError) {
        guard let end = XMLSafety.doctypeClose(bytes, from: position) else {
            throw SyntaxError(offset: position, message: "the document ends inside its DOCTYPE")
        }
        position = end
    }

    // MARK: Bytes

    @discardableResult
    private mutating func skipWhitespace() -> Bool {
        let start = position
        while position < bytes.count, Self.isWhitespace(bytes[position]) { position += 1 }
        return position > start
    }

    private func starts(with prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        return prefix.withUTF8Buffer { pattern in
            for offset in 0..<count where bytes[position + offset] != pattern[offset] { return false }
            return true
        }
    }

    /// The first offset at or after `position` where `needle` starts.
    private func find(_ needle: StaticString) -> Int? {
        needle.withUTF8Buffer { pattern in
            guard let first = pattern.first, bytes.count >= pattern.count else { return nil }
            var index = position
            while index <= bytes.count - pattern.count {
                if bytes[index] == first, (1..<pattern.count).allSatisfy({ bytes[index + $0] == pattern[$0] }) { return index }
                index += 1
            }
            return nil
        }
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func startsName(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") || byte >= 0x80
    }

    private static func continuesName(_ byte: UInt8) -> Bool {
        startsName(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    /// Names and references quoted in a message, kept short.
    private func clipped(_ text: String) -> String {
        text.count > 40 ? String(text.prefix(40)) + "…" : text
    }
}
