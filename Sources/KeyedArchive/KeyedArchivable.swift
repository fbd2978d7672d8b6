/// A class whose instances can be written to and rebuilt from a keyed archive, by identity:
/// an instance reached twice is stored once and comes back as one instance.
///
/// Conform with a class name, an empty initializer, and the two coding methods; decoding
/// needs the class listed in the unarchiver's `allowedClasses`:
///
/// ```swift
/// final class Bookmark: KeyedArchivable {
///     static let archiveClassName = "Bookmark"
///     var page = 0
///     func encode(with archiver: KeyedArchiver) throws { archiver.encode(page, forKey: "page") }
///     func decode(from unarchiver: KeyedUnarchiver) throws { page = try unarchiver.decodeInteger(forKey: "page") }
/// }
/// ```
///
/// Decoding is two-phase: the unarchiver creates the instance with ``init()``, registers it
/// under its archive index, and only then calls ``decode(from:)``. A cycle (A -> B -> A) therefore
/// resolves to the already-registered A, which may still be filling itself in at that moment:
/// ``decode(from:)`` should store what it reads and not yet call into other decoded objects.
public protocol KeyedArchivable: AnyObject, ArchiveStorable {
    /// The name written to `$classname`; Foundation maps it to a class with
    /// `NSKeyedUnarchiver.setClass(_:forClassName:)`.
    static var archiveClassName: String { get }
    /// The `$classes` list, most specific first. Defaults to `[archiveClassName, "NSObject"]`.
    static var archiveClassHierarchy: [String] { get }

    /// Makes an empty instance for the unarchiver to fill in with ``decode(from:)``.
    init()
    /// Writes the instance's fields into `archiver` under keys of its choice, as NSCoding's
    /// `encode(with:)` does; nested values and objects are written with `encode(_:forKey:)` too.
    func encode(with archiver: KeyedArchiver) throws
    /// Reads back what ``encode(with:)`` wrote. The archive may be damaged or from another version:
    /// check what is read, and throw to refuse it; the unarchiver's own errors can simply propagate.
    func decode(from unarchiver: KeyedUnarchiver) throws
}

extension KeyedArchivable {
    /// The class name, then "NSObject", as Foundation writes for a direct NSObject subclass.
    public static var archiveClassHierarchy: [String] { [archiveClassName, "NSObject"] }

    /// Stores the instance once, by identity: a second reference to it points to the same entry.
    public func archiveReference(in archiver: KeyedArchiver) throws -> ArchiveReference {
        try archiver.reference(forObject: self)
    }

    /// Rebuilds the instance at `reference`, or returns the one already rebuilt there, so shared
    /// objects and cycles come back as they were.
    public static func unarchive(_ reference: ArchiveReference, from unarchiver: KeyedUnarchiver) throws -> Self {
        try unarchiver.object(ofType: Self.self, at: reference)
    }
}
