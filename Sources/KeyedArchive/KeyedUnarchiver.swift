import FoundationEssentials
import PropertyList

/// Reads an NSKeyedArchiver-format archive back, NSCoder style, with secure decoding: the
/// caller names every archivable class it accepts, each `decode…` names the type it wants,
/// and anything else in the archive is an `ArchiveError` — never a crash, never an instance of
/// a type nobody asked for.
///
/// A missing key decodes as nil / 0 / false, as with NSCoder.
public final class KeyedUnarchiver {
    let contents: ArchiveContents
    private let allowedClasses: [String: any KeyedArchivable.Type]
    /// The keyed fields of the object being decoded; `$top` when no object is.
    var fields: [String: PropertyListValue]
    /// Archivable instances by `$objects` index, registered before they decode their fields.
    private var instances: [AnyObject?]
    /// Decoded containers, so an array referenced from many places is built once per type
    /// rather than once per path (which is exponential in a crafted archive), with the number
    /// of values inside each.
    private var containers: [ContainerKey: (value: Any, size: Int)] = [:]
    /// Values handed out so far, counting a shared container's contents at every use: what the
    /// caller will walk (or write back) is this big even though it is built once.
    private var valuesDecoded = 0
    private let limits: PropertyListLimits
    /// Containers being decoded right now; meeting one again means it contains itself.
    private var containersInProgress: Set<Int> = []
    private var depth = 0

    private struct ContainerKey: Hashable {
        let index: Int
        let type: ObjectIdentifier
    }

    /// Parses and checks the archive. Plain Foundation value classes (NSString, NSArray, …)
    /// are always accepted; any other class the archive names must be in `allowedClasses`, or
    /// be a key of `renamedClasses`, which maps names written by an older version of a class
    /// (or by Foundation, which names Swift classes "Module.Class") to the class to build —
    /// the counterpart of NSKeyedUnarchiver's `setClass(_:forClassName:)`.
    ///
    /// `limits` bound the property list as it is read and then the decode: values handed out
    /// (counting a shared container at every use) may not pass `maxExpandedElements`, nor
    /// objects nest deeper than `maxDepth`.
    public convenience init(
        data: Data,
        allowedClasses: [any KeyedArchivable.Type] = [],
        renamedClasses: [String: any KeyedArchivable.Type] = [:],
        limits: PropertyListLimits = .userFile
    ) throws {
        let value: PropertyListValue
        do { value = try PropertyListReader.value(from: data, limits: limits) } catch {
            throw ArchiveError(.unreadablePropertyList(String(describing: error)))
        }
        try self.init(archive: value, allowedClasses: allowedClasses, renamedClasses: renamedClasses, limits: limits)
    }

    /// Reads an archive already parsed into a property-list tree.
    public init(
        archive: PropertyListValue,
        allowedClasses: [any KeyedArchivable.Type] = [],
        renamedClasses: [String: any KeyedArchivable.Type] = [:],
        limits: PropertyListLimits = .userFile
    ) throws {
        contents = try ArchiveContents(archive, limits: limits)
        self.limits = limits
        var byName = renamedClasses
        for type in allowedClasses { byName[type.archiveClassName] = type }
        self.allowedClasses = byName
        for (index, name) in contents.classNames.enumerated() {
            if let name, byName[name] == nil, !FoundationClass.all.contains(name) {
                throw ArchiveError(.classNotAllowed(name), objectIndex: index)
            }
        }
        fields = contents.top
        instances = Array(repeating: nil, count: contents.objects.count)
    }

    /// Decodes the root object of an archive made by `KeyedArchiver.archivedData(withRootObject:)`
    /// (or Foundation's). `type` itself is allowed when it is an archivable class.
    public static func unarchivedObject<T: ArchiveStorable>(
        ofClass type: T.Type, from data: Data, allowedClasses: [any KeyedArchivable.Type] = [],
        limits: PropertyListLimits = .userFile
    ) throws -> T {
        var allowed = allowedClasses
        if let archivable = type as? any KeyedArchivable.Type { allowed.append(archivable) }
        let unarchiver = try KeyedUnarchiver(data: data, allowedClasses: allowed, limits: limits)
        guard let root = try unarchiver.decodeObject(of: type, forKey: ArchiveFormat.rootKey) else {
            throw ArchiveError(.missingRoot)
        }
        return root
    }

    // MARK: Keyed decoding

    /// Whether the object being decoded has a value under `key`.
    public func containsValue(forKey key: String) -> Bool { fields[key] != nil }

    /// The Bool under `key`; false when there is none. Throws for a value of another type.
    public func decodeBool(forKey key: String) throws -> Bool {
        try scalar(forKey: key, ifMissing: false, ArchiveNumbers.bool)
    }

    /// The integer under `key`; 0 when there is none. Throws for another type or one out of range.
    public func decodeInteger(forKey key: String) throws -> Int { try decodeInteger(Int.self, forKey: key) }
    /// The integer under `key` as an Int32; 0 when there is none. Throws for another type or one
    /// out of range.
    public func decodeInt32(forKey key: String) throws -> Int32 { try decodeInteger(Int32.self, forKey: key) }
    /// The integer under `key` as an Int64; 0 when there is none. Throws for another type or one
    /// out of range.
    public func decodeInt64(forKey key: String) throws -> Int64 { try decodeInteger(Int64.self, forKey: key) }

    /// Any width, signed or not; a stored value that doesn't fit `type` is `valueOutOfRange`.
    public func decodeInteger<T: FixedWidthInteger>(_ type: T.Type, forKey key: String) throws -> T {
        try scalar(forKey: key, ifMissing: 0) { try ArchiveNumbers.integer($0, as: T.self) }
    }

    /// The number under `key` as a Double; 0 when there is none.
    public func decodeDouble(forKey key: String) throws -> Double {
        try scalar(forKey: key, ifMissing: 0, ArchiveNumbers.double)
    }

    /// The number under `key` as a Float; 0 when there is none. Throws for a value of another type.
    public func decodeFloat(forKey key: String) throws -> Float {
        try scalar(forKey: key, ifMissing: 0) { Float(try ArchiveNumbers.double($0)) }
    }

    /// Decodes a String, Data, Date, number, array, dictionary or archivable object; nil when
    /// the key is missing or holds nil. Anything stored that is not a `T` throws `typeMismatch`.
    public func decodeObject<T: ArchiveStorable>(of type: T.Type, forKey key: String) throws -> T? {
        guard let stored = fields[key] else { return nil }
        do {
            guard case .uid(let uid) = stored else {
                throw ArchiveError(.typeMismatch(expected: "\(T.self)", found: stored.kindName))
            }
            if uid == 0 { return nil }
            return try T.unarchive(ArchiveReference(uid: uid), from: self)
        } catch let error as ArchiveError {
            throw error.under(key)
        }
    }

    /// Reads a scalar stored inline, or as a reference to an NSNumber entry (as Foundation
    /// writes numbers encoded through `encode(_: Any?, forKey:)`).
    private func scalar<T>(
        forKey key: String, ifMissing missing: T, _ convert: (PropertyListValue) throws -> T
    ) throws -> T {
        guard var stored = fields[key] else { return missing }
        do {
            if case .uid(let uid) = stored {
                let (index, entry) = try self.entry(ArchiveReference(uid: uid))
                guard index != 0 else { throw ArchiveError(.typeMismatch(expected: "\(T.self)", found: "null")) }
                stored = entry
            }
            return try convert(stored)
        } catch let error as ArchiveError {
            throw error.under(key)
        }
    }

    // MARK: Entry points for ArchiveStorable conformances

    func entry(_ reference: ArchiveReference) throws -> (index: Int, value: PropertyListValue) {
        let index = try contents.index(of: reference.uid)
        try count(1)
        return (index, contents.objects[index])
    }

    private func count(_ values: Int) throws {
        valuesDecoded += values
        guard valuesDecoded <= limits.maxExpandedElements else {
            throw ArchiveError(.tooManyValues(limit: limits.maxExpandedElements))
        }
    }

    /// The fields of a Foundation object entry whose class is one of `classes`.
    func foundationFields(at index: Int, classes: [String], expected: String) throws -> [String: PropertyListValue] {
        guard let name = contents.classNames[index], classes.contains(name),
              case .dictionary(let entryFields) = contents.objects[index]
        else { throw mismatch(expected: expected, at: index) }
        return entryFields
    }

    /// The UIDs of an NS.objects / NS.keys list.
    func references(_ value: PropertyListValue?, named name: String, at index: Int) throws -> [ArchiveReference] {
        guard case .array(let items)? = value else {
            throw malformed("\(name) is \(value?.kindName ?? "missing"), not array", at: index)
        }
        return try items.map { item in
            guard case .uid(let uid) = item else { throw malformed("\(name) holds \(item.kindName), not UID", at: index) }
            return ArchiveReference(uid: uid)
        }
    }

    func mismatch(expected: String, at index: Int) -> ArchiveError {
        let found: String
        if index == 0 {
            found = "null"
        } else if let name = contents.classNames[index] {
            found = name
        } else {
            found = contents.objects[index].kindName
        }
        return ArchiveError(.typeMismatch(expected: expected, found: found), objectIndex: index)
    }

    func malformed(_ reason: String, at index: Int) -> ArchiveError {
        ArchiveError(.malformedContainer(reason), objectIndex: index)
    }

    /// Builds (or reuses) the container at `index`, refusing one that contains itself.
    func container<T>(at index: Int, as type: T.Type, build: () throws -> T) throws -> T {
        let key = ContainerKey(index: index, type: ObjectIdentifier(T.self))
        if let (value, size) = containers[key], let built = value as? T {
            try count(size)
            return built
        }
        guard containersInProgress.insert(index).inserted else {
            throw ArchiveError(.cyclicValue, objectIndex: index)
        }
        defer { containersInProgress.remove(index) }
        let before = valuesDecoded
        let built = try nested(build)
        containers[key] = (built, valuesDecoded - before)
        return built
    }

    /// The archivable instance at `index`, created, registered and filled on first use.
    func object<T: KeyedArchivable>(ofType type: T.Type, at reference: ArchiveReference) throws -> T {
        let (index, entry) = try self.entry(reference)
        if let existing = instances[index] {
            guard let typed = existing as? T else { throw mismatch(expected: T.archiveClassName, at: index) }
            return typed
        }
        guard let name = contents.classNames[index], case .dictionary(let objectFields) = entry else {
            throw mismatch(expected: T.archiveClassName, at: index)
        }
        guard let archivedClass = allowedClasses[name] else {
            if FoundationClass.all.contains(name) { throw mismatch(expected: T.archiveClassName, at: index) }
            throw ArchiveError(.classNotAllowed(name), objectIndex: index)
        }
        guard let typedClass = archivedClass as? T.Type else { throw mismatch(expected: T.archiveClassName, at: index) }

        let instance = typedClass.init()
        instances[index] = instance
        let outerFields = fields
        fields = objectFields
        defer { fields = outerFields }
        do { try nested { try instance.decode(from: self) } } catch let error as ArchiveError {
            throw error.inObject(index)
        }
        return instance
    }

    private func nested<Result>(_ body: () throws -> Result) throws -> Result {
        guard depth < limits.maxDepth else { throw ArchiveError(.nestingTooDeep(limit: limits.maxDepth)) }
        depth += 1
        defer { depth -= 1 }
        return try body()
    }
}
