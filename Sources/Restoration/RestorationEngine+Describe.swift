import FoundationEssentials
import KeyedArchive
import PropertyList

extension RestorationEngine {
    /// A saved archive as a person reads it: the header, then every saved object by identifier
    /// path with its restoration class and each key it encoded. `wonderland state show` prints one.
    public struct Summary {
        /// One saved object.
        public struct Node {
            /// Its identifier path, root first, joined with "/" ("Tabs/Stack/Counter"); modals are under
            /// "Modals".
            public let path: String
            /// The restoration class that would rebuild it, or `nil` when the app makes it itself.
            public let restorationClassName: String?
            /// The keys the object encoded, with their values as property list values.
            public let values: [(key: String, value: PropertyListValue)]
            /// What is wrong with this object's entry (a cycle, too many children), as sentences.
            public let problems: [String]
        }
        /// Who saved the archive, when, and at which terminal size.
        public let header: RestorationHeader
        /// Every saved object, each before its children.
        public let nodes: [Node]
        /// The app-level keys a ``RestorationDelegate`` wrote beside the tree.
        public let appValues: [(key: String, value: PropertyListValue)]
        /// What reading the archive noticed: classes unknown to this build, whose objects a
        /// restore would skip.
        public let log: [String]
    }

    /// Reads an archive without restoring it, for inspecting a saved state.
    ///
    /// A format version this build does not restore is still shown.
    ///
    /// - Parameter data: The archive, as ``RestorationFiles/readArchive()`` returns it.
    /// - Returns: The header and every saved object with its keys.
    /// - Throws: ``RestorationError`` as ``restore(from:root:presentModal:delegate:)`` does for an
    ///   archive that does not decode.
    public func describe(_ data: Data) throws -> Summary {
        let (unarchiver, log, _) = try open(data)
        let header = try Self.header(from: unarchiver)
        let appValues = Self.values(in: unarchiver, skipping: RestorationHeader.Key.all)
        var nodes: [Summary.Node] = []
        var visited: Set<ObjectIdentifier> = []
        func walk(_ node: RestorationNode, parent: [String]) {
            guard parent.count < maximumDepth else { return }
            let path = parent + [node.identifier]
            guard visited.insert(ObjectIdentifier(node)).inserted else {
                nodes.append(Summary.Node(path: Self.path(path), restorationClassName: node.restorationClassName, values: [],
                                          problems: ["the archive refers back to this screen (a cycle); shown once"]))
                return
            }
            let values = node.scope.map { scope in
                unarchiver.decoding(scope) {
                    Self.values(in: unarchiver, skipping: [RestorationNode.Key.identifier, RestorationNode.Key.restorationClass,
                                                         RestorationNode.Key.children, ArchiveFormat.classKey])
                }
            } ?? []
            var problems = node.problems
            // As restore does: past the limit, children are counted, not listed.
            if node.children.count > maximumChildren {
                problems.append("\(node.children.count - maximumChildren) more saved children not shown (limit \(maximumChildren)); a launch skips them")
            }
            nodes.append(Summary.Node(path: Self.path(path), restorationClassName: node.restorationClassName, values: values, problems: problems))
            for child in node.children.prefix(maximumChildren) { walk(child, parent: path) }
        }
        if let root = try? unarchiver.decodeObject(of: RestorationNode.self, forKey: RestorationHeader.Key.root) { walk(root, parent: []) }
        for modal in (try? unarchiver.decodeObject(of: [RestorationNode].self, forKey: RestorationHeader.Key.modals)) ?? [] {
            walk(modal, parent: ["Modals"])
        }
        return Summary(header: header, nodes: nodes, appValues: appValues, log: log)
    }

    private static func values(in unarchiver: KeyedUnarchiver, skipping reserved: Set<String>) -> [(key: String, value: PropertyListValue)] {
        unarchiver.currentScope.keys.filter { !reserved.contains($0) }.compactMap { key in
            unarchiver.displayValue(forKey: key).map { (key, $0) }
        }
    }
}
