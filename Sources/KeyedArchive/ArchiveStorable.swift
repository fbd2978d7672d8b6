/// Points at one entry of an archive's `$objects`; the only way stored values refer to others.
public struct ArchiveReference: Hashable, Sendable {
    let uid: UInt64
}

/// A type that can be stored as an entry of `$objects` and so sit under a key, in an array or
/// in a dictionary: plain values (String, numbers, Bool, Data, Date, arrays, string-keyed
/// dictionaries) in the shape Foundation gives NSString/NSNumber/NSData/NSDate/NSArray/
/// NSDictionary, and every `KeyedArchivable` class.
///
/// Another type can conform by storing itself as one of these, e.g. a URL as its String.
public protocol ArchiveStorable {
    /// Writes the value to the archive (or finds where it already is) and says where.
    func archiveReference(in archiver: KeyedArchiver) throws -> ArchiveReference
    /// Rebuilds a value from the entry `reference` points at; throws `ArchiveError` when
    /// that entry holds anything other than this type.
    static func unarchive(_ reference: ArchiveReference, from unarchiver: KeyedUnarchiver) throws -> Self
}
