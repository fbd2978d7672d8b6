import Foundation
import Testing
import KeyedArchive
import PropertyList

@Test func anObjectRoundTripsThroughADefaultsValue() throws {
    let mark = Bookmark()
    mark.title = "chapter 3"
    let stored = try ArchivedValue.propertyListValue(for: mark)
    guard case .data = stored else { Issue.record("expected a data value, got \(stored)"); return }
    #expect(try ArchivedValue.object(of: Bookmark.self, from: stored).title == "chapter 3")
}

@Test func anObjectRoundTripsThroughArchiveData() throws {
    let node = sampleTree()
    let copy = try ArchivedValue.object(of: Node.self, from: try ArchivedValue.data(for: node))
    #expect(copy.children[0].parent === copy)
}

@Test func aDefaultsValueThatIsNotDataIsRefused() {
    #expect(throws: ArchiveError(.typeMismatch(expected: "data holding a keyed archive", found: "string"))) {
        try ArchivedValue.object(of: Bookmark.self, from: PropertyListValue.string("oops"))
    }
}

@Test func aDefaultsValueOfAnotherClassIsRefused() throws {
    let stored = try ArchivedValue.propertyListValue(for: Node("n"))
    #expect(throws: ArchiveError(.classNotAllowed("WLNode"), objectIndex: 1)) {
        try ArchivedValue.object(of: Bookmark.self, from: stored)
    }
}
