import FoundationEssentials
import PropertyList

/// Writes objects and values to an NSKeyedArchiver-format archive, NSCoder style: each
/// `encode(_:forKey:)` stores into the object being encoded (or `$top` outside any object).
///
/// Scalars (Bool, integers, Double, Float) are stored inline under their key, as NSCoder's
/// encodeBool/encodeInteger/encodeDouble do; everything else becomes an `$objects` entry the key
/// points to by UID. An archiver that has thrown is left part-written and should be dropped.
public final class KeyedArchiver {
    private var objects: [PropertyListValue] = [.string(ArchiveFormat.nullMarker)]
    /// The keyed fields of the object being encoded; `$top` when no object is.
    private var fields: [String: PropertyListValue] = [:]
    private var objectUIDs: [ObjectIdentifier: UInt64] = [:]
    /// Keeps every encoded object alive until the archive is done, so no ObjectIdentifier in
    /// `objectUIDs` can be reused by a temporary created during encoding.
    private var encodedObjects: [AnyObject] = []
    private var classUIDs: [String: UInt64] = [:]
    /// Equal strings share one entry: NSString is immutable, and archives shrink.
    private var stringUIDs: [String: UInt64] = [:]
    private var depth = 0

    /// An empty archiver.
    public init() {}

    /// Archives `root` under `$top.root`, binary by default like NSKeyedArchiver.
    public static func archivedData<T: ArchiveStorable>(
        withRootObject root: T, format: PropertyListFormat = .binary
    ) throws -> Data {
        let archiver = KeyedArchiver()
        try archiver.encode(root, forKey: ArchiveFormat.rootKey)
        return try archiver.encodedData(format: format)
    }

    // MARK: Scalars, stored inline

    /// Stores a Bool inline under `key`, as `encodeBool:forKey:` does.
    public func encode(_ value: Bool, forKey key: String) { fields[key] = .boolean(value) }
    /// Stores an integer inline under `key`, as `encodeInteger:forKey:` does.
    public func encode(_ value: Int, forKey key: String) { fields[key] = .integer(Int64(value)) }
    /// Stores an 8-bit integer inline under `key`, as `encodeInt32:forKey:` would.
    public func encode(_ value: Int8, forKey key: String) { fields[key] = .integer(Int64(value)) }
    /// Stores a 16-bit integer inline under `key`, as `encodeInt32:forKey:` would.
    public func encode(_ value: Int16, forKey key: String) { fields[key] = .integer(Int64(value)) }
    /// Stores a 32-bit integer inline under `key`, as `encodeInt32:forKey:` does.
    public func encode(_ value: Int32, forKey key: String) { fields[key] = .integer(Int64(value)) }
    /// Stores a 64-bit integer inline under `key`, as `encodeInt64:forKey:` does.
    public func encode(_ value: Int64, forKey key: String) { fields[key] = .integer(value) }
    /// Stores an unsigned 8-bit integer inline under `key`.
    public func encode(_ value: UInt8, forKey key: String) { fields[key] = .integer(Int64(value)) }
    /// Stores an unsigned 16-bit integer inline under `key`.
    public func encode(_ value: UInt16, forKey key: String) { fields[key] = .integer(Int64(value)) }
    /// Stores an unsigned 32-bit integer inline under `key`.
    public func encode(_ value: UInt32, forKey key: String) { fields[key] = .integer(Int64(value)) }
    /// Above `Int64.max` the value is stored as Apple does, a 16-byte integer. Kept throwing so
    /// existing callers' `try` stays valid; every UInt64 now fits.
    public func encode(_ value: UInt64, forKey key: String) throws { fields[key] = .integer(unsigned: value) }
    /// Stores an unsigned integer inline under `key`, as the `UInt64` overload does: above `Int64.max`, as a 16-byte integer.
    public func encode(_ value: UInt, forKey key: String) throws { try encode(UInt64(value), forKey: key) }
    /// Stores a Double inline under `key`, as `encodeDouble:forKey:` does.
    public func encode(_ value: Double, forKey key: String) { fields[key] = .real(value) }
    /// Stores a Float inline under `key` as a double, as `encodeFloat:forKey:` does.
    public func encode(_ value: Float, forKey key: String) { fields[key] = .real(Double(value)) }

    // MARK: Objects and plain values, stored by reference

    /// Stores `value` as an `$objects` entry; nil is stored as UID 0 ("$null"), as Foundation
    /// does, so `containsValue(forKey:)` is true for it when decoded.
    public func encode<T: ArchiveStorable>(_ value: T?, forKey key: String) throws {
        guard let value else {
            fields[key] = .uid(0)
            return
        }
        do { fields[key] = .uid(try value.archiveReference(in: self).uid) } catch let error as ArchiveError {
            throw error.under(key)
        }
    }

    // MARK: Output

    /// The archive as a property-list tree, for callers that embed it in a larger plist.
    public var encodedArchive: PropertyListValue {
        .dictionary([
            ArchiveFormat.archiverKey: .string(ArchiveFormat.archiverName),
            ArchiveFormat.versionKey: .integer(ArchiveFormat.version),
            ArchiveFormat.topKey: .dictionary(fields),
            ArchiveFormat.objectsKey: .array(objects),
        ])
    }

    /// The finished archive as property-list bytes, binary unless told otherwise.
    public func encodedData(format: PropertyListFormat = .binary) throws -> Data {
        try PropertyListSerializer.data(from: encodedArchive, format: format)
    }

    // MARK: Entry points for ArchiveStorable conformances

    func append(_ entry: PropertyListValue) -> ArchiveReference {
        objects.append(entry)
        return ArchiveReference(uid: UInt64(objects.count - 1))
    }

    func reference(forString text: String) -> ArchiveReference {
        if let uid = stringUIDs[text] { return ArchiveReference(uid: uid) }
        let reference = append(.string(text))
        stringUIDs[text] = reference.uid
        return reference
    }

    /// Appends a Foundation object that holds no references, such as an NSDate.
    func appendFoundationObject(className: String, fields entryFields: [String: PropertyListValue]) -> ArchiveReference {
        let reference = append(.string(ArchiveFormat.nullMarker))
        var entry = entryFields
        entry[ArchiveFormat.classKey] = .uid(classUID(className, hierarchy: [className, "NSObject"]))
        objects[Int(reference.uid)] = .dictionary(entry)
        return reference
    }

    /// Appends a Foundation container. Its slot is taken before its contents are written, so
    /// entries appear parent first, in the order Foundation writes them.
    func appendContainer(
        className: String, contents: () throws -> [String: PropertyListValue]
    ) throws -> ArchiveReference {
        let reference = append(.string(ArchiveFormat.nullMarker))
        var entry = try nested(contents)
        entry[ArchiveFormat.classKey] = .uid(classUID(className, hierarchy: [className, "NSObject"]))
        objects[Int(reference.uid)] = .dictionary(entry)
        return reference
    }

    /// An object already written (or being written, in a cycle) is referred to, not repeated.
    func reference(forObject object: some KeyedArchivable) throws -> ArchiveReference {
        let identity = ObjectIdentifier(object)
        if let uid = objectUIDs[identity] { return ArchiveReference(uid: uid) }
        let reference = append(.string(ArchiveFormat.nullMarker))
        objectUIDs[identity] = reference.uid
        encodedObjects.append(object)

        let outerFields = fields
        fields = [:]
        defer { fields = outerFields }
        try nested { try object.encode(with: self) }
        var entry = fields
        let objectType = type(of: object)
        entry[ArchiveFormat.classKey] = .uid(classUID(objectType.archiveClassName, hierarchy: objectType.archiveClassHierarchy))
        objects[Int(reference.uid)] = .dictionary(entry)
        return reference
    }

    private func classUID(_ name: String, hierarchy: [String]) -> UInt64 {
        if let uid = classUIDs[name] { return uid }
        let uid = append(.dictionary([
            ArchiveFormat.classNameKey: .string(name),
            ArchiveFormat.classHierarchyKey: .array(hierarchy.map(PropertyListValue.string)),
        ])).uid
        classUIDs[name] = uid
        return uid
    }

    /// Refuses graphs deeper than the unarchiver would read back.
    private func nested<Result>(_ body: () throws -> Result) throws -> Result {
        guard depth < ArchiveFormat.maximumDepth else {
            throw ArchiveError(.nestingTooDeep(limit: ArchiveFormat.maximumDepth))
        }
        depth += 1
        defer { depth -= 1 }
        return try body()
    }
}
