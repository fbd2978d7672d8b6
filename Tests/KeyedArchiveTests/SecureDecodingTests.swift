import Foundation
import Testing
import KeyedArchive
import PropertyList

// Decoding names what it accepts; anything else in the archive is a clear error.

private func decoder(for root: some ArchiveStorable, allowed: [any KeyedArchivable.Type]) throws -> KeyedUnarchiver {
    let archiver = KeyedArchiver()
    try archiver.encode(root, forKey: "root")
    return try KeyedUnarchiver(archive: archiver.encodedArchive, allowedClasses: allowed)
}

@Test func aClassThatIsNotAllowedIsRefusedUpFront() {
    let value = archive(objects: [.dictionary(["$class": .uid(2)]), classEntry("NSURL")])
    #expect(decodeError(value, as: Node.self) == ArchiveError(.classNotAllowed("NSURL"), objectIndex: 1))
}

@Test func anArchivableClassMustBeAllowedToo() throws {
    let mark = Bookmark()
    #expect(throws: ArchiveError(.classNotAllowed("WLBookmark"), objectIndex: 1)) {
        try decoder(for: mark, allowed: [Node.self])
    }
}

@Test func aNestedObjectOfAClassNotAllowedIsRefused() throws {
    let node = Node("n")
    node.children = [Node("child")]
    let data = try KeyedArchiver.archivedData(withRootObject: ["wrapped": node], format: .binary)
    #expect(throws: ArchiveError.self) {
        try KeyedUnarchiver.unarchivedObject(ofClass: [String: Node].self, from: data, allowedClasses: [Bookmark.self])
    }
}

@Test func askingForOneClassWhereAnotherIsStoredIsRefused() throws {
    let unarchiver = try decoder(for: Bookmark(), allowed: [Node.self, Bookmark.self])
    #expect(throws: ArchiveError(.typeMismatch(expected: "WLNode", found: "WLBookmark"), keyPath: ["root"], objectIndex: 1)) {
        try unarchiver.decodeObject(of: Node.self, forKey: "root")
    }
}

@Test func askingForAStringWhereAnIntegerIsStoredIsRefused() throws {
    let archiver = KeyedArchiver()
    archiver.encode(5, forKey: "n")
    let unarchiver = try KeyedUnarchiver(archive: archiver.encodedArchive)
    #expect(throws: ArchiveError(.typeMismatch(expected: "String", found: "integer"), keyPath: ["n"])) {
        try unarchiver.decodeObject(of: String.self, forKey: "n")
    }
}

@Test func askingForAnIntegerWhereAStringIsStoredIsRefused() throws {
    let archiver = KeyedArchiver()
    try archiver.encode("five", forKey: "n")
    let unarchiver = try KeyedUnarchiver(archive: archiver.encodedArchive)
    #expect(throws: ArchiveError(.typeMismatch(expected: "Int", found: "string"), keyPath: ["n"])) {
        try unarchiver.decodeInteger(forKey: "n")
    }
}

@Test func askingForABoolWhereADoubleIsStoredIsRefused() throws {
    let archiver = KeyedArchiver()
    archiver.encode(0.5, forKey: "x")
    let unarchiver = try KeyedUnarchiver(archive: archiver.encodedArchive)
    #expect(throws: ArchiveError(.typeMismatch(expected: "Bool", found: "real"), keyPath: ["x"])) {
        try unarchiver.decodeBool(forKey: "x")
    }
}

@Test func anIntegerTooWideForTheAskedTypeIsRefused() throws {
    let archiver = KeyedArchiver()
    archiver.encode(300, forKey: "n")
    let unarchiver = try KeyedUnarchiver(archive: archiver.encodedArchive)
    #expect(throws: ArchiveError(.valueOutOfRange("300 does not fit in Int8"), keyPath: ["n"])) {
        try unarchiver.decodeInteger(Int8.self, forKey: "n")
    }
    #expect(throws: ArchiveError.self) { try unarchiver.decodeInteger(UInt8.self, forKey: "n") }
}

@Test func aNegativeIntegerIsNotUnsigned() throws {
    let archiver = KeyedArchiver()
    archiver.encode(-1, forKey: "n")
    let unarchiver = try KeyedUnarchiver(archive: archiver.encodedArchive)
    #expect(throws: ArchiveError(.valueOutOfRange("-1 does not fit in UInt64"), keyPath: ["n"])) {
        try unarchiver.decodeInteger(UInt64.self, forKey: "n")
    }
}

@Test func anArrayIsNotADictionary() throws {
    let unarchiver = try decoder(for: ["a"], allowed: [])
    #expect(throws: ArchiveError(.typeMismatch(expected: "Dictionary", found: "NSArray"), keyPath: ["root"], objectIndex: 1)) {
        try unarchiver.decodeObject(of: [String: String].self, forKey: "root")
    }
}

@Test func elementsOfTheWrongTypeAreRefusedWithTheirPosition() throws {
    let unarchiver = try decoder(for: ["a": [1, 2]], allowed: [])
    #expect(throws: ArchiveError(.typeMismatch(expected: "String", found: "integer"), keyPath: ["root", "a", "[0]"], objectIndex: 4)) {
        try unarchiver.decodeObject(of: [String: [String]].self, forKey: "root")
    }
}

@Test func aPlainValueIsNotAnObject() throws {
    let unarchiver = try decoder(for: ["a"], allowed: [Node.self])
    #expect(throws: ArchiveError(.typeMismatch(expected: "WLNode", found: "NSArray"), keyPath: ["root"], objectIndex: 1)) {
        try unarchiver.decodeObject(of: Node.self, forKey: "root")
    }
}

@Test func anObjectIsNotAString() throws {
    let unarchiver = try decoder(for: Node("n"), allowed: [Node.self])
    #expect(throws: ArchiveError(.typeMismatch(expected: "String", found: "WLNode"), keyPath: ["root"], objectIndex: 1)) {
        try unarchiver.decodeObject(of: String.self, forKey: "root")
    }
}

@Test func errorsInsideObjectsNameTheKeyPathAndTheObject() throws {
    let root = Node("root")
    let child = Node("child")
    root.children = [child]
    let archiver = KeyedArchiver()
    try archiver.encode(root, forKey: "root")
    // Swap the child's name for an integer.
    guard case .dictionary(var top) = archiver.encodedArchive, case .array(var objects)? = top["$objects"],
          let childIndex = objects.firstIndex(where: { entry in
              if case .dictionary(let fields) = entry, case .uid(let uid)? = fields["name"] { return objects[Int(uid)] == .string("child") }
              return false
          }),
          case .dictionary(var childFields) = objects[childIndex]
    else { Issue.record("unexpected archive shape"); return }
    childFields["name"] = .uid(UInt64(objects.count))
    objects[childIndex] = .dictionary(childFields)
    objects.append(.integer(3))
    top["$objects"] = .array(objects)
    let error = decodeError(.dictionary(top), as: Node.self)
    #expect(error == ArchiveError(.typeMismatch(expected: "String", found: "integer"),
                                  keyPath: ["root", "children", "[0]", "name"], objectIndex: objects.count - 1))
    #expect(error?.description == "expected String, found integer at root.children[0].name ($objects[\(objects.count - 1)])")
}
