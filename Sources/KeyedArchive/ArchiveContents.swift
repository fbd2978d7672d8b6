import PropertyList

/// A keyed archive's structure, checked once up front: the header, `$objects` starting with
/// "$null", every UID in range, every `$class` pointing at a well-formed class description and
/// every entry a shape NSKeyedUnarchiver decodes as an object (see `ArchiveEntryShapes`).
///
/// Checking eagerly means a damaged file is reported with the index of the bad entry before
/// any object is built, and the decoder and `wonderland plist print` can index `$objects`
/// knowing each UID they meet is in range.
public struct ArchiveContents: Sendable {
    /// The `$top` dictionary: the archive's root keys, each a UID into ``objects`` (`root` for an
    /// archive made by `archivedData(withRootObject:)`).
    public let top: [String: PropertyListValue]
    /// The `$objects` array, entry 0 being "$null"; every UID met in it is in range.
    public let objects: [PropertyListValue]
    /// For each `$objects` entry that has a `$class`, its class name; nil for plain entries.
    public let classNames: [String?]

    /// Whether `value` claims to be a keyed archive (a dictionary with `$archiver`), so a tool
    /// can decide between treating it as an archive or as a plain property list.
    public static func isKeyedArchive(_ value: PropertyListValue) -> Bool {
        if case .dictionary(let root) = value { return root[ArchiveFormat.archiverKey] != nil }
        return false
    }

    /// `limits` bound the walk that checks every UID: it visits each entry's nested values as a
    /// tree, so it may meet at most `maxExpandedElements` of them, nested at most `maxDepth` deep.
    public init(_ value: PropertyListValue, limits: PropertyListLimits = .userFile) throws {
        guard case .dictionary(let root) = value else {
            throw ArchiveError(.badHeader(key: "top level", problem: "is \(value.kindName), not dictionary"))
        }
        try Self.check(root, ArchiveFormat.archiverKey, is: .string(ArchiveFormat.archiverName))
        try Self.check(root, ArchiveFormat.versionKey, is: .integer(ArchiveFormat.version))
        guard case .dictionary(let top)? = root[ArchiveFormat.topKey] else {
            throw ArchiveError(.badHeader(key: ArchiveFormat.topKey, problem: Self.problem(root[ArchiveFormat.topKey], "dictionary")))
        }
        guard case .array(let objects)? = root[ArchiveFormat.objectsKey] else {
            throw ArchiveError(.badHeader(key: ArchiveFormat.objectsKey, problem: Self.problem(root[ArchiveFormat.objectsKey], "array")))
        }
        guard objects.first == .string(ArchiveFormat.nullMarker) else { throw ArchiveError(.missingNullMarker) }

        var walk = UIDCheck(count: objects.count, limits: limits)
        for (key, entry) in top {
            do { try walk.check(entry, depth: 0) } catch let error as ArchiveError {
                throw error.under(key).under(ArchiveFormat.topKey)
            }
        }
        var classNames = [String?](repeating: nil, count: objects.count)
        var shapes = [ArchiveEntryShape](repeating: .value, count: objects.count)
        // Each class description is checked once, however many objects name it.
        var describedNames = [String?](repeating: nil, count: objects.count)
        for (index, entry) in objects.enumerated() {
            do {
                try walk.checkEntry(entry)
                switch entry {
                case .dictionary(let fields):
                    if let classRef = fields[ArchiveFormat.classKey] {
                        classNames[index] = try Self.className(classRef, in: objects, describedNames: &describedNames)
                        shapes[index] = .object
                    } else if fields[ArchiveFormat.classNameKey] != nil {
                        _ = try Self.classDescription(entry)
                        shapes[index] = .classDescription
                    } else {
                        shapes[index] = .plainDictionary
                    }
                case .array: shapes[index] = .array
                case .uid: shapes[index] = .uid
                case .string, .integer, .unsignedInteger, .real, .boolean, .data, .date: break
                }
            } catch let error as ArchiveError {
                throw error.inObject(index)
            }
        }
        for (index, name) in describedNames.enumerated() where name != nil { shapes[index] = .classDescription }
        try ArchiveEntryShapes.check(shapes, objects: objects, top: top, referencedAsValue: walk.referencedAsValue)
        self.top = top
        self.objects = objects
        self.classNames = classNames
    }

    /// The `$objects` index a UID names; `ArchiveContents.init` has already range-checked
    /// every UID, so this only guards values built by hand.
    func index(of uid: UInt64) throws -> Int {
        guard uid < UInt64(objects.count) else { throw ArchiveError(.uidOutOfRange(uid: uid, objectCount: objects.count)) }
        return Int(uid)
    }

    private static func check(_ root: [String: PropertyListValue], _ key: String, is expected: PropertyListValue) throws {
        guard let found = root[key] else { throw ArchiveError(.badHeader(key: key, problem: "is missing")) }
        guard found == expected else {
            throw ArchiveError(.badHeader(key: key, problem: "is \(describe(found)), expected \(describe(expected))"))
        }
    }

    private static func problem(_ found: PropertyListValue?, _ expected: String) -> String {
        guard let found else { return "is missing" }
        return "is \(found.kindName), not \(expected)"
    }

    private static func describe(_ value: PropertyListValue) -> String {
        switch value {
        case .string(let text): return "\"\(text)\""
        case .integer, .unsignedInteger: return value.integerText ?? ""
        default: return value.kindName
        }
    }

    private static func className(_ classRef: PropertyListValue, in objects: [PropertyListValue],
                                  describedNames: inout [String?]) throws -> String {
        guard case .uid(let uid) = classRef else {
            throw ArchiveError(.malformedClass("$class is \(classRef.kindName), not UID"))
        }
        guard uid != 0 else { throw ArchiveError(.malformedClass("$class is the null UID")) }
        if let known = describedNames[Int(uid)] { return known }
        do {
            let name = try classDescription(objects[Int(uid)])
            describedNames[Int(uid)] = name
            return name
        } catch let error as ArchiveError {
            throw error.under(ArchiveFormat.classKey)
        }
    }

    /// The class name a `{$classname, $classes}` description gives, once its shape is checked.
    private static func classDescription(_ value: PropertyListValue) throws -> String {
        guard case .dictionary(let fields) = value else {
            throw ArchiveError(.malformedClass("class description is \(value.kindName), not dictionary"))
        }
        guard case .string(let name)? = fields[ArchiveFormat.classNameKey], !name.isEmpty else {
            throw ArchiveError(.malformedClass("$classname is missing, empty or not a string"))
        }
        if let hierarchy = fields[ArchiveFormat.classHierarchyKey] {
            guard case .array(let names) = hierarchy, names.allSatisfy({ if case .string = $0 { true } else { false } }) else {
                throw ArchiveError(.malformedClass("$classes of \(name) is not an array of strings"))
            }
        }
        return name
    }
}

/// Walks `$top` and each entry's nested plain values checking every UID is in range; entries
/// are shallow in any real archive, so the depth and size limits only ever stop hostile input.
private struct UIDCheck {
    let count: Int
    let limits: PropertyListLimits
    private var visited = 0
    /// Entries some UID other than an object's `$class` points at: those are read as objects,
    /// so a class description among them is a description standing where an object belongs.
    private(set) var referencedAsValue: [Bool]

    init(count: Int, limits: PropertyListLimits) {
        self.count = count
        self.limits = limits
        referencedAsValue = Array(repeating: false, count: count)
    }

    /// An `$objects` entry: its own `$class` names a class description, not an object.
    mutating func checkEntry(_ entry: PropertyListValue) throws {
        guard case .dictionary(let fields) = entry else { return try check(entry, depth: 0) }
        visited += 1
        guard visited <= limits.maxExpandedElements else { throw ArchiveError(.tooManyValues(limit: limits.maxExpandedElements)) }
        for (key, item) in fields {
            do { try check(item, depth: 1, isClassReference: key == ArchiveFormat.classKey) } catch let error as ArchiveError {
                throw error.under(key)
            }
        }
    }

    mutating func check(_ value: PropertyListValue, depth: Int, isClassReference: Bool = false) throws {
        guard depth < limits.maxDepth else { throw ArchiveError(.nestingTooDeep(limit: limits.maxDepth)) }
        visited += 1
        guard visited <= limits.maxExpandedElements else { throw ArchiveError(.tooManyValues(limit: limits.maxExpandedElements)) }
        switch value {
        case .uid(let uid):
            guard uid < UInt64(count) else { throw ArchiveError(.uidOutOfRange(uid: uid, objectCount: count)) }
            if !isClassReference { referencedAsValue[Int(uid)] = true }
        case .array(let items):
            for (position, item) in items.enumerated() {
                do { try check(item, depth: depth + 1) } catch let error as ArchiveError {
                    throw error.under("[\(position)]")
                }
            }
        case .dictionary(let fields):
            for (key, item) in fields {
                do { try check(item, depth: depth + 1) } catch let error as ArchiveError {
                    throw error.under(key)
                }
            }
        case .string, .integer, .unsignedInteger, .real, .boolean, .date, .data:
            break
        }
    }
}
