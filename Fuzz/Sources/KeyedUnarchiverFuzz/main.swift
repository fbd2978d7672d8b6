import Foundation
import FuzzSupport
import KeyedArchive
import PropertyList

/// Feeds arbitrary bytes to KeyedUnarchiver, asking for an object graph and for plain values.
/// Decoding must only ever succeed or throw ArchiveError. A graph it accepts must archive
/// again and come back to the same archive: encode(decode(encode(g))) == encode(g).

/// Every node built for the current input, so their reference cycles (parent <-> children, which
/// decoding rightly reproduces) can be broken afterwards and LeakSanitizer sees only real leaks.
nonisolated(unsafe) var liveNodes: [FuzzNode] = []

func breakCycles() {
    for node in liveNodes {
        node.parent = nil
        node.children = []
    }
    liveNodes.removeAll()
}

final class FuzzNode: KeyedArchivable {
    static let archiveClassName = "WLNode"
    var name: String?
    var count = 0
    var small: Int8 = 0
    var flag = false
    var ratio = 0.0
    var stamp: Date?
    var blob: Data?
    var tags: [[String]] = []
    var weights: [String: [Int]] = [:]
    var children: [FuzzNode] = []
    var parent: FuzzNode?

    init() { liveNodes.append(self) }

    func encode(with archiver: KeyedArchiver) throws {
        try archiver.encode(name, forKey: "name")
        archiver.encode(count, forKey: "count")
        archiver.encode(small, forKey: "small")
        archiver.encode(flag, forKey: "flag")
        archiver.encode(ratio, forKey: "ratio")
        try archiver.encode(stamp, forKey: "stamp")
        try archiver.encode(blob, forKey: "blob")
        try archiver.encode(tags, forKey: "tags")
        try archiver.encode(weights, forKey: "weights")
        try archiver.encode(children, forKey: "children")
        try archiver.encode(parent, forKey: "parent")
    }

    func decode(from unarchiver: KeyedUnarchiver) throws {
        name = try unarchiver.decodeObject(of: String.self, forKey: "name")
        count = try unarchiver.decodeInteger(forKey: "count")
        small = try unarchiver.decodeInteger(Int8.self, forKey: "small")
        flag = try unarchiver.decodeBool(forKey: "flag")
        ratio = try unarchiver.decodeDouble(forKey: "ratio")
        stamp = try unarchiver.decodeObject(of: Date.self, forKey: "stamp")
        blob = try unarchiver.decodeObject(of: Data.self, forKey: "blob")
        tags = try unarchiver.decodeObject(of: [[String]].self, forKey: "tags") ?? []
        weights = try unarchiver.decodeObject(of: [String: [Int]].self, forKey: "weights") ?? [:]
        children = try unarchiver.decodeObject(of: [FuzzNode].self, forKey: "children") ?? []
        parent = try unarchiver.decodeObject(of: FuzzNode.self, forKey: "parent")
    }
}

/// A recursive plain value, so arrays nested (or looping) to any depth get decoded.
struct Outline: ArchiveStorable {
    var items: [Outline]

    func archiveReference(in archiver: KeyedArchiver) throws -> ArchiveReference {
        try items.archiveReference(in: archiver)
    }

    static func unarchive(_ reference: ArchiveReference, from unarchiver: KeyedUnarchiver) throws -> Outline {
        Outline(items: try [Outline].unarchive(reference, from: unarchiver))
    }
}

/// Equality that treats NaN as equal to itself, so a NaN ratio doesn't fail the fixpoint.
func same(_ a: PropertyListValue, _ b: PropertyListValue) -> Bool {
    switch (a, b) {
    case (.real(let x), .real(let y)): return x.bitPattern == y.bitPattern
    case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy(same)
    case (.dictionary(let x), .dictionary(let y)):
        return x.count == y.count && x.allSatisfy { key, value in y[key].map { same(value, $0) } ?? false }
    default: return a == b
    }
}

func expectOnlyArchiveErrors(_ body: () throws -> Void) {
    do { try body() } catch is ArchiveError {} catch {
        fatalError("non-ArchiveError thrown: \(error)")
    }
}

func archive(_ root: FuzzNode) -> PropertyListValue {
    let archiver = KeyedArchiver()
    do { try archiver.encode(root, forKey: "root") } catch {
        fatalError("a decoded graph failed to archive: \(error)")
    }
    return archiver.encodedArchive
}

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes else { return 0 }
    let data = Data(bytes: bytes, count: count)
    expectOnlyArchiveErrors {
        let unarchiver = try KeyedUnarchiver(data: data, allowedClasses: [FuzzNode.self])
        guard let root = try unarchiver.decodeObject(of: FuzzNode.self, forKey: "root") else { return }
        let first = archive(root)
        let again = try KeyedUnarchiver(archive: first, allowedClasses: [FuzzNode.self])
        guard let copy = try again.decodeObject(of: FuzzNode.self, forKey: "root") else {
            fatalError("re-archived graph lost its root")
        }
        guard same(archive(copy), first) else { fatalError("archive is not a fixpoint") }
    }
    expectOnlyArchiveErrors {
        let unarchiver = try KeyedUnarchiver(data: data, allowedClasses: [FuzzNode.self])
        _ = try unarchiver.decodeObject(of: Outline.self, forKey: "root")
        _ = try unarchiver.decodeObject(of: [String: [String]].self, forKey: "root")
        _ = try unarchiver.decodeObject(of: String.self, forKey: "root")
        _ = try unarchiver.decodeObject(of: Date.self, forKey: "root")
        _ = try unarchiver.decodeInteger(UInt16.self, forKey: "root")
        _ = unarchiver.containsValue(forKey: "root")
    }
    breakCycles()
    return 0
}

exit(runLibFuzzer(testOneInput))
