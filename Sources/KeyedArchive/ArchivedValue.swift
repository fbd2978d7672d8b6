import FoundationEssentials
import PropertyList

/// Objects in a defaults store: a defaults store holds property-list values, so an archivable
/// object (a bookmark, a window's frame, …) is kept there as one `.data` value holding its
/// whole keyed archive, as NSUserDefaults users do with NSKeyedArchiver.
///
///     defaults["lastBookmark"] = try ArchivedValue.propertyListValue(for: bookmark)
///     let bookmark = try ArchivedValue.object(of: Bookmark.self, from: defaults["lastBookmark"]!)
///
/// Reading is secure decoding: `type` is allowed, and any other class the archive names must be
/// listed in `allowedClasses`.
public enum ArchivedValue {
    /// The binary keyed archive of `value`.
    public static func data<T: ArchiveStorable>(for value: T) throws -> Data {
        try KeyedArchiver.archivedData(withRootObject: value, format: .binary)
    }

    /// Reads a value back from the archive ``data(for:)`` made.
    ///
    /// - Parameters:
    ///   - type: The type the archive's root must have.
    ///   - data: The keyed archive, binary or XML.
    ///   - allowedClasses: Archivable classes other than `type` the archive may contain.
    /// - Returns: The root value.
    /// - Throws: `ArchiveError` for data that is not a keyed archive, a root of another type, or a
    ///   class not allowed.
    public static func object<T: ArchiveStorable>(
        of type: T.Type, from data: Data, allowedClasses: [any KeyedArchivable.Type] = []
    ) throws -> T {
        try KeyedUnarchiver.unarchivedObject(ofClass: type, from: data, allowedClasses: allowedClasses)
    }

    /// `value`'s archive wrapped as a `.data` property-list value, ready to store.
    public static func propertyListValue<T: ArchiveStorable>(for value: T) throws -> PropertyListValue {
        .data(try data(for: value))
    }

    /// Reads back what `propertyListValue(for:)` stored; anything but `.data` is a type mismatch.
    public static func object<T: ArchiveStorable>(
        of type: T.Type, from value: PropertyListValue, allowedClasses: [any KeyedArchivable.Type] = []
    ) throws -> T {
        guard case .data(let archive) = value else {
            throw ArchiveError(.typeMismatch(expected: "data holding a keyed archive", found: value.kindName))
        }
        return try object(of: type, from: archive, allowedClasses: allowedClasses)
    }
}
