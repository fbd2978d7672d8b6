@testable import SavedCollections
import Foundation
import PropertyList
import Testing
#if canImport(Glibc)
import Glibc
#endif

final class LockedList: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func append(contentsOf more: [String]) { lock.lock(); list += more; lock.unlock() }
    var items: [String] { lock.lock(); defer { lock.unlock() }; return list }
}

/// A fresh folder for one test's database.
private func temporaryDatabasePath() -> String {
    var template = Array("/tmp/collections-test-XXXXXX".utf8CString)
    let folder = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    return folder + "/collections.sqlite"
}

@Suite struct CollectionDatabaseTests {
    @Test func savesAndReadsEntriesOneByOne() throws {
        let path = temporaryDatabasePath()
        let database = try CollectionDatabase(path: path)
        try database.save(in: "Notes", names: ["alice", "bob"]) { name, _ in .string("note of \(name)") }
        #expect(try database.entry("alice", in: "Notes") == .string("note of alice"))
        #expect(try database.entries(in: "Notes") == ["alice": .string("note of alice"), "bob": .string("note of bob")])
        #expect(try database.entries(in: "Other").isEmpty)

        let reopened = try CollectionDatabase(path: path)
        #expect(try reopened.entry("bob", in: "Notes") == .string("note of bob"))
    }

    @Test func dataIsKeptAsItIsAndRemovalsLeaveNoEntry() throws {
        let database = try CollectionDatabase(path: temporaryDatabasePath())
        let archive = Data("bplist00 not really".utf8)
        try database.save(in: "Marks", names: ["book"]) { _, _ in .data(archive) }
        #expect(try database.entry("book", in: "Marks") == .data(archive))
        try database.save(in: "Marks", names: ["book"]) { _, _ in nil }
        #expect(try database.entry("book", in: "Marks") == nil)
        #expect(try database.entries(in: "Marks").isEmpty)
    }

    @Test func settleSeesWhatAnotherConnectionSaved() throws {
        let path = temporaryDatabasePath()
        let first = try CollectionDatabase(path: path)
        let second = try CollectionDatabase(path: path)
        try first.save(in: "Notes", names: ["alice"]) { _, _ in .string("first") }
        var seen: PropertyListValue?
        try second.save(in: "Notes", names: ["alice"]) { _, theirs in
            seen = theirs
            return .string("second")
        }
        #expect(seen == .string("first"))
        #expect(first.othersSaved())
        #expect(try first.changesSinceLastLook() == [.init(collection: "Notes", name: "alice", value: .string("second"))])
        #expect(!first.othersSaved())
        #expect(try first.changesSinceLastLook().isEmpty)
    }

    @Test func ownSavesAreNotNews() throws {
        let database = try CollectionDatabase(path: temporaryDatabasePath())
        try database.save(in: "Notes", names: ["alice"]) { _, _ in .string("mine") }
        #expect(!database.othersSaved())
        #expect(try database.changesSinceLastLook().isEmpty)
    }

    @Test func removalsReachOtherConnections() throws {
        let path = temporaryDatabasePath()
        let first = try CollectionDatabase(path: path)
        let second = try CollectionDatabase(path: path)
        try first.save(in: "Stars", names: ["alice"]) { _, _ in .boolean(true) }
        _ = try second.changesSinceLastLook()
        try first.save(in: "Stars", names: ["alice"]) { _, _ in nil }
        #expect(try second.changesSinceLastLook() == [.init(collection: "Stars", name: "alice", value: nil)])
    }

    @Test func aDamagedFileIsMovedAsideWithItsLogAndANewOneStarted() throws {
        let path = temporaryDatabasePath()
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: path))
        let database = try CollectionDatabase(path: path)
        let warnings = database.takeWarnings()
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("moved to") == true)
        let folder = asPath(path).parent
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(names.contains { $0.hasPrefix("collections.sqlite.corrupt-") })
        try database.save(in: "Notes", names: ["alice"]) { _, _ in .string("kept") }
        #expect(try database.entry("alice", in: "Notes") == .string("kept"))
    }

    @Test func aReadOnlyLookChangesNothingAndCallsDamageAnError() throws {
        let path = temporaryDatabasePath()
        #expect(throws: CollectionDatabase.OpenFailure.self) { try CollectionDatabase(path: path, readOnly: true) }
        #expect(access(path, F_OK) != 0, "nothing made")
        let garbage = Data(repeating: 0x41, count: 8192)
        try garbage.write(to: URL(fileURLWithPath: path))
        #expect(throws: CollectionDatabase.OpenFailure.self) { try CollectionDatabase(path: path, readOnly: true) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage, "left where it is")
        unlink(path)
        try CollectionDatabase(path: path).save(in: "Notes", names: ["alice"]) { _, _ in .string("kept") }
        #expect(try CollectionDatabase(path: path, readOnly: true).entries(in: "Notes") == ["alice": .string("kept")])
    }

    @Test(.requires(.sqlite3)) func aNewerFormatIsRefusedAndLeftAsItIs() throws {
        let path = temporaryDatabasePath()
        _ = try CollectionDatabase(path: path)
        #expect(system("sqlite3 '\(path)' 'PRAGMA user_version=99'") == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: CollectionDatabase.OpenFailure.self) { try CollectionDatabase(path: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func aFifoIsRefusedWithoutOpeningIt() throws {
        let path = temporaryDatabasePath()
        #expect(mkfifo(path, 0o600) == 0)
        #expect(throws: CollectionDatabase.OpenFailure.self) { try CollectionDatabase(path: path) }
    }

    @Test func aSymbolicLinkIsRefused() throws {
        let path = temporaryDatabasePath()
        let target = path + ".elsewhere"
        _ = try CollectionDatabase(path: target)
        #expect(symlink(target, path) == 0)
        #expect(throws: (any Error).self) { try CollectionDatabase(path: path) }
    }

    @Test func theFileIsPrivate() throws {
        let path = temporaryDatabasePath()
        let database = try CollectionDatabase(path: path)
        try database.save(in: "Notes", names: ["alice"]) { _, _ in .string("secret") }
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(stat(path + "-wal", &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
    }

    @Test(.requires(.sqlite3)) func anUnreadableEntryIsLeftOutAndKeptAsideBeforeBeingReplaced() throws {
        let path = temporaryDatabasePath()
        let database = try CollectionDatabase(path: path)
        try database.save(in: "Notes", names: ["alice", "bob"]) { name, _ in .string(name) }
        #expect(system("sqlite3 '\(path)' \"UPDATE entries SET kind = 0, value = x'00112233' WHERE name = 'alice'\"") == 0)
        let reader = try CollectionDatabase(path: path)
        #expect(try reader.entries(in: "Notes") == ["bob": .string("bob")])
        #expect(reader.takeWarnings().contains { $0.contains("alice") })
        try reader.save(in: "Notes", names: ["alice"]) { _, theirs in
            #expect(theirs == nil)
            return .string("new")
        }
        #expect(system("test \"$(sqlite3 '\(path)' \"SELECT hex(value) FROM set_aside WHERE name = 'alice'\")\" = 00112233") == 0)
    }

    @Test func movingInSkipsWhatWasAlreadyMovedAndMergesWhatChangedSince() throws {
        let database = try CollectionDatabase(path: temporaryDatabasePath())
        var settled: [String] = []
        let settle: (String, PropertyListValue?, PropertyListValue, PropertyListValue?) -> PropertyListValue? = { name, base, mine, theirs in
            settled.append(name)
            if theirs == base { return mine }
            return theirs
        }
        try database.moveIn(["alice": .string("a1"), "bob": .string("b1")], into: "Notes", settle: settle)
        #expect(settled == ["alice", "bob"])
        try database.save(in: "Notes", names: ["alice"]) { _, _ in .string("a2, edited after the move") }
        settled = []
        // The old store still holds the same values: nothing to do.
        try database.moveIn(["alice": .string("a1"), "bob": .string("b1")], into: "Notes", settle: settle)
        #expect(settled.isEmpty)
        #expect(try database.entry("alice", in: "Notes") == .string("a2, edited after the move"))
        // An older version changed bob there: settled with what was moved as the base.
        try database.moveIn(["alice": .string("a1"), "bob": .string("b2")], into: "Notes", settle: settle)
        #expect(settled == ["bob"])
        #expect(try database.entry("bob", in: "Notes") == .string("b2"))
        try database.forgetMovedIn("Notes")
        #expect(try database.movedIn("Notes").isEmpty)
    }

    @Test func eightConnectionsMakingTheSameNewDatabaseAtOnceShareIt() throws {
        for _ in 0..<20 {
            let path = temporaryDatabasePath()
            let warnings = LockedList()
            let group = DispatchGroup()
            for worker in 0..<8 {
                DispatchQueue.global().async(group: group) {
                    do {
                        let database = try CollectionDatabase(path: path)
                        try database.save(in: "Places", names: ["book-\(worker)"]) { _, _ in .integer(Int64(worker)) }
                        warnings.append(contentsOf: database.takeWarnings())
                    } catch {
                        warnings.append(contentsOf: ["\(error)"])
                    }
                }
            }
            group.wait()
            #expect(warnings.items.isEmpty, "\(warnings.items)")
            #expect(try CollectionDatabase(path: path).entries(in: "Places").count == 8)
        }
    }

    @Test func summariesCountEntriesAndBytes() throws {
        let database = try CollectionDatabase(path: temporaryDatabasePath())
        try database.save(in: "Marks", names: ["a", "b"]) { _, _ in .data(Data(count: 100)) }
        try database.save(in: "Marks", names: ["b"]) { _, _ in nil }
        #expect(try database.summaries() == [.init(collection: "Marks", entries: 1, bytes: 100)])
    }
}

/// The folder of a path, without Foundation's NSString.
private struct NSStringPath {
    let path: String
    var parent: String { String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]) }
}

private func asPath(_ s: String) -> NSStringPath { NSStringPath(path: s) }
