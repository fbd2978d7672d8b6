import Foundation
import Testing
import KeyedArchive
import PropertyList

/// Every shape an `$objects` entry can take: what NSKeyedUnarchiver decodes is accepted and
/// printed as its value, the rest is refused by the structure check that lint, print and the
/// unarchiver share, naming the entry and the path from `$top` that reaches it.
@Suite struct EntryShapeTests {
    private static let date = Date(timeIntervalSinceReferenceDate: 86_400)

    /// The shapes Foundation writes bare (NSString, NSNumber, NSData) and a bare date, each as
    /// the root, with how `wonderland plist print` shows it.
    static let decodable: [(PropertyListValue, String)] = [
        (.string("text"), "\"text\""),
        (.integer(-7), "-7"),
        (.unsignedInteger(UInt64.max), "18446744073709551615"),
        (.real(2.5), "2.5"),
        (.boolean(true), "true"),
        (.data(Data([0xCA, 0xFE])), "<2 bytes cafe>"),
        (.date(date), PropertyListValue.describe(date)),
    ]

    @Test(arguments: decodable)
    func aBareValueIsAnObjectAndPrintsAsItself(entry: PropertyListValue, shown: String) throws {
        let value = archive(objects: [entry])
        _ = try ArchiveContents(value)
        #expect(try PropertyListPrinter.render(value) == "NSKeyedArchiver archive, 2 objects\nroot => \(shown)\n")
    }

    @Test func anObjectWithClassPrintsItsFields() throws {
        let value = archive(objects: [.dictionary(["$class": .uid(2), "name": .uid(3)]), classEntry("WLNode"), .string("n")])
        _ = try ArchiveContents(value)
        #expect(try PropertyListPrinter.render(value).contains("root => WLNode #1 {\n  \"name\" => \"n\"\n}"))
    }

    /// Plain containers inside an object's fields are the object's own values, not objects.
    @Test func containersNestedInAnObjectsFieldsPrintInline() throws {
        let fields: PropertyListValue = .dictionary([
            "$class": .uid(2),
            "grid": .array([.array([.integer(1), .uid(3)]), .dictionary(["k": .boolean(false)])]),
        ])
        let value = archive(objects: [fields, classEntry("WLGrid"), .string("cell")])
        _ = try ArchiveContents(value)
        let text = try PropertyListPrinter.render(value)
        #expect(text.contains("\"grid\" => [\n    0 => [\n      0 => 1\n      1 => \"cell\"\n    ]\n    1 => {\n      \"k\" => false\n    }\n  ]"))
    }

    /// The shapes no unarchiver decodes, each as the root's object, with the shape named.
    static let undecodable: [(PropertyListValue, String)] = [
        (.uid(0), "a UID, a reference where an object belongs"),
        (.array([.uid(0)]), "a plain array, not an object with $class"),
        (.array([.dictionary(["a": .array([.integer(1)])])]), "a plain array, not an object with $class"),
        (.dictionary(["title": .string("t")]), "a dictionary without $class"),
        (.dictionary(["nested": .dictionary(["deeper": .array([])])]), "a dictionary without $class"),
        (classEntry("WLNode"), "a class description, used as an object"),
    ]

    @Test(arguments: undecodable)
    func anUndecodableShapeIsRefusedEverywhereWithItsPlace(entry: PropertyListValue, shape: String) {
        let value = archive(objects: [entry])
        let expected = ArchiveError(.notAnObject(shape), keyPath: ["$top", "root"], objectIndex: 1)
        #expect(throws: expected) { try ArchiveContents(value) }
        #expect(throws: expected) { try PropertyListPrinter.render(value) }
        #expect(decodeError(value, as: String.self) == expected)
    }

    @Test func theMessageNamesThePathThroughObjectsAndTheIndex() {
        let value = archive(objects: [
            .dictionary(["$class": .uid(2), "children": .uid(3)]), classEntry("WLNode"),
            .dictionary(["$class": .uid(4), "NS.objects": .array([.uid(5), .uid(6)])]), classEntry("NSArray"),
            .string("first"), .dictionary(["title": .uid(5)]),
        ])
        let error = ArchiveError(.notAnObject("a dictionary without $class"), keyPath: ["$top", "root", "children", "NS.objects", "[1]"],
                                 objectIndex: 6)
        #expect(throws: error) { try ArchiveContents(value) }
        #expect(error.description
            == "$objects entry is a dictionary without $class, which no unarchiver decodes as an object at $top.root.children.NS.objects[1] ($objects[6])")
    }

    /// Nothing refers to it, so no path can be named; it is refused all the same, as no
    /// archiver writes one.
    @Test func anUnreachedBadEntryIsRefusedByIndexAlone() {
        let value = archive(objects: [.string("root"), .array([])])
        #expect(throws: ArchiveError(.notAnObject("a plain array, not an object with $class"), objectIndex: 2)) {
            try ArchiveContents(value)
        }
    }

    /// A class description nothing refers to is left alone: no unarchiver reaches it.
    @Test func anUnusedClassDescriptionIsAccepted() throws {
        _ = try ArchiveContents(archive(objects: [.string("root"), classEntry("WLUnused")]))
    }

    /// bpylist2's test file: the object's class key is misspelt `$classy`, so it is a dictionary
    /// without `$class`; it used to pass lint and print as nothing.
    @Test func bpylist2sMissingClassArchiveIsRefused() throws {
        let data = try Data(contentsOf: ArchivedDataPrintingTests.corpus.appendingPathComponent("bpylist2/invalid/missing_uid_archive.plist"))
        let value = try PropertyListReader.read(data).value
        let expected = ArchiveError(.notAnObject("a dictionary without $class"), keyPath: ["$top", "root"], objectIndex: 1)
        #expect(throws: expected) { try ArchiveContents(value) }
        #expect(throws: expected) { try PropertyListPrinter.render(value) }
    }
}
