/// How the bytes of typed text are read: in the locale's charset, which is what the terminal
/// was told to send.
///
/// Worked out once at start from the locale (`NcursesTerminal`); the decoder then needs no
/// locale of its own, so tests can give it any charset.
public enum InputCharset: Hashable, Sendable {
    /// UTF-8: a byte that does not start or continue a character is dropped.
    case utf8
    /// A locale of plain ASCII (C, POSIX): a terminal that still speaks UTF-8 there is read as
    /// UTF-8, and any other byte with its eighth bit set is 8-bit meta, Alt with the key of
    /// its low seven bits (what xterm sends for Alt-f without `metaSendsEscape`).
    case ascii
    /// A charset of one byte a character (ISO 8859-1, -15, KOI8-R, …): bytes 0xA0–0xFF as the
    /// table maps them, one scalar or none for each; C1 controls (0x80–0x9F) are dropped.
    case singleByte(SingleByteTable)

    /// Whether `text` is one character this charset has, so a terminal in it can show it.
    public func canShow(_ text: String) -> Bool {
        switch self {
        case .utf8: return true
        case .ascii: return text.utf8.allSatisfy { $0 < 0x80 }
        case .singleByte(let table):
            let scalars = text.unicodeScalars
            guard let first = scalars.first, scalars.count == 1 else { return false }
            return first.value < 0x80 || table.contains(first)
        }
    }

    /// ISO 8859-1, whose bytes are the first 256 scalars.
    public static var latin1: InputCharset {
        .singleByte(SingleByteTable { byte in Unicode.Scalar(byte) })
    }
}

/// What each byte from 0xA0 to 0xFF means in a single-byte charset.
public struct SingleByteTable: Hashable, Sendable {
    private let scalars: [Unicode.Scalar?]
    private let shown: Set<Unicode.Scalar>

    /// A table filled by asking `scalar` about each byte from 0xA0 to 0xFF.
    public init(_ scalar: (UInt8) -> Unicode.Scalar?) {
        scalars = (0xA0...0xFF).map { scalar(UInt8($0)) }
        shown = Set(scalars.compactMap { $0 })
    }

    /// Whether some byte of the charset is `scalar`.
    public func contains(_ scalar: Unicode.Scalar) -> Bool { shown.contains(scalar) }

    /// The character `byte` stands for; nil for a byte below 0xA0 or one the charset leaves out.
    public subscript(byte: UInt8) -> Unicode.Scalar? {
        byte >= 0xA0 ? scalars[Int(byte) - 0xA0] : nil
    }
}
