/// Why a property list could not be read or written, and where.
///
/// `position` is a byte offset for binary input and a 1-based line number for XML input;
/// `unit` says which, so a message can name the place without the caller knowing the format.
public struct PropertyListError: Error, CustomStringConvertible, Equatable, Sendable {
    /// What kind of problem: the cases a caller may want to tell apart.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        // Either format
        case unknownFormat
        case truncated
        case tooDeep
        case integerOverflow
        case invalidUTF8
        case invalidUTF16
        case invalidKey
        case duplicateKey
        case unrepresentableValue
        /// The input passes one of the reader's `PropertyListLimits`.
        case limitExceeded
        // Binary
        case badMagic
        case unsupportedVersion
        case badTrailer
        case offsetOutOfRange
        case referenceOutOfRange
        case referenceCycle
        case countTooLarge
        case invalidASCII
        case unsupportedObject
        // XML
        case malformedXML
        case unsupportedEncoding
        case entityDeclaration
        case unknownEntity
        case unknownTag
        case mismatchedTag
        case malformedDate
        case malformedNumber
        case malformedData
    }

    /// What `position` counts.
    public enum PositionUnit: Sendable, Equatable {
        case byteOffset
        case line
        /// Errors raised while writing a value have no place in any input.
        case none
    }

    /// What kind of problem.
    public let kind: Kind
    /// Where: a byte offset or a 1-based line, as `unit` says.
    public let position: Int
    /// What `position` counts.
    public let unit: PositionUnit
    /// The problem in words, bounded, quoting at most a short piece of the input.
    public let message: String

    /// Longest message kept; pieces of input are cut where they are quoted, and this catches
    /// any message built from several of them.
    static let maxMessageLength = 4 * MessageText.excerptLength

    /// An error of `kind` at `position`; long messages are cut.
    public init(_ kind: Kind, _ message: String, position: Int, unit: PositionUnit) {
        self.kind = kind
        self.message = MessageText.excerpt(message, limit: Self.maxMessageLength)
        self.position = position
        self.unit = unit
    }

    public var description: String {
        switch unit {
        case .byteOffset: "\(kind.rawValue) at byte offset \(position): \(message)"
        case .line: "\(kind.rawValue) at line \(position): \(message)"
        case .none: "\(kind.rawValue): \(message)"
        }
    }
}
