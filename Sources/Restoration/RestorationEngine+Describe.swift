import FoundationEssentials
import KeyedArchive
import PropertyList

extension RestorationEngine {
    /// A saved archive as a person reads it: the header, then every saved object by identifier
    /// path with its restoration class and each key it encoded.
    public struct Summary {
        public struct Node {
            public let path: String
            public let restorationClassName: String?
            public let values: [(key: String, value: PropertyListValue)]
            public let problems: [String]
        }
        public let header: RestorationHeader
        public let nodes: [Node]
        public let appValues: [(key: String, value: PropertyListValue)]
        public let log: [String]
    }

    /// Reads an archive without restoring it. Throws as `restore` does for an archive that
    /// does not decode; a format version this build does not restore is still shown.
    public func describe(_ data: Data) throws -> Summary {
        let (unarchiver, log) = try open(data)
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
