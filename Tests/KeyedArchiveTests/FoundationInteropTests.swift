import Foundation
import Testing
import KeyedArchive
import PropertyList

// Foundation's NSKeyedArchiver on this machine is the reference: each side must read the other.

/// Foundation's twin of `Node`, mapped to the same class name "WLNode".
final class FoundationNode: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }

    var name = ""
    var count = 0
    var flag = false
    var ratio = 0.0
    var stamp: Date?
    var tags: [String] = []
    var children: [FoundationNode] = []
    var parent: FoundationNode?

    override init() {}

    required init?(coder: NSCoder) {
        name = coder.decodeObject(of: NSString.self, forKey: "name") as String? ?? ""
        count = coder.decodeInteger(forKey: "count")
        flag = coder.decodeBool(forKey: "flag")
        ratio = coder.decodeDouble(forKey: "ratio")
        stamp = coder.decodeObject(of: NSDate.self, forKey: "stamp") as Date?
        tags = coder.decodeObject(of: [NSArray.self, NSString.self], forKey: "tags") as? [String] ?? []
        children = coder.decodeObject(of: [NSArray.self, FoundationNode.self], forKey: "children") as? [FoundationNode] ?? []
        parent = coder.decodeObject(of: FoundationNode.self, forKey: "parent")
    }

    func encode(with coder: NSCoder) {
        coder.encode(name as NSString, forKey: "name")
        coder.encode(count, forKey: "count")
        coder.encode(flag, forKey: "flag")
        coder.encode(ratio, forKey: "ratio")
        coder.encode(stamp.map { $0 as NSDate }, forKey: "stamp")
        coder.encode(tags as NSArray, forKey: "tags")
        coder.encode(children as NSArray, forKey: "children")
        coder.encode(parent, forKey: "parent")
    }
}

private func foundationUnarchive(_ data: Data, classes: [AnyClass]) throws -> Any? {
    let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
    unarchiver.setClass(FoundationNode.self, forClassName: Node.archiveClassName)
    return unarchiver.decodeObject(of: classes, forKey: NSKeyedArchiveRootObjectKey)
}

/// This machine's NSKeyedArchiver ignores `setClassName(_:for:)` and always writes
/// NSStringFromClass ("KeyedArchiveTests.FoundationNode"), so the name is mapped on our side.
private let foundationNodeName = NSStringFromClass(FoundationNode.self)

private func foundationArchive(_ root: Any) -> Data {
    let archiver = NSKeyedArchiver(requiringSecureCoding: true)
    archiver.encode(root, forKey: NSKeyedArchiveRootObjectKey)
    archiver.finishEncoding()
    return archiver.encodedData
}

private let plainClasses: [AnyClass] = [NSArray.self, NSDictionary.self, NSString.self, NSNumber.self, NSData.self, NSDate.self]

// MARK: Ours -> Foundation

@Test(arguments: [PropertyListFormat.binary, .xml])
func foundationReadsOurPlainValues(format: PropertyListFormat) throws {
    let when = Date(timeIntervalSinceReferenceDate: 12_345.5)
    func read<T: ArchiveStorable>(_ value: T) throws -> Any? {
        try foundationUnarchive(try KeyedArchiver.archivedData(withRootObject: value, format: format), classes: plainClasses)
    }
    #expect(try read("héllo") as? String == "héllo")
    #expect(try read([1, -2, 3]) as? [Int] == [1, -2, 3])
    #expect(try read([0.5, 2]) as? [Double] == [0.5, 2])
    #expect(try read([true, false]) as? [Bool] == [true, false])
    #expect(try read(Data([1, 2, 3])) as? Data == Data([1, 2, 3]))
    #expect(try read(when) as? Date == when)
    #expect(try read(["k": ["a", "b"], "empty": []]) as? [String: [String]] == ["k": ["a", "b"], "empty": []])
}

/// Shared references but no cycle: this machine's NSKeyedUnarchiver registers an object only
/// after its init(coder:) returns, so it recurses forever on any cycle, its own archives included.
@Test func foundationReadsOurObjectGraph() throws {
    let tree = sampleTree()
    for child in tree.children { child.parent = nil }
    let data = try KeyedArchiver.archivedData(withRootObject: tree)
    let root = try #require(try foundationUnarchive(data, classes: [FoundationNode.self]) as? FoundationNode)
    #expect(root.name == "root")
    #expect(root.count == -42)
    #expect(root.flag)
    #expect(root.ratio == 2.5)
    #expect(root.stamp == Date(timeIntervalSinceReferenceDate: 765_432.125))
    #expect(root.tags == ["a", "b", "a"])
    #expect(root.children.map(\.name) == ["left", "shared"])
    #expect(root.children[0].children[0] === root.children[1])
}

// MARK: Foundation -> ours

@Test func weReadFoundationsPlainValues() throws {
    let when = Date(timeIntervalSinceReferenceDate: -3.25)
    func read<T: ArchiveStorable>(_ value: Any, as type: T.Type) throws -> T {
        try KeyedUnarchiver.unarchivedObject(ofClass: type, from: foundationArchive(value))
    }
    #expect(try read("héllo" as NSString, as: String.self) == "héllo")
    #expect(try read(NSMutableString(string: "grow"), as: String.self) == "grow")
    #expect(try read([1, -2, 3] as NSArray, as: [Int].self) == [1, -2, 3])
    #expect(try read(NSMutableArray(array: [0.5, 2]), as: [Double].self) == [0.5, 2])
    #expect(try read([true, false] as NSArray, as: [Bool].self) == [true, false])
    #expect(try read(NSData(bytes: [1, 2, 3] as [UInt8], length: 3), as: Data.self) == Data([1, 2, 3]))
    #expect(try read(NSMutableData(bytes: [4] as [UInt8], length: 1), as: Data.self) == Data([4]))
    #expect(try read(when as NSDate, as: Date.self) == when)
    #expect(try read(["k": ["a", "b"]] as NSDictionary, as: [String: [String]].self) == ["k": ["a", "b"]])
    #expect(try read(NSMutableDictionary(dictionary: ["n": 1]), as: [String: Int].self) == ["n": 1])
}

@Test func weReadFoundationsObjectGraph() throws {
    let root = FoundationNode()
    root.name = "root"
    root.count = 7
    root.flag = true
    root.ratio = -0.25
    root.stamp = Date(timeIntervalSinceReferenceDate: 99)
    root.tags = ["t"]
    let shared = FoundationNode()
    shared.name = "shared"
    shared.parent = root
    let left = FoundationNode()
    left.name = "left"
    left.children = [shared]
    root.children = [left, shared]

    let unarchiver = try KeyedUnarchiver(data: foundationArchive(root), renamedClasses: [foundationNodeName: Node.self])
    let copy = try #require(try unarchiver.decodeObject(of: Node.self, forKey: "root"))
    #expect(copy.name == "root")
    #expect(copy.count == 7)
    #expect(copy.flag)
    #expect(copy.ratio == -0.25)
    #expect(copy.stamp == Date(timeIntervalSinceReferenceDate: 99))
    #expect(copy.tags == ["t"])
    #expect(copy.children.map(\.name) == ["left", "shared"])
    #expect(copy.children[0].children[0] === copy.children[1])
    #expect(copy.children[1].parent === copy)
    #expect(copy.children[0].parent == nil)
}

@Test func foundationsArchiveOfAnUnlistedClassIsRefused() throws {
    let data = foundationArchive(FoundationNode())
    #expect(throws: ArchiveError(.classNotAllowed(foundationNodeName), objectIndex: 1)) {
        try KeyedUnarchiver.unarchivedObject(ofClass: Bookmark.self, from: data)
    }
}
