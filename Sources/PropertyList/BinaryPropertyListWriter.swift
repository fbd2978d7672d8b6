import FoundationEssentials

/// Writes `bplist00`. Equal strings, numbers, dates, data and UIDs are stored once (as Apple
/// does), dictionary keys are sorted by code point so equal values give identical bytes, and
/// offsets and references use the fewest bytes that hold the largest one.
public enum BinaryPropertyListWriter {
    /// The `bplist00` bytes of `value`.
    ///
    /// - Throws: ``PropertyListError`` for a value no property list may hold: containers nested
    ///   deeper than ``PropertyListLimits/deepestNesting``, or a date that is not finite or outside
    ///   years 0...9999 (see ``PropertyListValue/storageProblem``).
    public static func data(from value: PropertyListValue) throws -> Data {
        var flattener = ObjectFlattener()
        let top = try flattener.add(value, depth: 0)
        return Data(ObjectTableWriter(objects: flattener.objects).write(top: top))
    }
}

/// One entry of the object table: a scalar, or a container holding object indices.
private enum FlatObject {
    case scalar(PropertyListValue)
    case array([Int])
    case dictionary(keys: [Int], values: [Int])
}

/// Uniquing key for scalars. Strings compare by UTF-8 bytes and doubles by bit pattern, since
/// Swift's `==` would merge canonically equivalent strings and 0.0 with -0.0 and so change data.
private enum ScalarKey: Hashable {
    case string(ExactString)
    case integer(Int64)
    case unsignedInteger(UInt64)
    case real(UInt64)
    case date(UInt64)
    case data(Data)
    case uid(UInt64)
    case boolean(Bool)
}

private struct ExactString: Hashable {
    let value: String

    static func == (a: ExactString, b: ExactString) -> Bool {
        a.value.utf8.elementsEqual(b.value.utf8)
    }

    func hash(into hasher: inout Hasher) {
        var copy = value
        copy.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

private struct ObjectFlattener {
    var objects: [FlatObject] = []
    private var uniqued: [ScalarKey: Int] = [:]

    mutating func add(_ value: PropertyListValue, depth: Int) throws -> Int {
        switch value {
        case .array(let elements):
            try checkDepth(depth)
            let index = reserve()
            var refs = [Int]()
            refs.reserveCapacity(elements.count)
            for element in elements { refs.append(try add(element, depth: depth + 1)) }
            objects[index] = .array(refs)
            return index
        case .dictionary(let dictionary):
            try checkDepth(depth)
            let index = reserve()
            let entries = sortedEntries(dictionary)
            var keys = [Int]()
            var values = [Int]()
            keys.reserveCapacity(entries.count)
            values.reserveCapacity(entries.count)
            for entry in entries { keys.append(try scalar(.string(entry.key))) }
            for entry in entries { values.append(try add(entry.value, depth: depth + 1)) }
            objects[index] = .dictionary(keys: keys, values: values)
            return index
        default:
            return try scalar(value)
        }
    }

    private func checkDepth(_ depth: Int) throws {
        guard depth < PropertyListLimits.deepestNesting else { throw nestedTooDeep() }
    }

    private mutating func reserve() -> Int {
        objects.append(.array([]))
        return objects.count - 1
    }

    private mutating func scalar(_ value: PropertyListValue) throws -> Int {
        let key: ScalarKey
        switch value {
        case .string(let s): key = .string(ExactString(value: s))
        case .integer(let i): key = .integer(i)
        case .unsignedInteger(let u): key = .unsignedInteger(u)
        case .real(let r): key = .real(r.bitPattern)
        case .date(let d):
            // The format holds any double, but a date XML cannot hold would make the file
            // unconvertible and a NaN date is no date at all; both writers refuse the same dates.
            guard ISO8601Date.format(d) != nil else { throw unwritableDate(d) }
            key = .date(d.timeIntervalSinceReferenceDate.bitPattern)
        case .data(let d): key = .data(d)
        case .uid(let u): key = .uid(u)
        case .boolean(let b): key = .boolean(b)
        case .array, .dictionary: preconditionFailure("containers are flattened by add(_:depth:)")
        }
        if let index = uniqued[key] { return index }
        objects.append(.scalar(value))
        uniqued[key] = objects.count - 1
        return objects.count - 1
    }
}

/// Entries sorted by key in Unicode code point (UTF-8 byte) order, the order plistlib uses,
/// rather than Swift's `<`, which compares canonical forms and so can tie distinct keys.
func sortedEntries(_ dictionary: [String: PropertyListValue]) -> [(key: String, value: PropertyListValue)] {
    var order = DictionaryKeyOrder()
    return order.sort(dictionary).map { dictionary[order[$0]] }
}

private struct ObjectTableWriter {
    let objects: [FlatObject]
    private var out: [UInt8] = []
    private let refSize: Int

    init(objects: [FlatObject]) {
        self.objects = objects
        refSize = Self.byteWidth(UInt64(objects.count - 1))
    }

    consuming func write(top: Int) -> [UInt8] {
        out.reserveCapacity(objects.count * 8 + 64)
        out.append(contentsOf: BinaryPropertyListReader.magic)
        out.append(contentsOf: "00".utf8)
        var offsets = [Int]()
        offsets.reserveCapacity(objects.count)
        for object in objects {
            offsets.append(out.count)
            write(object)
        }
        let tableStart = out.count
        let offsetSize = Self.byteWidth(UInt64(offsets.last ?? 0))
        for offset in offsets { appendUInt(UInt64(offset), size: offsetSize) }
        out.append(contentsOf: [0, 0, 0, 0, 0, 0])  // unused bytes and sort version
        out.append(UInt8(offsetSize))
        out.append(UInt8(refSize))
        appendUInt(UInt64(objects.count), size: 8)
        appendUInt(UInt64(top), size: 8)
        appendUInt(UInt64(tableStart), size: 8)
        return out
    }

    private mutating func write(_ object: FlatObject) {
        switch object {
        case .array(let refs):
            appendHeader(0xA, count: refs.count)
            for ref in refs { appendUInt(UInt64(ref), size: refSize) }
        case .dictionary(let keys, let values):
            appendHeader(0xD, count: keys.count)
            for ref in keys { appendUInt(UInt64(ref), size: refSize) }
            for ref in values { appendUInt(UInt64(ref), size: refSize) }
        case .scalar(let value):
            write(value)
        }
    }

    private mutating func write(_ value: PropertyListValue) {
        switch value {
        case .boolean(let b): out.append(b ? 0x09 : 0x08)
        case .integer(let i): appendInteger(i)
        case .unsignedInteger(let u):
            // Above Int64.max Apple writes a 16-byte (signed 128-bit) integer, high half zero.
            out.append(0x14)
            appendUInt(0, size: 8)
            appendUInt(u, size: 8)
        case .real(let r):
            out.append(0x23)
            appendUInt(r.bitPattern, size: 8)
        case .date(let d):
            out.append(0x33)
            appendUInt(d.timeIntervalSinceReferenceDate.bitPattern, size: 8)
        case .data(let d):
            appendHeader(0x4, count: d.count)
            out.append(contentsOf: d)
        case .string(let s):
            var utf8Copy = s
            let isASCII = utf8Copy.withUTF8 { utf8 in
                guard utf8.allSatisfy({ $0 < 0x80 }) else { return false }
                appendHeader(0x5, count: utf8.count)
                out.append(contentsOf: utf8)
                return true
            }
            if !isASCII {
                let units = Array(s.utf16)
                appendHeader(0x6, count: units.count)
                for unit in units { out.append(UInt8(unit >> 8)); out.append(UInt8(unit & 0xFF)) }
            }
        case .uid(let u):
            let size = Self.byteWidth(u)
            out.append(0x80 | UInt8(size - 1))
            appendUInt(u, size: size)
        case .array, .dictionary:
            preconditionFailure("containers are written from their flattened form")
        }
    }

    /// Non-negative values take the fewest of 1, 2, 4 or 8 bytes; negatives always take 8,
    /// because only the 8-byte form is signed.
    private mutating func appendInteger(_ i: Int64) {
        let size = i < 0 ? 8 : Self.byteWidth(UInt64(i))
        out.append(0x10 | UInt8(size.trailingZeroBitCount))
        appendUInt(UInt64(bitPattern: i), size: size)
    }

    private mutating func appendHeader(_ type: UInt8, count: Int) {
        if count < 15 {
            out.append(type << 4 | UInt8(count))
        } else {
            out.append(type << 4 | 0xF)
            appendInteger(Int64(count))
        }
    }

    private mutating func appendUInt(_ value: UInt64, size: Int) {
        var shift = (size - 1) * 8
        while shift >= 0 {
            out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            shift -= 8
        }
    }

    /// 1, 2, 4 or 8: the smallest power-of-two width holding `value`.
    private static func byteWidth(_ value: UInt64) -> Int {
        value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
    }
}
