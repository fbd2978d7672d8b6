/// A class whose instances can be written to and rebuilt from a keyed archive, by identity:
/// an instance reached twice is stored once and comes back as one instance.
///
/// Decoding is two-phase: the unarchiver creates the instance with `init()`, registers it
/// under its archive index, and only then calls `decode(from:)`. A cycle (A -> B -> A) therefore
/// resolves to the already-registered A, which may still be filling itself in at that moment:
/// `decode(from:)` should store what it reads and not yet call into other decoded objects.
public protocol KeyedArchivable: AnyObject, ArchiveStorable {
    /// The name written to `$classname`; Foundation maps it to a class with
    /// `NSKeyedUnarchiver.setClass(_:forClassName:)`.
    static var archiveClassName: String { get }
    /// The `$classes` list, most specific first. Defaults to `[archiveClassName, "NSObject"]`.
    static var archiveClassHierarchy: [String] { get }

    init()
    func encode(with archiver: KeyedArchiver) throws
    func decode(from unarchiver: KeyedUnarchiver) throws
}

extension KeyedArchivable {
    public static var archiveClassHierarchy: [String] { [archiveClassName, "NSObject"] }

    public func archiveReference(in archiver: KeyedArchiver) throws -> ArchiveReference {
        try archiver.reference(forObject: self)
    }

    public static func unarchive(_ reference: ArchiveReference, from unarchiver: KeyedUnarchiver) throws -> Self {
        try unarchiver.object(ofType: Self.self, at: reference)
    }
}
