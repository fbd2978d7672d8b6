import Foundation
import KeyedArchive
import PropertyList
import Restoration
import Testing

/// Edits a saved archive at the property-list level, as an attacker or a bad disk would.
struct ArchiveSurgery {
    var top: [String: PropertyListValue]
    var objects: [PropertyListValue]
    var root: [String: PropertyListValue]

    init(_ data: Data) throws {
        guard case .dictionary(let root) = try PropertyListReader.value(from: data),
              case .dictionary(let top)? = root["$top"], case .array(let objects)? = root["$objects"] else {
            throw CocoaError(.fileReadCorruptFile)
        }
        self.root = root
        self.top = top
        self.objects = objects
    }

    func data() throws -> Data {
        var root = self.root
        root["$top"] = .dictionary(top)
        root["$objects"] = .array(objects)
        return try PropertyListSerializer.data(from: .dictionary(root), format: .binary)
    }

    /// The `$objects` index of the node saved under `identifier`.
    func node(_ identifier: String) throws -> Int {
        let index = objects.firstIndex { entry in
            guard case .dictionary(let fields) = entry, case .uid(let uid)? = fields["WLIdentifier"] else { return false }
            return objects[Int(uid)] == .string(identifier)
        }
        return try #require(index)
    }

    mutating func set(_ key: String, _ value: PropertyListValue, inNode identifier: String) throws {
        let index = try node(identifier)
        guard case .dictionary(var fields) = objects[index] else { return }
        fields[key] = value
        objects[index] = .dictionary(fields)
    }

    mutating func append(_ value: PropertyListValue) -> UInt64 {
        objects.append(value)
        return UInt64(objects.count - 1)
    }

    /// The NS.objects list of a node's children array.
    mutating func setChildren(_ uids: [UInt64], ofNode identifier: String) throws {
        let index = try node(identifier)
        guard case .dictionary(let fields) = objects[index], case .uid(let arrayUID)? = fields["WLChildren"],
              case .dictionary(var array) = objects[Int(arrayUID)] else { throw CocoaError(.fileReadCorruptFile) }
        array["NS.objects"] = .array(uids.map { .uid($0) })
        objects[Int(arrayUID)] = .dictionary(array)
    }

    mutating func newClass(_ name: String) -> UInt64 {
        append(.dictionary(["$classname": .string(name), "$classes": .array([.string(name), .string("NSObject")])]))
    }
}

@Suite("Hostile archives restore what they can")
struct HostileArchiveTests {
    let engine = RestorationEngine()

    func savedTree() throws -> Data {
        try preserve(FakeScreen("Root", value: "root", [FakeScreen("Nav", value: "nav", [FakeScreen("List", value: "list")]), FakeScreen("Book", value: "book")]))
    }

    func freshTree() -> FakeScreen { FakeScreen("Root", [FakeScreen("Nav", [FakeScreen("List")]), FakeScreen("Book")]) }

    @Test func wrongTypesUnderKnownKeysSkipThatScreensStateOnly() throws {
        var surgery = try ArchiveSurgery(try savedTree())
        try surgery.set("value", .integer(5), inNode: "Nav")        // a number where a string belongs
        try surgery.set("number", .string("seven"), inNode: "Book")  // a string where a number belongs
        let fresh = freshTree()
        let report = try engine.restore(from: try surgery.data(), root: fresh)
        #expect(fresh.value == "root")
        #expect(fresh.child("Nav")?.child("List")?.value == "list")  // below the bad node, still restored
        #expect(report.log.contains { $0.hasPrefix("Root/Nav: state skipped") })
        #expect(report.log.contains { $0.hasPrefix("Root/Book: state skipped") })
        #expect(report.restoredPaths.count == 4)
    }

    @Test func childrenOfTheWrongTypeAreLogged() throws {
        var surgery = try ArchiveSurgery(try savedTree())
        let text = surgery.append(.string("not a list"))
        try surgery.set("WLChildren", .uid(text), inNode: "Nav")
        let fresh = freshTree()
        let report = try engine.restore(from: try surgery.data(), root: fresh)
        #expect(report.log.contains { $0.hasPrefix("Root/Nav: children unreadable") })
        #expect(fresh.child("Book")?.value == "book")
    }

    @Test func aHugeStackIsCutAtTheLimit() throws {
        var registry = RestorationClassRegistry()
        registry.register("Page") { path, _ in FakeScreen(path.last, className: "Page") }
        let many = (0..<10_000).map { FakeScreen("page\($0)", className: "Page") }
        let data = try preserve(FakeScreen("Root", [FakeScreen("Nav", many)]))
        let fresh = FakeScreen("Root", [FakeScreen("Nav")])
        let restoring = RestorationEngine(registry: registry)
        let report = try restoring.restore(from: data, root: fresh)
        #expect(fresh.child("Nav")?.restoredChildren?.count == restoring.maximumChildren)
        #expect(report.log.contains { $0.contains("\(10_000 - restoring.maximumChildren) more saved children skipped") })
    }

    @Test func anUnknownClassFailsOnlyTheKeyThatUsesIt() throws {
        var surgery = try ArchiveSurgery(try savedTree())
        let classUID = surgery.newClass("EvilPayload")
        let evil = surgery.append(.dictionary(["$class": .uid(classUID), "code": .string("rm -rf")]))
        try surgery.set("value", .uid(evil), inNode: "Book")
        let fresh = freshTree()
        let report = try engine.restore(from: try surgery.data(), root: fresh)
        #expect(report.log.contains { $0.contains("class EvilPayload is unknown") })
        #expect(report.log.contains { $0.hasPrefix("Root/Book: state skipped") })
        #expect(fresh.child("Nav")?.value == "nav")
    }

    @Test func aNodeThatContainsItselfIsRestoredOnce() throws {
        var surgery = try ArchiveSurgery(try savedTree())
        let nav = UInt64(try surgery.node("Nav"))
        let list = UInt64(try surgery.node("List"))
        try surgery.setChildren([list, nav], ofNode: "Nav")
        // Where the app has no such screen, the loop ends at once…
        let fresh = freshTree()
        var report = try engine.restore(from: try surgery.data(), root: fresh)
        #expect(report.log.contains { $0.hasPrefix("Root/Nav/Nav: no screen of this version has this identifier") })
        #expect(fresh.child("Nav")?.decodeCount == 1)
        #expect(fresh.child("Nav")?.child("List")?.value == "list")
        // …and where it has one (a screen under its own name), the walk refuses to go round.
        let nested = FakeScreen("Root", [FakeScreen("Nav", [FakeScreen("List"), FakeScreen("Nav")]), FakeScreen("Book")])
        report = try engine.restore(from: try surgery.data(), root: nested)
        #expect(report.log.contains { $0.contains("cycle") })
        #expect(nested.child("Nav")?.decodeCount == 1)
    }

    @Test func aDuplicatedSavedChildIsRestoredOnce() throws {
        var surgery = try ArchiveSurgery(try savedTree())
        let list = UInt64(try surgery.node("List"))
        try surgery.setChildren([list, list], ofNode: "Nav")
        let fresh = freshTree()
        let report = try engine.restore(from: try surgery.data(), root: fresh)
        #expect(fresh.child("Nav")?.restoredChildren?.count == 1)
        #expect(!report.log.isEmpty)
    }

    @Test func describeNamesEveryKeyAndSkipsTheEnginesOwn() throws {
        let summary = try engine.describe(try savedTree())
        #expect(summary.nodes.map(\.path) == ["Root", "Root/Nav", "Root/Nav/List", "Root/Book"])
        #expect(summary.nodes[2].values.map(\.key) == ["number", "value"])
        #expect(summary.nodes[2].values.last?.value == .string("list"))
    }
}
