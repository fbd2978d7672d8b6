/// A JSON value as gpsd sends it.
///
/// Why our own reader and not JSONSerialization: gpsd versions before 3.19 wrote a float that
/// was not a number as a bare `nan`, which no strict JSON reader accepts, so one bad error
/// estimate would throw away a report whose latitude and longitude are fine. This reader takes
/// `nan`/`NaN`/`Infinity` as numbers and leaves the judgement to the TPV rules; it also caps
/// nesting depth, so a hostile line cannot exhaust the stack.
public indirect enum GPSDJSON: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([GPSDJSON])
    case object([String: GPSDJSON])

    public subscript(key: String) -> GPSDJSON? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    public var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    public var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// Reads one JSON text; nil when it is not one (trailing text included).
    public static func parse(_ text: String) -> GPSDJSON? {
        parse(Array(text.utf8))
    }

    public static func parse(_ bytes: [UInt8]) -> GPSDJSON? {
        var reader = Reader(bytes: bytes)
        guard let value = reader.value(depth: 0) else { return nil }
        reader.skipSpace()
        return reader.index == bytes.count ? value : nil
    }

    /// gpsd's reports nest three levels at most (DEVICES → devices → DEVICE); 32 is plenty.
    static let maximumDepth = 32

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func skipSpace() {
            // A switch, not `[…].contains`: that builds an array for every byte read.
            while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
        }

        static func isSpace(_ byte: UInt8) -> Bool {
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D: true
            default: false
            }
        }

        static func isNumberByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"),
                 UInt8(ascii: "+"), UInt8(ascii: "-"): true
            default: false
            }
        }

        mutating func value(depth: Int) -> GPSDJSON? {
            guard depth < GPSDJSON.maximumDepth else { return nil }
            skipSpace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"): return object(depth: depth)
            case UInt8(ascii: "["): return array(depth: depth)
            case UInt8(ascii: "\""): return string().map(GPSDJSON.string)
            case UInt8(ascii: "t"): return literal("true", .bool(true))
            case UInt8(ascii: "f"): return literal("false", .bool(false))
            case UInt8(ascii: "n"):
                return literal("null", .null) ?? literal("nan", .number(.nan))
            case UInt8(ascii: "N"): return literal("NaN", .number(.nan))
            case UInt8(ascii: "I"): return literal("Infinity", .number(.infinity))
            default: return number()
            }
        }

        mutating func literal(_ word: String, _ result: GPSDJSON) -> GPSDJSON? {
            let expected = word.utf8
            guard index + expected.count <= bytes.count, bytes[index..<index + expected.count].elementsEqual(expected) else { return nil }
            index += expected.count
            return result
        }

        mutating func object(depth: Int) -> GPSDJSON? {
            index += 1
            var members: [String: GPSDJSON] = [:]
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else { return nil }
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                index += 1
                guard let member = value(depth: depth + 1) else { return nil }
                members[key] = member
                skipSpace()
                guard index < bytes.count else { return nil }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
                return nil
            }
        }

        mutating func array(depth: Int) -> GPSDJSON? {
            index += 1
            var elements: [GPSDJSON] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                guard let element = value(depth: depth + 1) else { return nil }
                elements.append(element)
                skipSpace()
                guard index < bytes.count else { return nil }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
                return nil
            }
        }

        /// A string from the opening quote; escapes decoded, invalid UTF-8 replaced.
        mutating func string() -> String? {
            index += 1
            var scalars: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return String(decoding: scalars, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { return nil }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escape)
                    case UInt8(ascii: "b"): scalars.append(0x08)
                    case UInt8(ascii: "f"): scalars.append(0x0C)
                    case UInt8(ascii: "n"): scalars.append(0x0A)
                    case UInt8(ascii: "r"): scalars.append(0x0D)
                    case UInt8(ascii: "t"): scalars.append(0x09)
                    case UInt8(ascii: "u"):
                        guard index + 4 <= bytes.count,
                              let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else { return nil }
                        index += 4
                        // Surrogate halves are not paired up: gpsd never sends them, and a lone
                        // one becomes U+FFFD rather than an error.
                        let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
                        scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
                    default: return nil
                    }
                case 0x00..<0x20:
                    return nil
                default:
                    scalars.append(byte)
                }
            }
            return nil
        }

        mutating func number() -> GPSDJSON? {
            let start = index
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
                index += 1
                if let infinity = literal("Infinity", .number(-.infinity)) { return infinity }
                // C's printf writes a negative NaN as "-nan".
                if let nan = literal("nan", .number(.nan)) { return nan }
            }
            while index < bytes.count, Self.isNumberByte(bytes[index]) { index += 1 }
            guard index > start, index - start <= 64 else { return nil }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            // Double(_:) would also take "inf" or hex; the characters above already exclude them.
            guard let value = Double(text), text.contains(where: \.isNumber) else { return nil }
            return .number(value)
        }
    }
}
