import Foundation
import Testing
import KeyedArchive
import PropertyList

// Each damaged archive must come back as a typed error naming the problem and its place.

/// A recursive value type, so crafted archives can nest plain containers arbitrarily deep.
struct Outline: ArchiveStorable, Equatable {
    var items: [Outline]

    func archiveReference(in archiver: KeyedArchiver) throws -> ArchiveReference {
        try items.archiveReference(in: archiver)
    }

    static func unarchive(_ reference: ArchiveReference, from unarchiver: KeyedUnarchiver) throws -> Outline {
        Outline(items: try [Outline].unarchive(reference, from: unarchiver))
    }
}

private let arrayClass = classEntry("NSArray")

@Test func topLevelThatIsNotADictionaryIsRefused() {
    #expect(decodeError(.array([]), as: String.self) == ArchiveError(.badHeader(key: "top level", problem: "is array, not dictionary")))
}

@Test func missingArchiverIsRefused() {
    var value = archive(objects: [.string("x")])
    if case .dictionary(var root) = value { root["$archiver"] = nil; value = .dictionary(root) }
    #expect(decodeError(value, as: String.self) == ArchiveError(.badHeader(key: "$archiver", problem: "is missing")))
}

@Test func wrongArchiverIsRefused() {
    let value = archive(objects: [.string("x")], archiver: .string("NSArchiver"))
    #expect(decodeError(value, as: String.self) == ArchiveError(.badHeader(key: "$archiver", problem: "is \"NSArchiver\", expected \"NSKeyedArchiver\"")))
}

@Test func wrongVersionIsRefused() {
    let value = archive(objects: [.string("x")], version: .integer(99))
    #expect(decodeError(value, as: String.self) == ArchiveError(.badHeader(key: "$version", problem: "is 99, expected 100000")))
}

@Test func versionOfTheWrongTypeIsRefused() {
    let value = archive(objects: [.string("x")], version: .string("100000"))
    #expect(decodeError(value, as: String.self) == ArchiveError(.badHeader(key: "$version", problem: "is \"100000\", expected 100000")))
}

@Test func missingTopIsRefused() {
    var value = archive(objects: [])
    if case .dictionary(var root) = value { root["$top"] = nil; value = .dictionary(root) }
    #expect(decodeError(value, as: String.self) == ArchiveError(.badHeader(key: "$top", problem: "is missing")))
}

@Test func topThatIsNotADictionaryIsRefused() {
    var value = archive(objects: [])
    if case .dictionary(var root) = value { root["$top"] = .array([]); value = .dictionary(root) }
    #expect(decodeError(value, as: String.self) == ArchiveError(.badHeader(key: "$top", problem: "is array, not dictionary")))
}

@Test func objectsThatAreNotAnArrayAreRefused() {
    var value = archive(objects: [])
    if case .dictionary(var root) = value { root["$objects"] = .dictionary([:]); value = .dictionary(root) }
    #expect(decodeError(value, as: String.self) == ArchiveError(.badHeader(key: "$objects", problem: "is dictionary, not array")))
}

@Test func objectsWithoutTheNullMarkerAreRefused() {
    var value = archive(objects: [])
    if case .dictionary(var root) = value { root["$objects"] = .array([.string("x")]); value = .dictionary(root) }
    #expect(decodeError(value, as: String.self) == ArchiveError(.missingNullMarker))
}

@Test func aRootUIDOutOfRangeIsRefused() {
    #expect(decodeError(archive(top: ["root": .uid(7)], objects: []), as: String.self)
        == ArchiveError(.uidOutOfRange(uid: 7, objectCount: 1), keyPath: ["$top", "root"]))
}

@Test func aUIDOutOfRangeInsideAnObjectNamesTheObject() {
    let value = archive(objects: [.dictionary(["NS.objects": .array([.uid(1), .uid(99)]), "$class": .uid(2)]), arrayClass])
    #expect(decodeError(value, as: [String].self)
        == ArchiveError(.uidOutOfRange(uid: 99, objectCount: 3), keyPath: ["NS.objects", "[1]"], objectIndex: 1))
}

@Test func anArrayContainingItselfIsRefused() {
    let value = archive(objects: [.dictionary(["NS.objects": .array([.uid(1)]), "$class": .uid(2)]), arrayClass])
    #expect(decodeError(value, as: Outline.self) == ArchiveError(.cyclicValue, keyPath: ["root", "[0]"], objectIndex: 1))
}

@Test func twoArraysContainingEachOtherAreRefused() {
    let value = archive(objects: [
        .dictionary(["NS.objects": .array([.uid(3)]), "$class": .uid(2)]), arrayClass,
        .dictionary(["NS.objects": .array([.uid(1)]), "$class": .uid(2)]),
    ])
    #expect(decodeError(value, as: Outline.self) == ArchiveError(.cyclicValue, keyPath: ["root", "[0]", "[0]"], objectIndex: 1))
}

@Test func aDictionaryContainingItselfIsRefused() {
    let value = archive(objects: [
        .dictionary(["NS.keys": .array([.uid(3)]), "NS.objects": .array([.uid(1)]), "$class": .uid(2)]),
        classEntry("NSDictionary"), .string("me"),
    ])
    #expect(decodeError(value, as: [String: [String: String]].self)
        == ArchiveError(.cyclicValue, keyPath: ["root", "me"], objectIndex: 1))
}

/// `levels` arrays, each holding the next one twice: 2^levels paths through `levels` entries.
private func doublingArchive(levels: Int) -> PropertyListValue {
    var objects: [PropertyListValue] = [arrayClass]
    for level in 0..<levels {
        let next = PropertyListValue.uid(UInt64(level + 3))
        objects.append(.dictionary(["NS.objects": .array(level == levels - 1 ? [] : [next, next]), "$class": .uid(1)]))
    }
    return archive(top: ["root": .uid(2)], objects: objects)
}

@Test func sharedContainersDecodeOnceAndKeepTheirShape() throws {
    let unarchiver = try KeyedUnarchiver(archive: doublingArchive(levels: 12))
    var outline = try #require(try unarchiver.decodeObject(of: Outline.self, forKey: "root"))
    var depth = 0
    while let first = outline.items.first {
        #expect(outline.items.count == 2)
        outline = first
        depth += 1
    }
    #expect(depth == 11)
}

@Test func sharedContainersThatExpandExponentiallyAreRefused() {
    let error = decodeError(doublingArchive(levels: 64), as: Outline.self)
    #expect(error?.kind == .tooManyValues(limit: PropertyListLimits.userFile.maxExpandedElements))
}

@Test func plainContainersNestedPastTheLimitAreRefused() {
    let depth = ArchiveFormat.maximumDepth + 10
    var objects: [PropertyListValue] = [arrayClass]
    for level in 0..<depth {
        objects.append(.dictionary(["NS.objects": .array(level == depth - 1 ? [] : [.uid(UInt64(level + 3))]), "$class": .uid(1)]))
    }
    let error = decodeError(archive(top: ["root": .uid(2)], objects: objects), as: Outline.self)
    #expect(error?.kind == .nestingTooDeep(limit: ArchiveFormat.maximumDepth))
}

@Test func objectsNestedPastTheLimitAreRefused() {
    var objects: [PropertyListValue] = [classEntry("WLNode")]
    let depth = ArchiveFormat.maximumDepth + 10
    for level in 0..<depth {
        var fields: [String: PropertyListValue] = ["$class": .uid(1)]
        if level < depth - 1 { fields["parent"] = .uid(UInt64(level + 3)) }
        objects.append(.dictionary(fields))
    }
    let error = decodeError(archive(top: ["root": .uid(2)], objects: objects), as: Node.self)
    #expect(error?.kind == .nestingTooDeep(limit: ArchiveFormat.maximumDepth))
}

@Test func objectsNestedJustInsideTheLimitDecode() throws {
    var objects: [PropertyListValue] = [classEntry("WLNode")]
    let depth = ArchiveFormat.maximumDepth
    for level in 0..<depth {
        var fields: [String: PropertyListValue] = ["$class": .uid(1)]
        if level < depth - 1 { fields["parent"] = .uid(UInt64(level + 3)) }
        objects.append(.dictionary(fields))
    }
    let unarchiver = try KeyedUnarchiver(archive: archive(top: ["root": .uid(2)], objects: objects), allowedClasses: [Node.self])
    #expect(try unarchiver.decodeObject(of: Node.self, forKey: "root") != nil)
}

@Test func valuesNestedPastTheLimitInsideOneEntryAreRefused() {
    var nested = PropertyListValue.array([])
    for _ in 0..<(ArchiveFormat.maximumDepth + 10) { nested = .array([nested]) }
    let error = decodeError(archive(objects: [.dictionary(["deep": nested, "$class": .uid(2)]), classEntry("WLNode")]), as: Node.self)
    #expect(error?.kind == .nestingTooDeep(limit: ArchiveFormat.maximumDepth))
    #expect(error?.objectIndex == 1)
}

@Test func encodingPastTheLimitIsRefused() {
    let top = Node("top")
    var tail = top
    for _ in 0..<(ArchiveFormat.maximumDepth + 10) {
        let next = Node()
        tail.parent = next
        tail = next
    }
    #expect(throws: ArchiveError.self) { try KeyedArchiver.archivedData(withRootObject: top) }
}

@Test func aClassReferenceThatIsNotAUIDIsRefused() {
    let value = archive(objects: [.dictionary(["$class": .string("WLNode")])])
    #expect(decodeError(value, as: Node.self) == ArchiveError(.malformedClass("$class is string, not UID"), objectIndex: 1))
}

@Test func aClassReferenceToNullIsRefused() {
    let value = archive(objects: [.dictionary(["$class": .uid(0)])])
    #expect(decodeError(value, as: Node.self) == ArchiveError(.malformedClass("$class is the null UID"), objectIndex: 1))
}

@Test func aClassReferenceToAStringIsRefused() {
    let value = archive(objects: [.dictionary(["$class": .uid(2)]), .string("WLNode")])
    #expect(decodeError(value, as: Node.self)
        == ArchiveError(.malformedClass("class description is string, not dictionary"), keyPath: ["$class"], objectIndex: 1))
}

@Test func aClassWithoutANameIsRefused() {
    let value = archive(objects: [.dictionary(["$class": .uid(2)]), .dictionary(["$classes": .array([])])])
    #expect(decodeError(value, as: Node.self)
        == ArchiveError(.malformedClass("$classname is missing, empty or not a string"), keyPath: ["$class"], objectIndex: 1))
}

@Test func aClassHierarchyThatIsNotStringsIsRefused() {
    let value = archive(objects: [.dictionary(["$class": .uid(2)]),
                                  .dictionary(["$classname": .string("WLNode"), "$classes": .array([.integer(1)])])])
    #expect(decodeError(value, as: Node.self)
        == ArchiveError(.malformedClass("$classes of WLNode is not an array of strings"), keyPath: ["$class"], objectIndex: 1))
}

@Test func containerListsThatAreNotUIDsAreRefused() {
    let value = archive(objects: [.dictionary(["NS.objects": .array([.string("x")]), "$class": .uid(2)]), arrayClass])
    #expect(decodeError(value, as: [String].self)
        == ArchiveError(.malformedContainer("NS.objects holds string, not UID"), keyPath: ["root"], objectIndex: 1))
}

@Test func anArrayWithoutObjectsIsRefused() {
    let value = archive(objects: [.dictionary(["$class": .uid(2)]), arrayClass])
    #expect(decodeError(value, as: [String].self)
        == ArchiveError(.malformedContainer("NS.objects is missing, not array"), keyPath: ["root"], objectIndex: 1))
}

@Test func dictionaryKeysAndValuesOfDifferentLengthsAreRefused() {
    let value = archive(objects: [
        .dictionary(["NS.keys": .array([.uid(3)]), "NS.objects": .array([]), "$class": .uid(2)]),
        classEntry("NSDictionary"), .string("k"),
    ])
    #expect(decodeError(value, as: [String: String].self)
        == ArchiveError(.malformedContainer("1 keys but 0 values"), keyPath: ["root"], objectIndex: 1))
}

@Test func duplicateDictionaryKeysAreRefused() {
    let value = archive(objects: [
        .dictionary(["NS.keys": .array([.uid(3), .uid(4)]), "NS.objects": .array([.uid(3), .uid(3)]), "$class": .uid(2)]),
        classEntry("NSDictionary"), .string("k"), .string("k"),
    ])
    #expect(decodeError(value, as: [String: String].self) == ArchiveError(.duplicateKey("k"), keyPath: ["root"], objectIndex: 1))
}

@Test func aDateWithoutTimeIsRefused() {
    let value = archive(objects: [.dictionary(["NS.time": .string("now"), "$class": .uid(2)]), classEntry("NSDate")])
    #expect(decodeError(value, as: Date.self)
        == ArchiveError(.malformedContainer("NS.time is missing or not a finite number"), keyPath: ["root"], objectIndex: 1))
}

@Test func nullInsideAnArrayIsNotAString() {
    let value = archive(objects: [.dictionary(["NS.objects": .array([.uid(0)]), "$class": .uid(2)]), arrayClass])
    #expect(decodeError(value, as: [String].self)
        == ArchiveError(.typeMismatch(expected: "String", found: "null"), keyPath: ["root", "[0]"], objectIndex: 0))
}

// MARK: Through bytes, the damage that crashes Foundation's unarchiver on this machine

@Test func bytesThatAreNotAPropertyListAreRefused() {
    #expect(throws: ArchiveError.self) { try KeyedUnarchiver(data: Data("not a plist".utf8)) }
    do {
        _ = try KeyedUnarchiver(data: Data([0x62, 0x70, 0x6C, 0x69, 0x73, 0x74, 0x30, 0x30, 0xFF]))
        Issue.record("truncated binary plist was accepted")
    } catch let error as ArchiveError {
        guard case .unreadablePropertyList = error.kind else { Issue.record("wrong error \(error)"); return }
    } catch {
        Issue.record("untyped error \(error)")
    }
}

@Test func aSelfReferencingNSArrayFileIsRefused() throws {
    let crafted = archive(objects: [.dictionary(["NS.objects": .array([.uid(1)]), "$class": .uid(2)]), arrayClass])
    let data = try PropertyListSerializer.data(from: crafted, format: .binary)
    #expect(throws: ArchiveError(.cyclicValue, keyPath: ["root", "[0]"], objectIndex: 1)) {
        try KeyedUnarchiver.unarchivedObject(ofClass: Outline.self, from: data)
    }
}

@Test func aUIDOutsideObjectsInAFileIsRefused() throws {
    let crafted = archive(objects: [.dictionary(["name": .uid(40), "$class": .uid(2)]), classEntry("WLNode")])
    let data = try PropertyListSerializer.data(from: crafted, format: .binary)
    #expect(throws: ArchiveError(.uidOutOfRange(uid: 40, objectCount: 3), keyPath: ["name"], objectIndex: 1)) {
        try KeyedUnarchiver.unarchivedObject(ofClass: Node.self, from: data)
    }
}
