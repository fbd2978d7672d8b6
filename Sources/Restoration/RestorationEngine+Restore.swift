import FoundationEssentials
import KeyedArchive
import PropertyList

extension RestorationEngine {
    /// What a restore did: the archive's header, the identifier paths restored, and a line
    /// for everything skipped and why.
    public struct Report {
        /// The saved header: who saved it, when, at which size.
        public let header: RestorationHeader
        /// The identifier paths of the objects restored.
        public let restoredPaths: [String]
        /// What was skipped, and why.
        public let log: [String]
        /// Screens, objects and states the archive holds that this build cannot read (a class,
        /// an identifier or a key's shape of another version's): a save of this build would
        /// drop them.
        public let unknownParts: Int
        /// Whether a save of this build keeps everything the archive held that it knows of.
        public var readWhole: Bool { unknownParts == 0 }
    }

    /// The archive's header alone, without restoring anything.
    public func header(of data: Data) throws -> RestorationHeader {
        let (unarchiver, _, _) = try open(data)
        return try Self.header(from: unarchiver)
    }

    /// Rebuilds the saved tree onto `root`, which the app has created but not yet shown:
    /// each saved object is found among its parent's children (objects the app creates
    /// anyway), else built by its registered restoration class, else skipped with the reason
    /// logged. Custom state is decoded before anything appears; containers then get their
    /// restored children. Throws only when nothing can be restored at all.
    public func restore(from data: Data, root: any Restorable, presentModal: (any Restorable) -> Void = { _ in },
                        delegate: RestorationDelegate? = nil) throws -> Report {
        let (unarchiver, log, unknownClasses) = try open(data)
        let header = try Self.header(from: unarchiver)
        guard header.formatVersion == Self.formatVersion else {
            throw RestorationError(.incompatibleFormat(found: header.formatVersion, supported: Self.formatVersion))
        }
        if let delegate, !delegate.shouldRestoreApplicationState(header) { throw RestorationError(.declinedByApp) }

        let rootNode: RestorationNode?
        let modalNodes: [RestorationNode]
        do {
            rootNode = try unarchiver.decodeObject(of: RestorationNode.self, forKey: RestorationHeader.Key.root)
            modalNodes = (try? unarchiver.decodeObject(of: [RestorationNode].self, forKey: RestorationHeader.Key.modals)) ?? []
        } catch {
            throw RestorationError(.notAnArchive("screen tree: \(error)"))
        }

        var walk = RestorationWalk(engine: self, unarchiver: unarchiver, log: log)
        walk.unknown = unknownClasses
        if let rootNode {
            if root.answers(toRestorationIdentifier: rootNode.identifier) {
                walk.apply(rootNode, to: root, path: [rootNode.identifier])
            } else {
                walk.log.append("root is \"\(rootNode.identifier)\" in the archive but \"\(root.restorationIdentifier ?? "nil")\" in the app; nothing restored")
            }
        } else {
            walk.log.append("the archive holds no screen tree")
        }
        let modalIDs = Set(modalNodes.prefix(maximumChildren).map(\.identifier))
        for node in modalNodes.prefix(maximumChildren) {
            if let modal = walk.rebuild(node, path: ["Modals", node.identifier]),
               !RestorationWalk.isFormerName(node, of: modal, besides: modalIDs) {
                walk.apply(node, to: modal, path: ["Modals", node.identifier])
                presentModal(modal)
            }
        }
        do { try delegate?.didDecodeRestorableState(with: unarchiver) } catch {
            walk.log.append("app-level state skipped: \(error)")
        }
        for object in walk.restored { object.applicationFinishedRestoringState() }
        return Report(header: header, restoredPaths: walk.paths, log: walk.log, unknownParts: walk.unknown)
    }

    /// How many saved objects in `data` this build could not restore onto a tree like `root`'s
    /// (no object of the tree answers to their identifier and no registered class rebuilds them),
    /// plus the classes it does not know; nothing is decoded into the tree. Children of an object
    /// that would be rebuilt are its own business and are not counted. Throws as `restore` does
    /// for an archive it would not restore at all.
    public func unknownParts(in data: Data, comparedWith root: any Restorable) throws -> Int {
        let (unarchiver, _, unknownClasses) = try open(data)
        let header = try Self.header(from: unarchiver)
        guard header.formatVersion == Self.formatVersion else {
            throw RestorationError(.incompatibleFormat(found: header.formatVersion, supported: Self.formatVersion))
        }
        guard let rootNode = try? unarchiver.decodeObject(of: RestorationNode.self, forKey: RestorationHeader.Key.root) else {
            return unknownClasses + 1
        }
        var unknown = unknownClasses
        var visited: Set<ObjectIdentifier> = []
        func visit(_ node: RestorationNode, _ object: any Restorable, depth: Int) {
            guard depth < maximumDepth, visited.insert(ObjectIdentifier(node)).inserted else { return }
            for child in node.children.prefix(maximumChildren) {
                if let existing = object.restorableChildren.first(where: { $0.answers(toRestorationIdentifier: child.identifier) }) {
                    visit(child, existing, depth: depth + 1)
                } else if child.restorationClassName.flatMap(registry.factory(named:)) == nil {
                    unknown += 1
                }
            }
        }
        if root.answers(toRestorationIdentifier: rootNode.identifier) { visit(rootNode, root, depth: 1) } else { unknown += 1 }
        return unknown
    }

    /// Parses the archive, standing in a placeholder for every class this build does not know
    /// (logged), so that what refers to it fails alone rather than the whole archive.
    func open(_ data: Data) throws -> (KeyedUnarchiver, [String], Int) {
        let value: PropertyListValue
        do { value = try PropertyListReader.value(from: data, limits: .restorationState) } catch {
            throw RestorationError(.notAnArchive("not a property list: \(error)"))
        }
        var log: [String] = []
        do {
            let contents = try ArchiveContents(value, limits: .restorationState)
            var known: [String: any KeyedArchivable.Type] = [RestorationNode.archiveClassName: RestorationNode.self]
            for type in allowedClasses { known[type.archiveClassName] = type }
            var renamed: [String: any KeyedArchivable.Type] = [:]
            for (index, name) in contents.classNames.enumerated() {
                guard let name, known[name] == nil, !Self.foundationClassNames.contains(name), renamed[name] == nil else { continue }
                renamed[name] = UnknownArchivedObject.self
                log.append("object \(index): class \(name) is unknown to this build; what refers to it is skipped")
            }
            return (try KeyedUnarchiver(archive: value, allowedClasses: Array(known.values), renamedClasses: renamed, limits: .restorationState), log, renamed.count)
        } catch {
            throw RestorationError(.notAnArchive("\(error)"))
        }
    }

    static func header(from unarchiver: KeyedUnarchiver) throws -> RestorationHeader {
        do {
            guard let decoded = try RestorationHeader.decode(from: unarchiver) else { throw RestorationError(.notARestorationArchive) }
            return decoded
        } catch let error as RestorationError {
            throw error
        } catch {
            throw RestorationError(.notAnArchive("header: \(error)"))
        }
    }

    static let foundationClassNames: Set<String> = [
        "NSString", "NSMutableString", "NSData", "NSMutableData", "NSDate",
        "NSArray", "NSMutableArray", "NSDictionary", "NSMutableDictionary",
    ]
}

/// One pass over the decoded node tree, matching nodes to objects.
private struct RestorationWalk {
    let engine: RestorationEngine
    let unarchiver: KeyedUnarchiver
    var log: [String]
    var paths: [String] = []
    var restored: [any Restorable] = []
    /// Nodes already applied: a crafted archive may make a node its own descendant.
    var visited: Set<ObjectIdentifier> = []
    /// Saved screens this build does not know, and classes it has none of.
    var unknown = 0

    init(engine: RestorationEngine, unarchiver: KeyedUnarchiver, log: [String]) {
        self.engine = engine
        self.unarchiver = unarchiver
        self.log = log
    }

    mutating func apply(_ node: RestorationNode, to object: any Restorable, path: [String]) {
        let joined = RestorationEngine.path(path)
        guard visited.insert(ObjectIdentifier(node)).inserted else {
            log.append("\(joined): the archive refers back to this screen (a cycle); restored once")
            return
        }
        for problem in node.problems { log.append("\(joined): \(problem)") }
        if let scope = node.scope {
            do { try unarchiver.decoding(scope) { try object.decodeRestorableState(with: unarchiver) } } catch {
                log.append("\(joined): state skipped: \(error)")
                unknown += 1  // a key in a shape this build does not read: a save would drop it
            }
        }
        paths.append(joined)
        restored.append(object)

        guard path.count < engine.maximumDepth else {
            if !node.children.isEmpty { log.append("\(joined): deeper than \(engine.maximumDepth) levels; children skipped") }
            object.restoreChildren([])
            return
        }
        var children: [any Restorable] = []
        var seen: Set<String> = []
        let savedIDs = Set(node.children.prefix(engine.maximumChildren).map(\.identifier))
        for (position, childNode) in node.children.enumerated() {
            guard position < engine.maximumChildren else {
                log.append("\(joined): \(node.children.count - position) more saved children skipped (limit \(engine.maximumChildren))")
                break
            }
            let childPath = path + [childNode.identifier]
            guard !childNode.identifier.isEmpty else {
                log.append("\(joined): a saved child has no identifier; skipped")
                continue
            }
            guard seen.insert(childNode.identifier).inserted else {
                log.append("\(RestorationEngine.path(childPath)): saved twice under one parent; the second is skipped")
                continue
            }
            let existing = object.restorableChildren.first { $0.answers(toRestorationIdentifier: childNode.identifier) }
            guard let child = existing ?? rebuild(childNode, path: childPath),
                  !Self.isFormerName(childNode, of: child, besides: savedIDs) else { continue }
            apply(childNode, to: child, path: childPath)
            children.append(child)
        }
        object.restoreChildren(children)
    }

    /// Whether `node` is `object` saved again under a former name, for the release before a
    /// rename, beside the node under its current name: that one is restored instead.
    static func isFormerName(_ node: RestorationNode, of object: any Restorable, besides savedIDs: Set<String>) -> Bool {
        guard let current = object.restorationIdentifier, current != node.identifier else { return false }
        return savedIDs.contains(current)
    }

    /// Builds an object the app does not create itself, through its restoration class.
    mutating func rebuild(_ node: RestorationNode, path: [String]) -> (any Restorable)? {
        let joined = RestorationEngine.path(path)
        guard let className = node.restorationClassName else {
            log.append("\(joined): no screen of this version has this identifier, and it has no restoration class (a newer version's, or one this version no longer makes); skipped")
            unknown += 1
            return nil
        }
        guard let factory = engine.registry.factory(named: className) else {
            log.append("\(joined): restoration class \(className) is not registered; skipped")
            unknown += 1
            return nil
        }
        let built: (any Restorable)?
        do {
            built = try node.scope.map { scope in try unarchiver.decoding(scope) { try factory(path, unarchiver) } } ?? nil
        } catch {
            log.append("\(joined): restoration class \(className) failed: \(error); skipped")
            return nil
        }
        guard let built else {
            log.append("\(joined): restoration class \(className) declined to rebuild it; skipped")
            return nil
        }
        guard built.answers(toRestorationIdentifier: node.identifier) else {
            log.append("\(joined): restoration class \(className) built \"\(built.restorationIdentifier ?? "nil")\"; skipped")
            return nil
        }
        return built
    }
}
