import FoundationEssentials

/// Reads XML property lists with a tokenizer of its own for the plist subset of XML.
///
/// It never expands entities beyond XML's five predefined ones and numeric character
/// references: a DTD that declares entities is refused outright, so there is no billion-laughs
/// expansion and no external entity is ever fetched. Errors carry the 1-based line.
public enum XMLPropertyListReader {
    /// Reads an XML property list, in UTF-8.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - limits: What the file may expand to; the default suits a file a user hands over.
    /// - Returns: The top value.
    /// - Throws: ``PropertyListError`` naming the line of the first problem.
    public static func read(_ data: Data, limits: PropertyListLimits = .userFile) throws -> PropertyListValue {
        var warnings = PropertyListWarnings()
        return try read(data, limits: limits, warnings: &warnings)
    }

    /// The same, also noting what was read but is doubtful (a repeated dictionary key).
    public static func read(_ data: Data, limits: PropertyListLimits, warnings: inout PropertyListWarnings) throws
        -> PropertyListValue {
        try data.withUnsafeBytes { bytes in
            var parser = XMLPropertyListParser(bytes: bytes, limits: limits)
            defer { warnings.merge(parser.warnings) }
            return try parser.parseDocument()
        }
    }

    /// True when, past an optional byte-order mark and whitespace, the data opens with markup.
    /// UTF-16 byte-order marks count too, so the reader can name the unsupported encoding.
    static func looksLikeXML(_ data: Data) -> Bool {
        data.withUnsafeBytes { whole in
            var bytes = whole[...]
            if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) { return true }
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
            return bytes.first(where: { !XMLPropertyListParser.isWhitespace($0) }) == UInt8(ascii: "<")
        }
    }
}

/// The elements a property list may contain.
enum XMLTag: UInt8, CaseIterable {
    case plist, dict, array, key, string, integer, real, date, data, `true`, `false`

    /// The element's name, kept in the binary: a tag is matched without building a table.
    var literal: StaticString {
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

    var name: String { literal.description }

    /// The element with this name, if a property list has one.
    static func named(_ name: UnsafeRawBufferPointer) -> XMLTag? {
        var raw: UInt8 = 0
        while let tag = XMLTag(rawValue: raw) {
            let literal = tag.literal
            if literal.utf8CodeUnitCount == name.count,
               UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount).elementsEqual(name) {
                return tag
            }
            raw += 1
        }
        return nil
    }
}

struct XMLPropertyListParser {
    let bytes: UnsafeRawBufferPointer
    let end: Int
    let limits: PropertyListLimits
    /// XML has no references, so every element counts once, as it is read.
    var budget: PropertyListBudget
    var warnings = PropertyListWarnings()
    var pos = 0

    init(bytes: UnsafeRawBufferPointer, limits: PropertyListLimits) {
        self.bytes = bytes
        self.end = bytes.count
        self.limits = limits
        self.budget = PropertyListBudget(limits)
    }

    struct StartTag {
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
            throw error(.malformedXML, "the root element must be <plist>, not <\(excerpt(root.name))>", at: root.offset)
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

    // MARK: Values

    private mutating func parseValue(depth: Int) throws -> PropertyListValue {
        let open = try startTag()
        let value = try parseValue(open, depth: depth)
        switch value {
        case .array, .dictionary, .uid: break  // charged when they opened
        default: try charge(.of(value), at: open.offset)
        }
        return value
    }

    /// Charges one element to the budget; a container is charged when it opens, with its
    /// children charged as they are read.
    private mutating func charge(_ footprint: PropertyListFootprint, at offset: Int) throws {
        if let problem = budget.charge(footprint) { throw error(.limitExceeded, problem, at: offset) }
        if let problem = budget.chargeObject() { throw error(.limitExceeded, problem, at: offset) }
    }

    private mutating func parseValue(_ open: StartTag, depth: Int) throws -> PropertyListValue {
        guard let tag = open.tag else {
            throw error(.unknownTag, "<\(excerpt(open.name))> is not a property list element", at: open.offset)
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
            case .integer: return try integer(trimmed, at: open.offset)
            case .real: return .real(try real(trimmed, at: open.offset))
            default:
                guard let date = ISO8601Date.parse(UnsafeRawBufferPointer(rebasing: bytes[trimmed])) else {
                    throw error(.malformedDate, "\"\(excerpt(trimmed))\" is not a date of the form YYYY-MM-DDTHH:MM:SSZ",
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
            guard depth < limits.maxDepth else {
                throw error(.tooDeep, limits.depthMessage, at: open.offset)
            }
            // Charged here as an empty container, so its children are counted as they come.
            try charge(.of(.array([])), at: open.offset)
            let value: PropertyListValue
            if open.selfClosing {
                value = tag == .array ? .array([]) : .dictionary([:])
            } else {
                value = tag == .array ? .array(try array(depth: depth + 1)) : try dictionary(depth: depth + 1)
            }
            return value
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
                throw error(kind, "expected <key> in <dict>, found <\(excerpt(open.name))>", at: open.offset)
            }
            let key = open.selfClosing ? "" : try characterData(.key)
            try charge(PropertyListFootprint(stringBytes: key.utf8.count), at: open.offset)
            try skipMisc()
            if atEndTag {
                throw error(.malformedXML, "<key>\(MessageText.excerpt(key))</key> has no value", at: pos)
            }
            // CF, plistlib and go-plist all keep the last of a repeated key; so do we, and say so.
            if entries.updateValue(try parseValue(depth: depth), forKey: key) != nil {
                warnings.note(error(.duplicateKey, "key \"\(MessageText.excerpt(key))\" appears twice in one <dict>; the last is kept",
                                    at: open.offset))
            }
        }
        if entries.count == 1, case .integer(let uid)? = entries["CF$UID"], uid >= 0 {
            return .uid(UInt64(uid))
        }
        return .dictionary(entries)
    }

    /// Int64.min...UInt64.max, the range CF reads and writes; decimal or 0x hexadecimal.
    private func integer(_ range: Range<Int>, at offset: Int) throws -> PropertyListValue {
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
            throw error(.malformedNumber, "\"\(excerpt(range))\" is not an integer", at: offset)
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
                throw error(.malformedNumber, "\"\(excerpt(range))\" is not an integer", at: offset)
            }
            let (shifted, o1) = magnitude.multipliedReportingOverflow(by: radix)
            let (sum, o2) = shifted.addingReportingOverflow(digit)
            overflow = overflow || o1 || o2
            magnitude = sum
            i += 1
        }
        guard !overflow, !negative || magnitude <= Int64.min.magnitude else {
            throw error(.integerOverflow, "\(excerpt(range)) lies outside \(Int64.min)...\(UInt64.max)", at: offset)
        }
        return negative ? .integer(Int64(bitPattern: 0 &- magnitude)) : .integer(unsigned: magnitude)
    }

    private func real(_ range: Range<Int>, at offset: Int) throws -> Double {
        guard let value = Double(text(range)) else {
            throw error(.malformedNumber, "\"\(excerpt(range))\" is not a real number", at: offset)
        }
        return value
    }

    /// Lines are counted only when an error is raised, keeping the hot path free of bookkeeping.
    func error(_ kind: PropertyListError.Kind, _ message: String, at offset: Int) -> PropertyListError {
        var line = 1
        for i in 0..<min(offset, end) where bytes[i] == 0x0A { line += 1 }
        return PropertyListError(kind, message, position: line, unit: .line)
    }
}
