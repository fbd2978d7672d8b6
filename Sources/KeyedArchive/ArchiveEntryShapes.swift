import PropertyList

/// What an `$objects` entry is, as far as decoding it as an object goes.
enum ArchiveEntryShape: UInt8 {
    /// A string, number, data or date: decoded as itself.
    case value
    /// A dictionary whose `$class` names a well-formed class description.
    case object
    /// A `{$classname, $classes}` dictionary, or any entry some `$class` points at.
    case classDescription
    case plainDictionary
    case array
    case uid
}

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
    ///   - shapes: Each entry's shape, class descriptions marked as such however they look.
    ///   - referencedAsValue: For each entry, whether a UID other than a `$class` points at it.
    static func check(_ shapes: [ArchiveEntryShape], objects: [PropertyListValue], top: [String: PropertyListValue],
                      referencedAsValue: [Bool]) throws {
        for index in shapes.indices.dropFirst() {
            let problem: String
            switch shapes[index] {
            case .value, .object: continue
            case .classDescription:
                // Behind a `$class`, or behind nothing at all, a description is never decoded.
                guard referencedAsValue[index] else { continue }
                problem = "a class description, used as an object"
            case .plainDictionary: problem = "a dictionary without $class"
            case .array: problem = "a plain array, not an object with $class"
            case .uid: problem = "a UID, a reference where an object belongs"
            }
            let path = ArchiveReferencePath.first(to: index, top: top, objects: objects) ?? []
            throw ArchiveError(.notAnObject(problem), keyPath: path, objectIndex: index)
        }
    }
}
