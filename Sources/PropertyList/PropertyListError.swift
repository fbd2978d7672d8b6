/// Why a property list could not be read or written, and where.
///
/// `position` is a byte offset for binary input and a 1-based line number for XML input;
/// `unit` says which, so a message can name the place without the caller knowing the format.
public struct PropertyListError: Error, CustomStringConvertible, Equatable, Sendable {
    /// What kind of problem: the cases a caller may want to tell apart.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        // Either format
        /// The data is neither a binary property list nor XML.
        case unknownFormat
        /// The input ends inside something: a tag, a comment, an object.
        case truncated
        /// Containers nest deeper than the limits allow, reading or writing.
        case tooDeep
        /// A number or UID does not fit the 64 bits a value can hold.
        case integerOverflow
        /// A string's bytes are not valid UTF-8.
        case invalidUTF8
        /// A UTF-16 string has an unpaired surrogate.
        case invalidUTF16
        /// A dictionary key is not a string.
        case invalidKey
        /// A dictionary holds a key twice; readers note it as a warning and keep the last value.
        case duplicateKey
        /// A value the format cannot hold: a date outside years 0...9999 or not finite, a UID too big
        /// for XML.
        case unrepresentableValue
        /// The input passes one of the reader's `PropertyListLimits`.
        case limitExceeded
        // Binary
        /// A binary file does not start with "bplist00".
        case badMagic
        /// A binary file of a version other than "00".
        case unsupportedVersion
        /// A binary file's 32-byte trailer declares impossible sizes or no objects.
        case badTrailer
        /// A binary file's offset points outside the object area.
        case offsetOutOfRange
        /// A binary file's object reference is not below its object count.
        case referenceOutOfRange
        /// A binary file's container contains itself, directly or through others.
        case referenceCycle
        /// A binary file's count of objects or elements cannot fit in the file.
        case countTooLarge
        /// A binary file's ASCII string holds a byte above 0x7F.
        case invalidASCII
        /// A binary file holds an object type property lists do not have here (null, fill, a real of
        /// odd size).
        case unsupportedObject
        // XML
        /// The XML is not well formed.
        case malformedXML
        /// The XML declares an encoding other than UTF-8, or comes in UTF-16.
        case unsupportedEncoding
        /// The XML's DTD declares or references an entity; entities are never expanded.
        case entityDeclaration
        /// The XML uses an entity other than XML's five predefined ones and character references.
        case unknownEntity
        /// The XML holds an element that is not part of a property list.
        case unknownTag
        /// An XML element is closed by a tag of another name.
        case mismatchedTag
        /// A `<date>` is not an ISO 8601 date in the form `2024-05-01T12:00:00Z`.
        case malformedDate
        /// An `<integer>` or `<real>` does not hold a number, or a `.strings` escape lacks its digits.
        case malformedNumber
        /// A `<data>` is not valid base64.
        case malformedData
    }

    /// What `position` counts.
    public enum PositionUnit: Sendable, Equatable {
        /// A byte offset into binary input, from 0.
        case byteOffset
        /// A line of XML input, from 1.
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

    /// The kind, the place and the message in one line, such as
    /// "badTrailer at byte offset 40: the trailer declares no objects".
    public var description: String {
        switch unit {
        case .byteOffset: "\(kind.rawValue) at byte offset \(position): \(message)"
        case .line: "\(kind.rawValue) at line \(position): \(message)"
        case .none: "\(kind.rawValue): \(message)"
        }
    }
}
