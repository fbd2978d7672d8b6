import FoundationEssentials
import KeyedArchive
import PropertyList

/// Archivable objects kept in defaults as data holding their keyed archive, as NSUserDefaults
/// users do with NSKeyedArchiver.
extension DefaultsStore {
    /// Stores `object`'s keyed archive under `key`; nil removes the key.
    public func setArchived<T: ArchiveStorable>(_ object: T?, forKey key: String) throws {
        guard let object else {
            removeObject(forKey: key)
            return
        }
        set(try ArchivedValue.propertyListValue(for: object), forKey: key)
    }

    /// The object archived under `key`, decoded securely (`type` and `allowedClasses` only);
    /// nil when the key is missing, an error when its value is not such an archive.
    public func archivedObject<T: ArchiveStorable>(
        of type: T.Type, forKey key: String, allowedClasses: [any KeyedArchivable.Type] = []
    ) throws -> T? {
        guard let value = object(forKey: key) else { return nil }
        return try ArchivedValue.object(of: type, from: value, allowedClasses: allowedClasses)
    }
}
