import FoundationEssentials
import PropertyList

/// How one entry's value is kept in its row: data as it is (a bookmark list's keyed archive
/// stays an archive any plist tool reads straight from the row), anything else as a binary
/// property list. A kind this version does not know is left as it is, unread.
enum CollectionEntryCoding {
    static let propertyListKind: Int64 = 0
    static let dataKind: Int64 = 1

    /// The most one entry may hold: far beyond any note, bookmark list or place a person makes,
    /// and still a value the app can hold in memory and SQLite in one row.
    static let maximumBytes = 256 << 20

    static let limits = PropertyListLimits(
        maxDepth: PropertyListLimits.deepestNesting, maxObjects: 1 << 20, maxExpandedElements: 1 << 20,
        maxStringBytes: maximumBytes, maxDataBytes: maximumBytes)

    static func encode(_ value: PropertyListValue) throws -> (kind: Int64, bytes: Data) {
        if case .data(let bytes) = value { return (dataKind, bytes) }
        try limits.check(value)
        return (propertyListKind, try PropertyListSerializer.data(from: value, format: .binary))
    }

    enum Failure: Error, CustomStringConvertible {
        case unknownKind(Int64)
        case tooBig(Int)
        case unreadable(String)

        var description: String {
            switch self {
            case .unknownKind(let kind): "it is stored in a form this version does not know (\(kind))"
            case .tooBig(let count): "it holds \(count) bytes, more than the \(maximumBytes) an entry may"
            case .unreadable(let why): "it cannot be read (\(why))"
            }
        }
    }

    static func decode(kind: Int64, bytes: Data) throws -> PropertyListValue {
        guard bytes.count <= maximumBytes else { throw Failure.tooBig(bytes.count) }
        switch kind {
        case dataKind:
            return .data(bytes)
        case propertyListKind:
            do { return try PropertyListReader.value(from: bytes, limits: limits) } catch {
                throw Failure.unreadable("\(error)")
            }
        default:
            throw Failure.unknownKind(kind)
        }
    }
}
