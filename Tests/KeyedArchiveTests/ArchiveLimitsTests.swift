import Foundation
import Testing
import KeyedArchive
import PropertyList
import PropertyListTestSupport

// The unarchiver and ArchiveContents take the reader's limits and name them when passed.

private let small = PropertyListLimits(maxDepth: 8, maxObjects: 1_000, maxExpandedElements: 100,
                                       maxStringBytes: 10_000, maxDataBytes: 10_000)

/// `levels` NSArrays, each holding the next one twice.
private func doubling(levels: Int) -> PropertyListValue {
    var objects: [PropertyListValue] = [classEntry("NSArray")]
    for level in 0..<levels {
        let next = PropertyListValue.uid(UInt64(level + 3))
        objects.append(.dictionary(["NS.objects": .array(level == levels - 1 ? [] : [next, next]), "$class": .uid(1)]))
    }
    return archive(top: ["root": .uid(2)], objects: objects)
}

private func outlineError(_ value: PropertyListValue, limits: PropertyListLimits) -> ArchiveError? {
    do {
        _ = try KeyedUnarchiver(archive: value, limits: limits).decodeObject(of: Outline.self, forKey: "root")
        return nil
    } catch let error as ArchiveError {
        return error
    } catch {
        Issue.record("unexpected \(error)")
        return nil
    }
}

@Test func theUnarchiverCountsValuesAgainstTheLimitItIsGiven() throws {
    #expect(outlineError(doubling(levels: 6), limits: small) == nil)
    let error = try #require(outlineError(doubling(levels: 7), limits: small))
    #expect(error.kind == .tooManyValues(limit: 100))
    #expect(error.description.hasPrefix("archive expands to more than 100 values"))
    #expect(ArchiveError(.tooManyValues(limit: 1 << 20)).description.hasPrefix("archive expands to more than 1,048,576 values"))
}

@Test func theUnarchiverNestsOnlyAsDeepAsItsLimits() throws {
    var objects: [PropertyListValue] = [classEntry("NSArray")]
    for level in 0..<20 {
        objects.append(.dictionary(["NS.objects": .array(level == 19 ? [] : [.uid(UInt64(level + 3))]), "$class": .uid(1)]))
    }
    let error = try #require(outlineError(archive(top: ["root": .uid(2)], objects: objects), limits: small))
    #expect(error.kind == .nestingTooDeep(limit: 8))
    #expect(error.description.hasPrefix("objects nest deeper than 8 levels"))
}

/// A plain value shared 40 levels deep inside one `$objects` entry: the UID check stops at the limit.
@Test func archiveContentsWalksAtMostTheLimit() throws {
    var shared = PropertyListValue.integer(1)
    for _ in 0..<40 { shared = .array([shared, shared]) }
    let value = archive(objects: [.dictionary(["bomb": shared, "$class": .uid(2)]), classEntry("WLNode")])
    do {
        _ = try ArchiveContents(value, limits: .restorationState)
        Issue.record("expected tooManyValues")
    } catch let error as ArchiveError {
        #expect(error.kind == .tooManyValues(limit: PropertyListLimits.restorationState.maxExpandedElements))
        #expect(error.objectIndex == 1)
    }
}

@Test func theBinaryBombIsRefusedBeforeDecoding() throws {
    do {
        _ = try KeyedUnarchiver(data: CraftedBinary.sharedReferenceBomb(levels: 40), limits: .restorationState)
        Issue.record("expected an error")
    } catch let error as ArchiveError {
        #expect(error.description.contains("expands to more than 1,048,576 objects"))
    }
}

@Test func aDateWhoseTimeIsNotFiniteIsRefused() {
    for time in [Double.nan, .infinity] {
        let value = archive(objects: [.dictionary(["NS.time": .real(time), "$class": .uid(2)]), classEntry("NSDate")])
        #expect(decodeError(value, as: Date.self)
            == ArchiveError(.malformedContainer("NS.time is missing or not a finite number"), keyPath: ["root"], objectIndex: 1))
    }
}

@Test func namesAndKeysFromTheArchiveAreCutInMessages() throws {
    let name = String(repeating: "C", count: 10_000)
    let error = try #require(decodeError(archive(objects: [.dictionary(["$class": .uid(2)]), classEntry(name)]), as: Node.self))
    #expect(error.description.count < 300)
    #expect(error.description.contains("C…"))
    let keyed = ArchiveError(.cyclicValue, keyPath: Array(repeating: String(repeating: "k", count: 1_000), count: 50))
    #expect(keyed.description.count < 300)
}
