import FileSafety
import FoundationEssentials

/// The text encodings a book file is read in: UTF-8 (with or without a byte-order mark),
/// UTF-16 by its byte-order mark, and otherwise — when the bytes are not UTF-8 — Windows-1252,
/// the encoding of most older Western text files (Latin-1's printable characters are its subset).
/// Books in the last three are converted to UTF-8 in memory, so they have a size limit.
enum BookEncoding: Equatable {
    case utf8
    case utf8WithBOM
    case utf16(littleEndian: Bool)
    case windows1252

    /// Converting builds a UTF-8 copy in memory (up to three times the size for Windows-1252).
    static let conversionSizeLimit = 64 << 20

    /// What the status line says when the book opens; nil for plain UTF-8, the expected case.
    var note: String? {
        switch self {
        case .utf8: nil
        case .utf8WithBOM: "Read as UTF-8 (the byte-order mark is left out)."
        case .utf16(let littleEndian): "Read as UTF-16 \(littleEndian ? "LE" : "BE") (from its byte-order mark)."
        case .windows1252: "Not valid UTF-8: read as Windows-1252."
        }
    }

    /// UTF-16 with its byte-order mark as UTF-8; an unpaired surrogate becomes U+FFFD and a
    /// lone last byte is dropped, as any reader would show them.
    static func utf8(fromUTF16 bytes: UnsafeRawBufferPointer, littleEndian: Bool) -> Data {
        var output = [UInt8]()
        output.reserveCapacity(bytes.count)
        var index = 2
        var units = AnyIterator<UInt16> {
            guard index + 1 < bytes.count else { return nil }
            defer { index += 2 }
            let (a, b) = (UInt16(bytes[index]), UInt16(bytes[index + 1]))
            return littleEndian ? a | b << 8 : a << 8 | b
        }
        var decoder = UTF16()
        loop: while true {
            switch decoder.decode(&units) {
            case .scalarValue(let scalar): output.append(contentsOf: String(scalar).utf8)
            case .error: output.append(contentsOf: [0xEF, 0xBF, 0xBD])
            case .emptyInput: break loop
            }
        }
        return Data(output)
    }

    /// Windows-1252 as UTF-8. The five bytes it leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D)
    /// are kept as the C1 controls of the same number, as Latin-1 reads them.
    static func utf8(fromWindows1252 bytes: UnsafeRawBufferPointer) -> Data {
        var output = [UInt8]()
        output.reserveCapacity(bytes.count + bytes.count / 8)
        for byte in bytes {
            if byte < 0x80 {
                output.append(byte)
                continue
            }
            let scalar = byte >= 0xA0 ? UInt32(byte) : (windows1252High[Int(byte - 0x80)] ?? UInt32(byte))
            output.append(contentsOf: String(Unicode.Scalar(scalar)!).utf8)
        }
        return Data(output)
    }

    /// 0x80...0x9F, where Windows-1252 differs from Latin-1.
    private static let windows1252High: [UInt32?] = [
        0x20AC, nil, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, nil, 0x017D, nil,
        nil, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, nil, 0x017E, 0x0178,
    ]
}

extension BookLoader {
    /// The file's text as UTF-8 and the encoding it was read in. UTF-8 files stay as they are
    /// (mapped when big); the others are converted, within `BookEncoding.conversionSizeLimit`.
    /// `checked` is true when the text returned is known to be valid UTF-8 (it was checked
    /// whole here, or made by a conversion), so no later pass needs to count bad sequences.
    static func utf8Text(path: String, isUTF16: Bool, limit: FileLimit) throws -> (text: BookText, encoding: BookEncoding, checked: Bool) {
        let raw = try BookFile.open(path: path, limit: limit)
        let head = raw.withBytes { Array($0.prefix(3)) }
        // A UTF-8 file too big to copy keeps its mark and any bad bytes (shown as U+FFFD, counted).
        let small = raw.count <= BookEncoding.conversionSizeLimit
        let needsConversion = isUTF16 || (small && (head == [0xEF, 0xBB, 0xBF] || raw.withBytes { UTF8Check.invalidSequences(in: $0) } > 0))
        guard needsConversion else { return (raw, .utf8, small) }
        guard raw.count <= BookEncoding.conversionSizeLimit else {
            throw BookLoadError(path: path, reason: "is too big to convert to UTF-8 (\(raw.count >> 20) MB; the limit is \(BookEncoding.conversionSizeLimit >> 20) MB)")
        }
        return raw.withBytes { bytes in
            if isUTF16 {
                let littleEndian = head.starts(with: [0xFF, 0xFE])
                return (BookText(bytes: BookEncoding.utf8(fromUTF16: bytes, littleEndian: littleEndian)), .utf16(littleEndian: littleEndian), true)
            }
            // A marked file's bytes after the mark were not checked: they may hold bad sequences.
            if head == [0xEF, 0xBB, 0xBF] { return (BookText(bytes: Data(bytes.dropFirst(3))), .utf8WithBOM, false) }
            return (BookText(bytes: BookEncoding.utf8(fromWindows1252: bytes)), .windows1252, true)
        }
    }

    /// The same document with the encoding's note first.
    static func noting(_ encoding: BookEncoding, in document: BookDocument) -> BookDocument {
        guard let note = encoding.note else { return document }
        return BookDocument(id: document.id, title: document.title, path: document.path, format: document.format, text: document.text,
                            chapters: document.chapters, emphasis: document.emphasis, notes: [note] + document.notes, index: document.index)
    }
}
