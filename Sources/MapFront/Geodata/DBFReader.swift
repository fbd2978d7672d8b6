// A dBASE III (.dbf) table reader of our own, for the same reasons as ShapefileReader: no
// second library, bounds-checked reads, and a clear message for a truncated or corrupt file.
// It reads the columns the map needs by name (case-insensitively: Natural Earth has used both
// "NAME" and "name") and decodes text by the file's code page.

/// A .dbf table held in memory; fields are read on demand.
public struct DBFTable: Sendable {
    public struct Field: Sendable, Hashable {
        public var name: String
        public var type: Character
        let offset: Int
        let length: Int
    }

    public let file: String
    public let recordCount: Int
    public let fields: [Field]
    private let bytes: [UInt8]
    private let headerLength: Int
    private let recordLength: Int
    private let encoding: TextEncoding

    enum TextEncoding: Sendable { case utf8, windows1252 }

    public static func read(path: String) throws(GeodataError) -> DBFTable {
        try DBFTable(ByteReader.contents(ofFile: path), codePageHint: Self.codePageFile(besides: path))
    }

    public static func read(bytes: [UInt8], file: String) throws(GeodataError) -> DBFTable {
        try DBFTable(ByteReader(bytes: bytes, file: file), codePageHint: nil)
    }

    init(_ reader: ByteReader, codePageHint: String?) throws(GeodataError) {
        guard reader.count >= 33 else { throw reader.error("only \(reader.count) bytes: too short for a dBASE table header; the file is truncated") }
        let version = try reader.uint8(at: 0) & 0x07
        guard version == 3 || version == 4 else { throw reader.error("not a dBASE III table (version byte \(try reader.uint8(at: 0)))") }
        let count = Int(try reader.uint32LE(at: 4))
        let headerLength = Int(try reader.uint16LE(at: 8))
        let recordLength = Int(try reader.uint16LE(at: 10))
        guard headerLength >= 33, headerLength <= reader.count else {
            throw reader.error("its header claims \(headerLength) bytes but the file has \(reader.count): the file is truncated or corrupt")
        }
        var fields: [Field] = []
        var offset = 32
        var fieldOffset = 1  // each record starts with its deletion flag
        while offset < headerLength - 1, try reader.uint8(at: offset) != 0x0D {
            try reader.require(offset, 32, "field descriptor \(fields.count + 1)")
            let nameBytes = reader.bytes[offset..<(offset + 11)].prefix { $0 != 0 }
            let name = String(decoding: nameBytes, as: UTF8.self).trimmingSpaces()
            let type = Character(Unicode.Scalar(try reader.uint8(at: offset + 11)))
            let length = Int(try reader.uint8(at: offset + 16))
            fields.append(Field(name: name, type: type, offset: fieldOffset, length: length))
            fieldOffset += length
            offset += 32
        }
        guard fieldOffset == recordLength else {
            throw reader.error("its fields add up to \(fieldOffset) bytes a record but the header says \(recordLength): the file is corrupt")
        }
        let needed = headerLength + count * recordLength
        guard needed <= reader.count else {
            throw reader.error("its header lists \(count) records (\(needed) bytes) but the file has \(reader.count) bytes: the file is truncated")
        }
        self.file = reader.file
        self.recordCount = count
        self.fields = fields
        self.bytes = reader.bytes
        self.headerLength = headerLength
        self.recordLength = recordLength
        let languageDriver = try reader.uint8(at: 29)
        if let hint = codePageHint?.uppercased() {
            encoding = hint.contains("UTF") ? .utf8 : .windows1252
        } else {
            // 0x57 (ANSI) and 0x03 (Windows ANSI) mean code page 1252, as Natural Earth's files
            // declare; with no declaration, UTF-8 where it decodes, else 1252.
            encoding = (languageDriver == 0x57 || languageDriver == 0x03) ? .windows1252 : .utf8
        }
    }

    public func field(named name: String) -> Field? {
        fields.first { $0.name.lowercased() == name.lowercased() }
    }

    public func isDeleted(_ record: Int) -> Bool {
        bytes[headerLength + record * recordLength] == UInt8(ascii: "*")
    }

    /// The field's text with the padding removed; nil when empty.
    public func string(_ record: Int, _ field: Field) -> String? {
        precondition(record >= 0 && record < recordCount, "record index out of range")
        let start = headerLength + record * recordLength + field.offset
        var slice = bytes[start..<(start + field.length)]
        while let last = slice.last, last == 0x20 || last == 0 { slice = slice.dropLast() }
        while let first = slice.first, first == 0x20 { slice = slice.dropFirst() }
        guard !slice.isEmpty else { return nil }
        return Self.decode(slice, encoding)
    }

    public func double(_ record: Int, _ field: Field) -> Double? {
        string(record, field).flatMap { Double($0) }
    }

    public func int(_ record: Int, _ field: Field) -> Int? {
        guard let value = double(record, field), value.isFinite, abs(value) < 1e15 else { return nil }
        return Int(value)
    }

    static func decode(_ bytes: ArraySlice<UInt8>, _ encoding: TextEncoding) -> String {
        if encoding == .utf8, let text = String(validating: bytes, as: UTF8.self) { return text }
        var scalars = String.UnicodeScalarView()
        for byte in bytes {
            let value = byte >= 0x80 && byte < 0xA0 ? windows1252High[Int(byte - 0x80)] : UInt32(byte)
            scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
        }
        return String(scalars)
    }

    /// Code page 1252's 0x80–0x9F (the rest is Latin-1); undefined slots map to U+FFFD.
    private static let windows1252High: [UInt32] = [
        0x20AC, 0xFFFD, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0xFFFD, 0x017D, 0xFFFD,
        0xFFFD, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0xFFFD, 0x017E, 0x0178,
    ]

    /// The .cpg file some tools write next to a .dbf to name its code page.
    private static func codePageFile(besides path: String) -> String? {
        let base = path.hasSuffix(".dbf") ? String(path.dropLast(4)) : path
        guard let reader = try? ByteReader.contents(ofFile: base + ".cpg"), reader.count < 64 else { return nil }
        return String(decoding: reader.bytes, as: UTF8.self)
    }
}

fileprivate extension String {
    func trimmingSpaces() -> String {
        var slice = Substring(self)
        while slice.first == " " { slice = slice.dropFirst() }
        while slice.last == " " { slice = slice.dropLast() }
        return String(slice)
    }
}
