import KeyedArchive

/// One preserved object in the archive: its identifier, its restoration class, its children,
/// and beside them in the same archived object, the keys its `encodeRestorableState` wrote.
/// Keys starting "WL" are the engine's.
final class RestorationNode: KeyedArchivable {
    static let archiveClassName = "WLRestorationNode"

    enum Key {
        static let identifier = "WLIdentifier"
        static let restorationClass = "WLRestorationClass"
        static let children = "WLChildren"
    }

    var identifier = ""
    var restorationClassName: String?
    var children: [RestorationNode] = []
    /// Encoding: the object whose state goes into this node.
    var object: (any Restorable)?
    /// Decoding: the node's keys, decoded once its object is found or rebuilt.
    var scope: ArchiveFieldScope?
    /// Decoding: what could not be read, to be logged under the node's path.
    var problems: [String] = []

    init() {}

    init(identifier: String, object: any Restorable) {
        self.identifier = identifier
        self.object = object
        restorationClassName = object.restorationClassName
    }

    /// `node` saved again under `identifier`, an older name of its object.
    init(formerName identifier: String, of node: RestorationNode) {
        self.identifier = identifier
        object = node.object
        restorationClassName = node.restorationClassName
        children = node.children
    }

    func encode(with archiver: KeyedArchiver) throws {
        // The object's keys first, so it cannot overwrite the engine's.
        try object?.encodeRestorableState(with: archiver)
        try archiver.encode(identifier, forKey: Key.identifier)
        if let restorationClassName { try archiver.encode(restorationClassName, forKey: Key.restorationClass) }
        try archiver.encode(children, forKey: Key.children)
    }

    /// Lenient on purpose: a node that is partly unreadable still restores what it can, and
    /// says what it skipped.
    func decode(from unarchiver: KeyedUnarchiver) throws {
        scope = unarchiver.currentScope
        do { identifier = try unarchiver.decodeObject(of: String.self, forKey: Key.identifier) ?? "" } catch {
            problems.append("identifier unreadable: \(error)")
        }
        do { restorationClassName = try unarchiver.decodeObject(of: String.self, forKey: Key.restorationClass) } catch {
            problems.append("restoration class unreadable: \(error)")
        }
        do { children = try unarchiver.decodeObject(of: [RestorationNode].self, forKey: Key.children) ?? [] } catch {
            problems.append("children unreadable, none restored: \(error)")
        }
    }
}

/// Stands in for a class the archive names but this build does not know (a newer version's,
/// or a hostile archive's), so the rest of the archive still decodes; any key that refers to
/// it fails on its own, with a type mismatch.
final class UnknownArchivedObject: KeyedArchivable {
    static let archiveClassName = "WLUnknownArchivedObject"
    init() {}
    func encode(with archiver: KeyedArchiver) throws {}
    func decode(from unarchiver: KeyedUnarchiver) throws {}
}
