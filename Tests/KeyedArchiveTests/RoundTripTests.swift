import Foundation
import Testing
@testable import KeyedArchive
import PropertyList

/// Archive and unarchive at the property-list tree level, no bytes involved.
private func roundTrip<T: ArchiveStorable>(_ value: T, allowed: [any KeyedArchivable.Type] = [Node.self]) throws -> T? {
    let archiver = KeyedArchiver()
    try archiver.encode(value, forKey: "root")
    let unarchiver = try KeyedUnarchiver(archive: archiver.encodedArchive, allowedClasses: allowed)
    return try unarchiver.decodeObject(of: T.self, forKey: "root")
}

@Test func everyFieldOfAnObjectRoundTrips() throws {
    let original = sampleTree()
    let copy = try #require(try roundTrip(original))
    #expect(copy.name == "root")
    #expect(copy.count == -42)
    #expect(copy.flag)
    #expect(copy.ratio == 2.5)
    #expect(copy.scale == 1.25)
    #expect(copy.small == -7)
    #expect(copy.wide == Int64.min)
    #expect(copy.unsigned == UInt32.max)
    #expect(copy.stamp == original.stamp)
    #expect(copy.blob == Data([0, 1, 2, 255]))
    #expect(copy.tags == ["a", "b", "a"])
    #expect(copy.weights == ["x": 1.5, "y": -2])
    #expect(copy.children.map(\.name) == ["left", "shared"])
}

@Test func sharedObjectsComeBackAsOneInstance() throws {
    let copy = try #require(try roundTrip(sampleTree()))
    let left = copy.children[0]
    #expect(left.children[0] === copy.children[1])
}

@Test func cyclesComeBackAsTheSameInstances() throws {
    let copy = try #require(try roundTrip(sampleTree()))
    #expect(copy.children[0].parent === copy)
    #expect(copy.children[1].parent === copy)
}

@Test func anObjectThatPointsAtItselfRoundTrips() throws {
    let loop = Node("loop")
    loop.parent = loop
    let copy = try #require(try roundTrip(loop))
    #expect(copy.parent === copy)
}

@Test func sharedObjectsAreWrittenOnce() throws {
    let archiver = KeyedArchiver()
    try archiver.encode(sampleTree(), forKey: "root")
    guard case .dictionary(let root) = archiver.encodedArchive, case .array(let objects)? = root["$objects"] else {
        Issue.record("archive is not a dictionary with $objects")
        return
    }
    let names = objects.compactMap { entry -> String? in
        if case .dictionary(let fields) = entry, case .uid(let uid)? = fields["name"],
           case .string(let name) = objects[Int(uid)] { return name }
        return nil
    }
    #expect(names.sorted() == ["left", "root", "shared"])
}

@Test func missingKeysDecodeAsZeroFalseAndNil() throws {
    let unarchiver = try KeyedUnarchiver(archive: archive(top: [:], objects: []))
    #expect(try unarchiver.decodeInteger(forKey: "absent") == 0)
    #expect(try unarchiver.decodeInteger(UInt8.self, forKey: "absent") == 0)
    #expect(try unarchiver.decodeBool(forKey: "absent") == false)
    #expect(try unarchiver.decodeDouble(forKey: "absent") == 0)
    #expect(try unarchiver.decodeFloat(forKey: "absent") == 0)
    #expect(try unarchiver.decodeObject(of: String.self, forKey: "absent") == nil)
    #expect(!unarchiver.containsValue(forKey: "absent"))
}

@Test func nilIsStoredAndCountsAsAValue() throws {
    let archiver = KeyedArchiver()
    try archiver.encode(nil as String?, forKey: "gone")
    let unarchiver = try KeyedUnarchiver(archive: archiver.encodedArchive)
    #expect(unarchiver.containsValue(forKey: "gone"))
    #expect(try unarchiver.decodeObject(of: String.self, forKey: "gone") == nil)
}

@Test func everyIntegerWidthRoundTripsAtItsLimits() throws {
    let archiver = KeyedArchiver()
    archiver.encode(Int8.min, forKey: "i8")
    archiver.encode(Int16.min, forKey: "i16")
    archiver.encode(Int32.min, forKey: "i32")
    archiver.encode(Int64.max, forKey: "i64")
    archiver.encode(Int.min, forKey: "int")
    archiver.encode(UInt8.max, forKey: "u8")
    archiver.encode(UInt16.max, forKey: "u16")
    archiver.encode(UInt32.max, forKey: "u32")
    try archiver.encode(UInt64(Int64.max), forKey: "u64")
    try archiver.encode(UInt(42), forKey: "uint")
    let unarchiver = try KeyedUnarchiver(archive: archiver.encodedArchive)
    #expect(try unarchiver.decodeInteger(Int8.self, forKey: "i8") == Int8.min)
    #expect(try unarchiver.decodeInteger(Int16.self, forKey: "i16") == Int16.min)
    #expect(try unarchiver.decodeInt32(forKey: "i32") == Int32.min)
    #expect(try unarchiver.decodeInt64(forKey: "i64") == Int64.max)
    #expect(try unarchiver.decodeInteger(forKey: "int") == Int.min)
    #expect(try unarchiver.decodeInteger(UInt8.self, forKey: "u8") == UInt8.max)
    #expect(try unarchiver.decodeInteger(UInt16.self, forKey: "u16") == UInt16.max)
    #expect(try unarchiver.decodeInteger(UInt32.self, forKey: "u32") == UInt32.max)
    #expect(try unarchiver.decodeInteger(UInt64.self, forKey: "u64") == UInt64(Int64.max))
    #expect(try unarchiver.decodeInteger(UInt.self, forKey: "uint") == 42)
}

@Test func unsignedValuesAboveInt64RoundTrip() throws {
    let archiver = KeyedArchiver()
    try archiver.encode(UInt64.max, forKey: "big")
    let unarchiver = try KeyedUnarchiver(archive: archiver.encodedArchive)
    #expect(try unarchiver.decodeInteger(UInt64.self, forKey: "big") == UInt64.max)
    #expect(throws: ArchiveError.self) { try unarchiver.decodeInteger(Int64.self, forKey: "big") }
    #expect(try roundTrip([UInt64.max, 0]) == [UInt64.max, 0])
}

@Test func numbersInsideContainersRoundTrip() throws {
    #expect(try roundTrip([Int8(-1), 2, 127]) == [-1, 2, 127])
    #expect(try roundTrip([UInt16(65_535)]) == [65_535])
    #expect(try roundTrip([Float(0.5), 2]) == [0.5, 2])
    #expect(try roundTrip([true, false]) == [true, false])
    #expect(try roundTrip(["n": [1, 2], "m": []]) == ["n": [1, 2], "m": []])
}

@Test func plainRootValuesRoundTrip() throws {
    #expect(try roundTrip("hello") == "hello")
    #expect(try roundTrip(Data([9, 8])) == Data([9, 8]))
    #expect(try roundTrip(Date(timeIntervalSinceReferenceDate: -1.5)) == Date(timeIntervalSinceReferenceDate: -1.5))
    #expect(try roundTrip([["a"], ["b", "c"]]) == [["a"], ["b", "c"]])
}

@Test func theStringNullIsNotConfusedWithNil() throws {
    #expect(try roundTrip(["$null", "x"]) == ["$null", "x"])
}

@Test func headerMatchesNSKeyedArchiver() throws {
    let archiver = KeyedArchiver()
    try archiver.encode(["a"], forKey: "root")
    #expect(archiver.encodedArchive == .dictionary([
        "$archiver": .string("NSKeyedArchiver"),
        "$version": .integer(100_000),
        "$top": .dictionary(["root": .uid(1)]),
        "$objects": .array([
            .string("$null"),
            .dictionary(["NS.objects": .array([.uid(2)]), "$class": .uid(3)]),
            .string("a"),
            classEntry("NSArray"),
        ]),
    ]))
}

@Test func datesAndDictionariesUseFoundationsShapes() throws {
    let archiver = KeyedArchiver()
    try archiver.encode(["when": Date(timeIntervalSinceReferenceDate: 5)], forKey: "root")
    #expect(archiver.encodedArchive == archive(objects: [
        .dictionary(["NS.keys": .array([.uid(2)]), "NS.objects": .array([.uid(3)]), "$class": .uid(5)]),
        .string("when"),
        .dictionary(["NS.time": .real(5), "$class": .uid(4)]),
        classEntry("NSDate"),
        classEntry("NSDictionary"),
    ]))
}

@Test func objectsCarryTheirClassHierarchy() throws {
    let archiver = KeyedArchiver()
    let mark = Bookmark()
    mark.title = "t"
    try archiver.encode(mark, forKey: "root")
    #expect(archiver.encodedArchive == archive(objects: [
        .dictionary(["title": .uid(2), "$class": .uid(3)]),
        .string("t"),
        classEntry("WLBookmark"),
    ]))
}

@Test func foundationsMutableVariantsDecodeAsPlainValues() throws {
    let value = archive(objects: [
        .dictionary(["NS.objects": .array([.uid(3), .uid(5)]), "$class": .uid(2)]),
        .dictionary(["$classname": .string("NSMutableArray"), "$classes": .array([.string("NSMutableArray"), .string("NSArray"), .string("NSObject")])]),
        .dictionary(["NS.string": .string("mutable"), "$class": .uid(4)]),
        classEntry("NSMutableString"),
        .dictionary(["NS.data": .data(Data([7])), "$class": .uid(6)]),
        classEntry("NSMutableData"),
    ])
    let unarchiver = try KeyedUnarchiver(archive: value)
    #expect(throws: ArchiveError.self) { try unarchiver.decodeObject(of: [String].self, forKey: "root") }
    let strings = try KeyedUnarchiver(archive: archive(objects: [
        .dictionary(["NS.objects": .array([.uid(3)]), "$class": .uid(2)]), classEntry("NSMutableArray"),
        .dictionary(["NS.string": .string("mutable"), "$class": .uid(4)]), classEntry("NSMutableString"),
    ]))
    #expect(try strings.decodeObject(of: [String].self, forKey: "root") == ["mutable"])
    let data = try KeyedUnarchiver(archive: archive(objects: [
        .dictionary(["NS.data": .data(Data([7])), "$class": .uid(2)]), classEntry("NSMutableData"),
    ]))
    #expect(try data.decodeObject(of: Data.self, forKey: "root") == Data([7]))
}

@Test func numbersStoredAsObjectsDecodeAsScalars() throws {
    let unarchiver = try KeyedUnarchiver(archive: archive(top: ["n": .uid(1), "d": .uid(2)], objects: [.integer(3), .real(0.5)]))
    #expect(try unarchiver.decodeInteger(forKey: "n") == 3)
    #expect(try unarchiver.decodeDouble(forKey: "d") == 0.5)
    #expect(try unarchiver.decodeDouble(forKey: "n") == 3)
}

@Test func archivingIsDeterministic() throws {
    let first = KeyedArchiver()
    try first.encode(sampleTree(), forKey: "root")
    let second = KeyedArchiver()
    try second.encode(sampleTree(), forKey: "root")
    #expect(first.encodedArchive == second.encodedArchive)
}
