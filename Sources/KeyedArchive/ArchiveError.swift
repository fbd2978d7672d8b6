import PropertyList

/// Why an archive could not be written or read, and where.
///
/// Every damaged or unexpected archive becomes one of these rather than a crash: the
/// restoration archive is read at every launch, so a bad file must cost a fresh start, not the app.
public struct ArchiveError: Error, Equatable, CustomStringConvertible {
    /// What kind of damage or mismatch was found; the error's ``ArchiveError/keyPath`` and
    /// ``ArchiveError/objectIndex`` say where.
    public enum Kind: Equatable, Sendable {
        /// The bytes are not a property list at all; the reader's message is kept.
        case unreadablePropertyList(String)
        /// A `$archiver` / `$version` / `$top` / `$objects` entry is missing or wrong.
        case badHeader(key: String, problem: String)
        /// `$objects[0]` is not the string "$null".
        case missingNullMarker
        /// A UID points past the end of `$objects`, which holds `objectCount` entries.
        case uidOutOfRange(uid: UInt64, objectCount: Int)
        /// An object's `$class` entry is not a UID to a well-formed class description.
        case malformedClass(String)
        /// An `$objects` entry is a shape NSKeyedUnarchiver cannot decode as an object (a plain
        /// array, a dictionary without `$class`, a UID); the text says which.
        case notAnObject(String)
        /// The archive names a class the caller did not allow.
        case classNotAllowed(String)
        /// The stored value is not what was asked for (types, class names or shapes).
        case typeMismatch(expected: String, found: String)
        /// A plain container (array, dictionary) contains itself; only archivable objects,
        /// which are registered before their contents are read, may form cycles.
        case cyclicValue
        /// Objects or containers nest deeper than `limit` levels; see `ArchiveFormat.maximumDepth`.
        case nestingTooDeep(limit: Int)
        /// Shared containers expand to more values than the archive's size can justify.
        case tooManyValues(limit: Int)
        /// An integer that does not fit the width asked for, or the format can't hold.
        case valueOutOfRange(String)
        /// A Foundation container's parts disagree (e.g. NS.keys and NS.objects lengths).
        case malformedContainer(String)
        /// A dictionary holds this key twice.
        case duplicateKey(String)
        /// `unarchivedObject` found no object under the root key.
        case missingRoot
    }

    /// What went wrong; switch on it to react to one kind (a missing root, a class not allowed).
    public var kind: Kind
    /// Keys from `$top` down to the failing value, e.g. `["root", "children", "[3]"]`.
    public var keyPath: [String]
    /// Index in `$objects` of the innermost object involved, when there is one.
    public var objectIndex: Int?

    /// Makes an error; the unarchiver adds the key path and object index as the error travels up
    /// through the objects being decoded.
    ///
    /// - Parameters:
    ///   - kind: What went wrong.
    ///   - keyPath: Keys from `$top` down to the failing value.
    ///   - objectIndex: The index in `$objects` of the innermost object involved.
    public init(_ kind: Kind, keyPath: [String] = [], objectIndex: Int? = nil) {
        self.kind = kind
        self.keyPath = keyPath
        self.objectIndex = objectIndex
    }

    /// Keys and names from the archive are cut (see `MessageText`), so a hostile archive
    /// cannot make one message megabytes long.
    public var description: String {
        var text = Self.describe(kind)
        if !keyPath.isEmpty {
            let path = keyPath.reduce("") { path, key in
                let key = MessageText.excerpt(key, limit: 40)
                return key.hasPrefix("[") ? path + key : (path.isEmpty ? key : path + "." + key)
            }
            text += " at " + MessageText.excerpt(path)
        }
        if let objectIndex { text += " ($objects[\(objectIndex)])" }
        return text
    }

    private static func describe(_ kind: Kind) -> String {
        switch kind {
        case .unreadablePropertyList(let reason): return "not a property list: \(MessageText.excerpt(reason, limit: 800))"
        case .badHeader(let key, let problem): return "bad archive header: \(key) \(MessageText.excerpt(problem))"
        case .missingNullMarker: return "$objects does not start with \"$null\""
        case .uidOutOfRange(let uid, let count):
            return "UID \(uid) is out of range ($objects has \(count) entries)"
        case .malformedClass(let reason): return "malformed $class: \(MessageText.excerpt(reason))"
        case .notAnObject(let shape): return "$objects entry is \(shape), which no unarchiver decodes as an object"
        case .classNotAllowed(let name): return "class \(MessageText.excerpt(name)) is not allowed"
        case .typeMismatch(let expected, let found): return "expected \(expected), found \(MessageText.excerpt(found))"
        case .cyclicValue: return "container refers to itself"
        case .nestingTooDeep(let limit): return "objects nest deeper than \(limit) levels"
        case .tooManyValues(let limit):
            return "archive expands to more than \(MessageText.grouped(limit)) values, counting a shared container at every use"
        case .valueOutOfRange(let reason): return "value out of range: \(reason)"
        case .malformedContainer(let reason): return "malformed container: \(MessageText.excerpt(reason))"
        case .duplicateKey(let key): return "duplicate dictionary key \"\(MessageText.excerpt(key))\""
        case .missingRoot: return "archive has no root object"
        }
    }

    /// Adds the key this error happened under, as it travels up through the decoder.
    func under(_ key: String) -> ArchiveError {
        var error = self
        error.keyPath.insert(key, at: 0)
        return error
    }

    /// Records the innermost object involved; outer objects don't overwrite it.
    func inObject(_ index: Int) -> ArchiveError {
        var error = self
        if error.objectIndex == nil { error.objectIndex = index }
        return error
    }
}
