import PropertyList

/// Which shapes an `$objects` entry may take, as NSKeyedUnarchiver reads them.
///
/// Foundation stores an NSString, NSNumber or NSData as the bare property-list value and every
/// other object as a dictionary whose `$class` names its class; the unarchiver hands a bare
/// value back as it is and builds the rest from their class. A bare date is a property-list
/// value too and comes back as an NSDate. Anything else has no decoding: a plain array or a
/// dictionary without `$class` (corelibs' unarchiver calls it an invalid class reference), or a
/// UID, a reference standing where an object belongs, which no unarchiver follows. A class
/// description is a dictionary without `$class` as well: it belongs only behind a `$class`.
enum ArchiveEntryShapes {
    /// Refuses the first entry no unarchiver decodes, naming its index and the path from
    /// `$top` that reaches it (none when nothing refers to it).
    ///
    /// - Parameters:
    ///   - classDescriptions: The entries some object's `$class` points at, already checked.
    ///   - referencedAsValue: For each entry, whether a UID other than a `$class` points at it.
    static func check(_ objects: [PropertyListValue], top: [String: PropertyListValue],
                      classDescriptions: Set<Int>, referencedAsValue: [Bool]) throws {
        for index in objects.indices.dropFirst() {
            let entry = objects[index]
            let problem: String?
            if classDescriptions.contains(index) || isClassDescription(entry) {
                // Behind a `$class`, or behind nothing at all, a description is never decoded.
                problem = referencedAsValue[index] ? "a class description, used as an object" : nil
            } else {
                problem = Self.problem(with: entry)
            }
            if let problem {
                let path = ArchiveReferencePath.first(to: index, top: top, objects: objects) ?? []
                throw ArchiveError(.notAnObject(problem), keyPath: path, objectIndex: index)
            }
        }
    }

    /// Why `entry` cannot be decoded as an object, or nil when it can.
    static func problem(with entry: PropertyListValue) -> String? {
        switch entry {
        case .string, .integer, .unsignedInteger, .real, .boolean, .data, .date:
            return nil
        case .uid:
            return "a UID, a reference where an object belongs"
        case .array:
            return "a plain array, not an object with $class"
        case .dictionary(let fields):
            if fields[ArchiveFormat.classKey] != nil { return nil }
            return fields[ArchiveFormat.classNameKey] != nil
                ? "a class description, used as an object"
                : "a dictionary without $class"
        }
    }

    private static func isClassDescription(_ entry: PropertyListValue) -> Bool {
        guard case .dictionary(let fields) = entry else { return false }
        return fields[ArchiveFormat.classKey] == nil && fields[ArchiveFormat.classNameKey] != nil
    }
}
