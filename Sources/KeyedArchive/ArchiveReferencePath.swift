import PropertyList

/// The shortest chain of keys from `$top` to an `$objects` entry, for messages about an entry:
/// an index alone says little to someone reading the archive from its root.
///
/// Only asked for once something is wrong, so it may walk the whole archive; UIDs are already
/// known to be in range and the archive's size within the reader's limits.
enum ArchiveReferencePath {
    /// Keys from `$top` (itself first) down to the UID that first reaches `target`, breadth first
    /// in sorted key order so the same archive always names the same path; nil when nothing does.
    static func first(to target: Int, top: [String: PropertyListValue], objects: [PropertyListValue]) -> [String]? {
        // Each reached entry keeps the entry it was reached from and the keys inside that one.
        var reachedFrom: [Int: (parent: Int?, keys: [String])] = [:]
        var queue: [Int] = []
        func visit(_ value: PropertyListValue, parent: Int?, keys: [String], isEntry: Bool) {
            switch value {
            case .uid(let uid):
                let index = Int(uid)
                guard index != 0, index < objects.count, reachedFrom[index] == nil else { return }
                reachedFrom[index] = (parent, keys)
                queue.append(index)
            case .array(let items):
                for (position, item) in items.enumerated() {
                    visit(item, parent: parent, keys: keys + ["[\(position)]"], isEntry: false)
                }
            case .dictionary(let fields):
                // An object's own `$class` leads to its description, not to another object.
                for key in fields.keys.sorted() where !(isEntry && key == ArchiveFormat.classKey) {
                    visit(fields[key]!, parent: parent, keys: keys + [key], isEntry: false)
                }
            default:
                break
            }
        }
        for key in top.keys.sorted() {
            visit(top[key]!, parent: nil, keys: [ArchiveFormat.topKey, key], isEntry: false)
        }
        var next = 0
        while next < queue.count, reachedFrom[target] == nil {
            let index = queue[next]
            next += 1
            visit(objects[index], parent: index, keys: [], isEntry: true)
        }
        guard reachedFrom[target] != nil else { return nil }
        var path: [String] = []
        var current: Int? = target
        while let index = current, let step = reachedFrom[index] {
            path = step.keys + path
            current = step.parent
        }
        return path
    }
}
