import Foundation
import KeyedArchive
import PropertyList

/// One screen-like record that uses every kind of keyed value.
final class Node: KeyedArchivable {
    static let archiveClassName = "WLNode"

    var name = ""
    var count = 0
    var flag = false
    var ratio = 0.0
    var scale: Float = 0
    var small: Int8 = 0
    var wide: Int64 = 0
    var unsigned: UInt32 = 0
    var stamp: Date?
    var blob: Data?
    var tags: [String] = []
    var weights: [String: Double] = [:]
    var children: [Node] = []
    var parent: Node?

    init() {}

    init(_ name: String) { self.name = name }

    func encode(with archiver: KeyedArchiver) throws {
        try archiver.encode(name, forKey: "name")
        archiver.encode(count, forKey: "count")
        archiver.encode(flag, forKey: "flag")
        archiver.encode(ratio, forKey: "ratio")
        archiver.encode(scale, forKey: "scale")
        archiver.encode(small, forKey: "small")
        archiver.encode(wide, forKey: "wide")
        archiver.encode(unsigned, forKey: "unsigned")
        try archiver.encode(stamp, forKey: "stamp")
        try archiver.encode(blob, forKey: "blob")
        try archiver.encode(tags, forKey: "tags")
        try archiver.encode(weights, forKey: "weights")
        try archiver.encode(children, forKey: "children")
        try archiver.encode(parent, forKey: "parent")
    }

    func decode(from unarchiver: KeyedUnarchiver) throws {
        name = try unarchiver.decodeObject(of: String.self, forKey: "name") ?? ""
        count = try unarchiver.decodeInteger(forKey: "count")
        flag = try unarchiver.decodeBool(forKey: "flag")
        ratio = try unarchiver.decodeDouble(forKey: "ratio")
        scale = try unarchiver.decodeFloat(forKey: "scale")
        small = try unarchiver.decodeInteger(Int8.self, forKey: "small")
        wide = try unarchiver.decodeInt64(forKey: "wide")
        unsigned = try unarchiver.decodeInteger(UInt32.self, forKey: "unsigned")
        stamp = try unarchiver.decodeObject(of: Date.self, forKey: "stamp")
        blob = try unarchiver.decodeObject(of: Data.self, forKey: "blob")
        tags = try unarchiver.decodeObject(of: [String].self, forKey: "tags") ?? []
        weights = try unarchiver.decodeObject(of: [String: Double].self, forKey: "weights") ?? [:]
        children = try unarchiver.decodeObject(of: [Node].self, forKey: "children") ?? []
        parent = try unarchiver.decodeObject(of: Node.self, forKey: "parent")
    }
}

/// A second class, for asking for one class and finding another.
final class Bookmark: KeyedArchivable {
    static let archiveClassName = "WLBookmark"
    var title = ""

    init() {}

    func encode(with archiver: KeyedArchiver) throws { try archiver.encode(title, forKey: "title") }
    func decode(from unarchiver: KeyedUnarchiver) throws {
        title = try unarchiver.decodeObject(of: String.self, forKey: "title") ?? ""
    }
}

/// A small family with a shared child and a cycle through `parent`.
func sampleTree() -> Node {
    let root = Node("root")
    root.count = -42
    root.flag = true
    root.ratio = 2.5
    root.scale = 1.25
    root.small = -7
    root.wide = Int64.min
    root.unsigned = UInt32.max
    root.stamp = Date(timeIntervalSinceReferenceDate: 765_432.125)
    root.blob = Data([0, 1, 2, 255])
    root.tags = ["a", "b", "a"]
    root.weights = ["x": 1.5, "y": -2]
    let shared = Node("shared")
    shared.parent = root
    let left = Node("left")
    left.children = [shared]
    left.parent = root
    root.children = [left, shared]
    return root
}

/// Builds an archive tree by hand, for crafting damaged ones.
func archive(
    top: [String: PropertyListValue] = ["root": .uid(1)],
    objects: [PropertyListValue],
    archiver: PropertyListValue = .string("NSKeyedArchiver"),
    version: PropertyListValue = .integer(100_000)
) -> PropertyListValue {
    .dictionary([
        "$archiver": archiver, "$version": version, "$top": .dictionary(top),
        "$objects": .array([.string("$null")] + objects),
    ])
}

func classEntry(_ name: String) -> PropertyListValue {
    .dictionary(["$classname": .string(name), "$classes": .array([.string(name), .string("NSObject")])])
}

/// Decodes the root of a hand-built archive tree and returns the ArchiveError it throws.
func decodeError<T: ArchiveStorable>(
    _ value: PropertyListValue, as type: T.Type, allowed: [any KeyedArchivable.Type] = [Node.self]
) -> ArchiveError? {
    do {
        let unarchiver = try KeyedUnarchiver(archive: value, allowedClasses: allowed)
        _ = try unarchiver.decodeObject(of: type, forKey: "root")
        return nil
    } catch let error as ArchiveError {
        return error
    } catch {
        return ArchiveError(.unreadablePropertyList("unexpected \(error)"))
    }
}
