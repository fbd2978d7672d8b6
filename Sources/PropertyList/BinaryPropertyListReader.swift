import FoundationEssentials

/// Reads Apple's `bplist00` format: objects, then a table of their offsets, then a 32-byte
/// trailer giving the table's place and the widths of offsets and object references.
///
/// Every offset, reference and count is checked against the file before it is used, so bad
/// input yields a `PropertyListError` naming the byte offset, never a trap or a huge allocation.
public enum BinaryPropertyListReader {
    static let magic: [UInt8] = Array("bplist".utf8)

    /// Compared in the data's own bytes: every defaults read asks this first, and a slice of
    /// `Data` compared element by element costs its generic metadata on first use.
    static func hasMagic(_ data: Data) -> Bool {
        data.withUnsafeBytes { $0.starts(with: magic) }
    }

    /// Reads a binary property list.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - limits: What the file may expand to; the default suits a file a user hands over.
    /// - Returns: The top value.
    /// - Throws: ``PropertyListError`` naming the byte offset of the first problem.
    public static func read(_ data: Data, limits: PropertyListLimits = .userFile) throws -> PropertyListValue {
        var warnings = PropertyListWarnings()
        return try read(data, limits: limits, warnings: &warnings)
    }

    /// The same, also noting what was read but is doubtful (a repeated dictionary key).
    public static func read(_ data: Data, limits: PropertyListLimits, warnings: inout PropertyListWarnings) throws
        -> PropertyListValue {
        try data.withUnsafeBytes { bytes in
            var parser = try BinaryPropertyListParser(bytes: bytes, limits: limits)
            defer { warnings.merge(parser.warnings) }
            return try parser.readTopObject()
        }
    }
}

/// How far reading an object has got.
private enum ObjectState: UInt8 {
    case unread
    /// Its elements are being read: it is on the current path.
    case reading
    case read
}

private struct BinaryPropertyListParser {
    private let bytes: UnsafeRawBufferPointer
    private let limits: PropertyListLimits
    private let offsetIntSize: Int
    private let objectRefSize: Int
    private let objectCount: Int
    private let topObject: Int
    /// Where the offset table starts, which is also where object data must end.
    private let offsetTableStart: Int
    /// Decoded objects by index, each with its expanded footprint. Keeping them means an object
    /// referenced many times is decoded once and shared (Swift's copy-on-write storage), and its
    /// footprint is added at every use, so the expanded size of the whole value is known, and
    /// checked against the limits, after work proportional to the file rather than the expansion.
    /// Kept as plain arrays, not optional tuples, which the runtime destroys element by element
    /// through generic tuple metadata: for a file of a million objects that was a real cost.
    private var values: [PropertyListValue]
    private var footprints: [PropertyListFootprint]
    /// Where each object stands; meeting one being read means a reference cycle.
    private var states: [ObjectState]
    private var distinctObjects = 0
    private(set) var warnings = PropertyListWarnings()

    init(bytes: UnsafeRawBufferPointer, limits: PropertyListLimits) throws {
        self.bytes = bytes
        self.limits = limits
        let count = bytes.count
        let magic = BinaryPropertyListReader.magic
        guard count >= 8 else {
            if count < magic.count || !zip(bytes, magic).allSatisfy({ $0 == $1 }) {
                throw Self.error(.badMagic, "file does not start with \"bplist00\"", at: 0)
            }
            throw Self.error(.truncated, "file ends inside the 8-byte header", at: count)
        }
        guard zip(bytes.prefix(6), magic).allSatisfy({ $0 == $1 }) else {
            throw Self.error(.badMagic, "file does not start with \"bplist\"", at: 0)
        }
        guard bytes[6] == UInt8(ascii: "0"), bytes[7] == UInt8(ascii: "0") else {
            let version = String(decoding: bytes[6..<8], as: UTF8.self)
            throw Self.error(.unsupportedVersion, "version \"\(version)\" is not supported (only \"00\")", at: 6)
        }
        // Header, at least one one-byte object, a one-byte offset table, and the trailer.
        guard count >= 8 + 1 + 1 + 32 else {
            throw Self.error(.truncated, "\(count) bytes is too short to hold a trailer", at: count)
        }
        let trailer = count - 32
        offsetIntSize = Int(bytes[trailer + 6])
        objectRefSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetIntSize) else {
            throw Self.error(.badTrailer, "offset size \(offsetIntSize) is not 1 to 8 bytes", at: trailer + 6)
        }
        guard (1...8).contains(objectRefSize) else {
            throw Self.error(.badTrailer, "object reference size \(objectRefSize) is not 1 to 8 bytes", at: trailer + 7)
        }
        let rawCount = Self.readUInt(bytes, at: trailer + 8, size: 8)
        let rawTop = Self.readUInt(bytes, at: trailer + 16, size: 8)
        let rawTable = Self.readUInt(bytes, at: trailer + 24, size: 8)
        guard rawCount >= 1 else {
            throw Self.error(.badTrailer, "the trailer declares no objects", at: trailer + 8)
        }
        // Each object needs at least a byte of data and a table entry of offsetIntSize bytes.
        guard rawCount <= UInt64(trailer - 8) / UInt64(1 + offsetIntSize) else {
            throw Self.error(.countTooLarge, "\(rawCount) objects cannot fit in a \(count)-byte file", at: trailer + 8)
        }
        objectCount = Int(rawCount)
        guard rawTable >= 9, rawTable <= UInt64(trailer - objectCount * offsetIntSize) else {
            throw Self.error(.offsetOutOfRange,
                             "offset table at \(rawTable) with \(objectCount) entries does not fit between header and trailer",
                             at: trailer + 24)
        }
        offsetTableStart = Int(rawTable)
        guard rawTop < rawCount else {
            throw Self.error(.referenceOutOfRange, "top object \(rawTop) is not below the object count \(objectCount)",
                             at: trailer + 16)
        }
        topObject = Int(rawTop)
        values = Array(repeating: .boolean(false), count: objectCount)
        footprints = Array(repeating: PropertyListFootprint(), count: objectCount)
        states = Array(repeating: .unread, count: objectCount)
    }

    mutating func readTopObject() throws -> PropertyListValue {
        try object(topObject, depth: 0).value
    }

    // MARK: Objects

    /// The object at `index`, met inside `depth` containers, with its expanded footprint.
    private mutating func object(_ index: Int, depth: Int) throws -> (value: PropertyListValue, footprint: PropertyListFootprint) {
        if states[index] == .read {
            guard depth + footprints[index].height <= limits.maxDepth else {
                throw Self.error(.tooDeep, limits.depthMessage, at: try offset(of: index))
            }
            return (values[index], footprints[index])
        }
        let start = try offset(of: index)
        distinctObjects += 1
        guard distinctObjects <= limits.maxObjects else {
            throw Self.error(.limitExceeded, "holds more than \(MessageText.grouped(limits.maxObjects)) distinct objects", at: start)
        }
        let marker = bytes[start]
        let low = Int(marker & 0x0F)
        let value: PropertyListValue
        var footprint: PropertyListFootprint?
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: value = .boolean(false)
            case 0x09: value = .boolean(true)
            default:
                throw Self.error(.unsupportedObject, "marker 0x\(Self.hex(marker)) (null or fill) has no value", at: start)
            }
        case 0x1: value = try integer(at: start, sizeExponent: low)
        case 0x2:
            guard low == 2 || low == 3 else {
                throw Self.error(.unsupportedObject, "real of \(1 << min(low, 15)) bytes (only 4 or 8)", at: start)
            }
            let size = 1 << low
            try need(size, after: start)
            let raw = Self.readUInt(bytes, at: start + 1, size: size)
            value = .real(size == 4 ? Double(Float(bitPattern: UInt32(raw))) : Double(bitPattern: raw))
        case 0x3:
            guard marker == 0x33 else {
                throw Self.error(.unsupportedObject, "marker 0x\(Self.hex(marker)) is not a date (0x33)", at: start)
            }
            try need(8, after: start)
            value = .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: Self.readUInt(bytes, at: start + 1, size: 8))))
        case 0x4:
            let (count, body) = try length(at: start, low: low, unitSize: 1)
            // From the raw pointer: built from a slice, `Data` takes a generic path per object.
            value = .data(count == 0 ? Data() : Data(bytes: bytes.baseAddress! + body, count: count))
        case 0x5:
            let (count, body) = try length(at: start, low: low, unitSize: 1)
            value = .string(try ascii(body, count: count))
        case 0x6:
            let (count, body) = try length(at: start, low: low, unitSize: 2)
            value = .string(try utf16(body, count: count))
        case 0x8:
            let size = low + 1
            guard size <= 8 else {
                throw Self.error(.integerOverflow, "UID of \(size) bytes does not fit in 64 bits", at: start)
            }
            try need(size, after: start)
            value = .uid(Self.readUInt(bytes, at: start + 1, size: size))
        case 0xA, 0xD:
            guard depth < limits.maxDepth else {
                throw Self.error(.tooDeep, limits.depthMessage, at: start)
            }
            guard states[index] != .reading else {
                throw Self.error(.referenceCycle, "object \(index) contains itself", at: start)
            }
            states[index] = .reading
            defer { states[index] = .unread }
            if marker >> 4 == 0xA {
                let (count, body) = try length(at: start, low: low, unitSize: objectRefSize)
                let (elements, size) = try array(body, count: count, depth: depth + 1, at: start)
                (value, footprint) = (.array(elements), size)
            } else {
                let (count, body) = try length(at: start, low: low, unitSize: 2 * objectRefSize)
                let (entries, size) = try dictionary(body, count: count, depth: depth + 1, at: start)
                (value, footprint) = (.dictionary(entries), size)
            }
        default:
            throw Self.error(.unsupportedObject,
                             "marker 0x\(Self.hex(marker)) is not a supported object (sets and unknown types are refused)",
                             at: start)
        }
        let size = footprint ?? .of(value)
        if let problem = limits.problem(with: size) { throw Self.error(.limitExceeded, problem, at: start) }
        values[index] = value
        footprints[index] = size
        states[index] = .read
        return (value, size)
    }

    /// Where object `index` starts, checked to lie in the object area.
    private func offset(of index: Int) throws -> Int {
        let tablePosition = offsetTableStart + index * offsetIntSize
        let rawOffset = Self.readUInt(bytes, at: tablePosition, size: offsetIntSize)
        guard rawOffset >= 8, rawOffset < UInt64(offsetTableStart) else {
            throw Self.error(.offsetOutOfRange,
                             "object \(index) has offset \(rawOffset), outside the object area 8..<\(offsetTableStart)",
                             at: tablePosition)
        }
        return Int(rawOffset)
    }

    /// Integers of 1, 2 and 4 bytes are unsigned, 8 bytes signed two's complement. Apple writes
    /// 16 bytes, high half zero, for values above Int64.max; reading any 16-byte integer, CF
    /// keeps only the low 64 bits and takes them as unsigned (its 128-bit number gets a zero
    /// high half whatever the file holds), so we read them the same way: a file means what it
    /// means to Apple's own readers, and so writes back to the number they would write.
    private func integer(at start: Int, sizeExponent: Int) throws -> PropertyListValue {
        guard sizeExponent <= 4 else {
            throw Self.error(.unsupportedObject, "integer of 2^\(sizeExponent) bytes (at most 16)", at: start)
        }
        let size = 1 << sizeExponent
        try need(size, after: start)
        if size <= 8 {
            let raw = Self.readUInt(bytes, at: start + 1, size: size)
            return .integer(size == 8 ? Int64(bitPattern: raw) : Int64(raw))
        }
        return .integer(unsigned: Self.readUInt(bytes, at: start + 9, size: 8))
    }

    /// Reads an object's element count — in the marker's low nibble, or, when that is 0xF, in
    /// an integer object that follows — and checks the elements fit before the offset table.
    private func length(at start: Int, low: Int, unitSize: Int) throws -> (count: Int, body: Int) {
        var count = low
        var body = start + 1
        if low == 0xF {
            guard body < offsetTableStart else {
                throw Self.error(.truncated, "object ends before its length", at: body)
            }
            let lengthMarker = bytes[body]
            guard lengthMarker >> 4 == 0x1, lengthMarker & 0x0F <= 3 else {
                throw Self.error(.unsupportedObject, "length marker 0x\(Self.hex(lengthMarker)) is not an integer of 1 to 8 bytes",
                                 at: body)
            }
            let size = 1 << Int(lengthMarker & 0x0F)
            try need(size, after: body)
            let raw = Self.readUInt(bytes, at: body + 1, size: size)
            body += 1 + size
            guard raw <= UInt64(offsetTableStart - body) / UInt64(unitSize) else {
                throw Self.error(.countTooLarge, "count \(Int64(bitPattern: raw)) does not fit in the file", at: start)
            }
            count = Int(raw)
        }
        guard count * unitSize <= offsetTableStart - body else {
            throw Self.error(.countTooLarge, "count \(count) does not fit in the file", at: start)
        }
        return (count, body)
    }

    /// Elements and their summed footprint, checked after each one so that the first element
    /// past a limit stops the read (and the sums stay far from overflowing).
    private mutating func array(_ body: Int, count: Int, depth: Int, at start: Int) throws
        -> ([PropertyListValue], PropertyListFootprint) {
        var elements = [PropertyListValue]()
        elements.reserveCapacity(count)
        var size = PropertyListFootprint(elements: 1, height: 1)
        for i in 0..<count {
            let element = try object(try reference(at: body + i * objectRefSize), depth: depth)
            elements.append(element.value)
            try add(element.footprint, to: &size, at: start)
        }
        return (elements, size)
    }

    private mutating func dictionary(_ body: Int, count: Int, depth: Int, at start: Int) throws
        -> ([String: PropertyListValue], PropertyListFootprint) {
        var result = [String: PropertyListValue](minimumCapacity: count)
        var size = PropertyListFootprint(elements: 1, height: 1)
        let valuesStart = body + count * objectRefSize
        for i in 0..<count {
            let keyPosition = body + i * objectRefSize
            let keyIndex = try reference(at: keyPosition)
            guard case .string(let key) = try object(keyIndex, depth: depth).value else {
                throw Self.error(.invalidKey, "dictionary key (object \(keyIndex)) is not a string", at: keyPosition)
            }
            let value = try object(try reference(at: valuesStart + i * objectRefSize), depth: depth)
            // As in XML, and as CF and plistlib read binary files: the last of a repeated key wins.
            if result.updateValue(value.value, forKey: key) != nil {
                warnings.note(Self.error(.duplicateKey, "dictionary key \"\(MessageText.excerpt(key))\" appears twice; the last is kept",
                                         at: keyPosition))
            }
            try add(PropertyListFootprint(stringBytes: key.utf8.count), to: &size, at: start)
            try add(value.footprint, to: &size, at: start)
        }
        return (result, size)
    }

    private func add(_ child: PropertyListFootprint, to size: inout PropertyListFootprint, at start: Int) throws {
        size.add(child)
        if let problem = limits.problem(with: size) { throw Self.error(.limitExceeded, problem, at: start) }
    }

    private func reference(at position: Int) throws -> Int {
        let raw = Self.readUInt(bytes, at: position, size: objectRefSize)
        guard raw < UInt64(objectCount) else {
            throw Self.error(.referenceOutOfRange, "object reference \(raw) is not below the object count \(objectCount)",
                             at: position)
        }
        return Int(raw)
    }

    // MARK: Strings

    private func ascii(_ body: Int, count: Int) throws -> String {
        let slice = UnsafeRawBufferPointer(rebasing: bytes[body..<body + count])
        // Checked and copied by the standard library in one fast pass (a restored 10 MB draft is
        // one such string); the bad byte is looked for only to name it.
        if let text = String(validating: slice, as: Unicode.ASCII.self) { return text }
        let bad = slice.firstIndex(where: { $0 >= 0x80 }) ?? 0
        throw Self.error(.invalidASCII, "byte 0x\(Self.hex(slice[bad])) in an ASCII string", at: body + bad)
    }

    /// UTF-16BE with every surrogate checked for its partner: `String(decoding:)` would quietly
    /// substitute U+FFFD, turning corrupt input into different data. Transcoded to UTF-8 in one
    /// pass into the string's own storage, as the standard library's generic decoding of UTF-16
    /// was the largest cost of reading a file of non-ASCII text.
    private func utf16(_ body: Int, count: Int) throws -> String {
        guard count > 0 else { return "" }
        var failure: (message: String, offset: Int)?
        let text = String(unsafeUninitializedCapacity: count * 3) { utf8 in
            var i = 0
            var o = 0
            while i < count {
                let unit = unit16(at: body + 2 * i)
                if unit < 0x80 {
                    utf8[o] = UInt8(unit)
                    o += 1
                } else if unit < 0x800 {
                    utf8[o] = UInt8(0xC0 | unit >> 6)
                    utf8[o + 1] = UInt8(0x80 | unit & 0x3F)
                    o += 2
                } else if unit & 0xFC00 == 0xD800 {
                    guard i + 1 < count else {
                        failure = ("high surrogate at the end of a string", body + 2 * i)
                        return 0
                    }
                    let next = unit16(at: body + 2 * i + 2)
                    guard next & 0xFC00 == 0xDC00 else {
                        failure = ("high surrogate not followed by a low surrogate", body + 2 * i)
                        return 0
                    }
                    let scalar = 0x10000 + ((unit - 0xD800) << 10) + (next - 0xDC00)
                    utf8[o] = UInt8(0xF0 | scalar >> 18)
                    utf8[o + 1] = UInt8(0x80 | scalar >> 12 & 0x3F)
                    utf8[o + 2] = UInt8(0x80 | scalar >> 6 & 0x3F)
                    utf8[o + 3] = UInt8(0x80 | scalar & 0x3F)
                    o += 4
                    i += 1
                } else if unit & 0xFC00 == 0xDC00 {
                    failure = ("low surrogate without a high surrogate", body + 2 * i)
                    return 0
                } else {
                    utf8[o] = UInt8(0xE0 | unit >> 12)
                    utf8[o + 1] = UInt8(0x80 | unit >> 6 & 0x3F)
                    utf8[o + 2] = UInt8(0x80 | unit & 0x3F)
                    o += 3
                }
                i += 1
            }
            return o
        }
        if let failure { throw Self.error(.invalidUTF16, failure.message, at: failure.offset) }
        return text
    }

    @inline(__always)
    private func unit16(at position: Int) -> UInt32 {
        UInt32(bytes[position]) << 8 | UInt32(bytes[position + 1])
    }

    // MARK: Helpers

    private func need(_ size: Int, after marker: Int) throws {
        guard size <= offsetTableStart - marker - 1 else {
            throw Self.error(.truncated, "object needs \(size) bytes after its marker but the object area ends",
                             at: marker)
        }
    }

    private static func readUInt(_ bytes: UnsafeRawBufferPointer, at position: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for i in position..<position + size { value = value << 8 | UInt64(bytes[i]) }
        return value
    }

    private static func hex(_ byte: UInt8) -> String {
        String(byte, radix: 16, uppercase: true)
    }

    private static func error(_ kind: PropertyListError.Kind, _ message: String, at offset: Int) -> PropertyListError {
        PropertyListError(kind, message, position: offset, unit: .byteOffset)
    }
}
