import FoundationEssentials
import KeyedArchive

extension RestorationEngine {
    /// The saved archive and what was left out of it.
    public struct Preserved {
        /// The archive, ready to be written.
        public let data: Data
        /// Identifier paths saved, root first.
        public let paths: [String]
        /// What was left out, and why.
        public let log: [String]
    }

    /// Archives `root` (and the modals whose policy lets them be preserved) with `header`.
    /// Throws on a duplicate identifier under `.fail`, or when an object's encoding throws.
    public func preserve(root: any Restorable, modals: [any Restorable] = [], header: RestorationHeader,
                         delegate: RestorationDelegate? = nil) throws -> Preserved {
        var walk = PreservationWalk(policy: duplicatePolicy, maximumDepth: maximumDepth)
        let rootNode = try walk.node(for: root, parentPath: [])
        var modalNodes: [RestorationNode] = []
        var modalIDs: Set<String> = []
        for modal in modals {
            guard let id = modal.restorationIdentifier else { continue }
            guard modalIDs.insert(id).inserted else {
                try walk.duplicate(["Modals", id])
                continue
            }
            if let node = try walk.node(for: modal, parentPath: ["Modals"]) {
                modalNodes.append(node)
                modalNodes += walk.formerNames(of: node, besides: modalIDs)
            }
        }

        let archiver = KeyedArchiver()
        try delegate?.willEncodeRestorableState(with: archiver)
        try header.encode(with: archiver)
        try archiver.encode(rootNode, forKey: RestorationHeader.Key.root)
        try archiver.encode(modalNodes, forKey: RestorationHeader.Key.modals)
        return Preserved(data: try archiver.encodedData(format: .binary), paths: walk.paths, log: walk.log)
    }
}

/// Builds the node tree by UIKit's rules: no identifier, no node and no subtree.
private struct PreservationWalk {
    let policy: RestorationEngine.DuplicatePolicy
    let maximumDepth: Int
    var paths: [String] = []
    var log: [String] = []

    mutating func node(for object: any Restorable, parentPath: [String]) throws -> RestorationNode? {
        guard let id = object.restorationIdentifier, !id.isEmpty else { return nil }
        let path = parentPath + [id]
        guard !id.contains("/") else {
            log.append("\(RestorationEngine.path(path)): identifiers may not contain \"/\"; not saved")
            return nil
        }
        guard path.count <= maximumDepth else {
            log.append("\(RestorationEngine.path(path)): deeper than \(maximumDepth) levels; not saved")
            return nil
        }
        paths.append(RestorationEngine.path(path))
        let node = RestorationNode(identifier: id, object: object)
        var siblings: Set<String> = []
        for child in object.restorableChildren {
            guard let childID = child.restorationIdentifier else { continue }
            guard siblings.insert(childID).inserted else {
                try duplicate(path + [childID])
                continue
            }
            if let childNode = try self.node(for: child, parentPath: path) { node.children.append(childNode) }
        }
        let saved = Set(node.children.map(\.identifier))
        node.children += node.children.flatMap { formerNames(of: $0, besides: saved) }
        return node
    }

    /// The node again under each former identifier of its object, sharing its state and its
    /// children (the archive holds them once), so the release before the rename, which knows
    /// only the old name, still restores it. This release skips a former name saved beside
    /// the current one.
    func formerNames(of node: RestorationNode, besides siblings: Set<String>) -> [RestorationNode] {
        guard let object = node.object else { return [] }
        return object.formerRestorationIdentifiers
            .filter { !$0.isEmpty && !$0.contains("/") && !siblings.contains($0) }
            .map { RestorationNode(formerName: $0, of: node) }
    }

    mutating func duplicate(_ path: [String]) throws {
        let joined = RestorationEngine.path(path)
        switch policy {
        case .fail: throw RestorationError(.duplicateIdentifier(path: joined))
        case .skipAndLog: log.append("\(joined): another sibling has this identifier; only the first is saved")
        }
    }
}
