import Foundation
import KeyedArchive
import PropertyList
import Restoration
import Testing

@Suite("Restoration rules")
struct EngineRuleTests {
    let engine = RestorationEngine(duplicatePolicy: .fail)

    @Test func stateAndChildrenComeBackInOrder() throws {
        let saved = FakeScreen("Root", value: "r", [FakeScreen("A", value: "a"), FakeScreen("B", value: "b", [FakeScreen("C", value: "c")])])
        saved.children[1].number = 7
        let data = try preserve(saved)

        let fresh = FakeScreen("Root", [FakeScreen("A"), FakeScreen("B", [FakeScreen("C")])])
        let report = try engine.restore(from: data, root: fresh)
        #expect(report.restoredPaths == ["Root", "Root/A", "Root/B", "Root/B/C"])
        #expect(fresh.value == "r" && fresh.child("A")?.value == "a" && fresh.child("B")?.value == "b")
        #expect(fresh.child("B")?.number == 7)
        #expect(fresh.child("B")?.child("C")?.value == "c")
        #expect(fresh.restoredChildren?.map(\.restorationIdentifier) == ["A", "B"])
        #expect(fresh.finishedRestoring && fresh.child("B")!.child("C")!.finishedRestoring)
        #expect(report.log.isEmpty)
        #expect(report.header == testHeader)
    }

    @Test func anObjectWithoutAnIdentifierIsSkippedWithItsSubtree() throws {
        let saved = FakeScreen("Root", [FakeScreen(nil, value: "x", [FakeScreen("Deep", value: "lost")]), FakeScreen("Kept", value: "k")])
        let preserved = try engine.preserve(root: saved, header: testHeader)
        #expect(preserved.paths == ["Root", "Root/Kept"])

        let fresh = FakeScreen("Root", [FakeScreen(nil, [FakeScreen("Deep")]), FakeScreen("Kept")])
        _ = try engine.restore(from: preserved.data, root: fresh)
        #expect(fresh.children[0].children[0].value == "")
        #expect(fresh.child("Kept")?.value == "k")
    }

    @Test func aRootWithoutAnIdentifierSavesNothing() throws {
        let preserved = try engine.preserve(root: FakeScreen(nil, [FakeScreen("A", value: "a")]), header: testHeader)
        #expect(preserved.paths.isEmpty)
        let fresh = FakeScreen("Root", [FakeScreen("A")])
        let report = try engine.restore(from: preserved.data, root: fresh)
        #expect(report.restoredPaths.isEmpty)
        #expect(report.log.contains { $0.contains("no screen tree") })
    }

    @Test func duplicateSiblingIdentifiersAreAnErrorInStrictMode() throws {
        let tree = FakeScreen("Root", [FakeScreen("Nav", [FakeScreen("Detail"), FakeScreen("Detail")])])
        #expect(throws: RestorationError(.duplicateIdentifier(path: "Root/Nav/Detail"))) {
            try engine.preserve(root: tree, header: testHeader)
        }
    }

    @Test func duplicateSiblingIdentifiersAreLoggedAndSkippedInRelease() throws {
        let lenient = RestorationEngine(duplicatePolicy: .skipAndLog)
        let tree = FakeScreen("Root", [FakeScreen("Nav", [FakeScreen("Detail", value: "first"), FakeScreen("Detail", value: "second")])])
        let preserved = try lenient.preserve(root: tree, header: testHeader)
        #expect(preserved.paths == ["Root", "Root/Nav", "Root/Nav/Detail"])
        #expect(preserved.log.contains { $0.contains("Root/Nav/Detail") && $0.contains("only the first") })
        let fresh = FakeScreen("Root", [FakeScreen("Nav", [FakeScreen("Detail")])])
        _ = try lenient.restore(from: preserved.data, root: fresh)
        #expect(fresh.child("Nav")?.child("Detail")?.value == "first")
    }

    @Test func equalIdentifiersUnderDifferentParentsAreFine() throws {
        let tree = FakeScreen("Root", [FakeScreen("A", [FakeScreen("Item")]), FakeScreen("B", [FakeScreen("Item")])])
        #expect(try engine.preserve(root: tree, header: testHeader).paths.count == 5)
    }

    @Test func aRegisteredRestorationClassRebuildsAScreenCreatedInCode() throws {
        let saved = FakeScreen("Root", [FakeScreen("Nav", [FakeScreen("List", value: "l"), FakeScreen("Detail", className: "DetailClass", value: "draft")])])
        let data = try preserve(saved)

        var registry = RestorationClassRegistry()
        var seenPath: [String] = []
        registry.register("DetailClass") { path, coder in
            seenPath = path
            let screen = FakeScreen("Detail", className: "DetailClass")
            screen.number = try coder.decodeInteger(forKey: "number") + 100  // the coder is on the node's keys
            return screen
        }
        let restoring = RestorationEngine(registry: registry, duplicatePolicy: .fail)
        let fresh = FakeScreen("Root", [FakeScreen("Nav", [FakeScreen("List")])])
        let report = try restoring.restore(from: data, root: fresh)
        #expect(seenPath == ["Root", "Nav", "Detail"])
        let stack = try #require(fresh.child("Nav")?.restoredChildren)
        #expect(stack.map(\.restorationIdentifier) == ["List", "Detail"])
        #expect(stack[1].value == "draft")
        #expect(report.restoredPaths.contains("Root/Nav/Detail"))
    }

    @Test func anUnknownRestorationClassIsSkippedAndLogged() throws {
        let saved = FakeScreen("Root", [FakeScreen("Detail", className: "Gone")])
        let fresh = FakeScreen("Root")
        let report = try engine.restore(from: try preserve(saved), root: fresh)
        #expect(report.log == ["Root/Detail: restoration class Gone is not registered; skipped"])
        #expect(fresh.restoredChildren?.isEmpty == true)
    }

    @Test func aFactoryThatDeclinesOrFailsOrMisnamesIsSkipped() throws {
        struct Refused: Error {}
        var registry = RestorationClassRegistry()
        registry.register("Declines") { _, _ in nil }
        registry.register("Throws") { _, _ in throw Refused() }
        registry.register("Misnames") { _, _ in FakeScreen("Other") }
        let saved = FakeScreen("Root", [FakeScreen("A", className: "Declines"), FakeScreen("B", className: "Throws"), FakeScreen("C", className: "Misnames")])
        let report = try RestorationEngine(registry: registry).restore(from: try preserve(saved), root: FakeScreen("Root"))
        #expect(report.log.count == 3)
        #expect(report.log[0].contains("declined"))
        #expect(report.log[1].contains("failed"))
        #expect(report.log[2].contains("built \"Other\""))
    }

    @Test func aContainerWhoseChildVanishedRestoresTheRest() throws {
        let saved = FakeScreen("Root", [FakeScreen("Map", value: "m"), FakeScreen("Removed", value: "r"), FakeScreen("Book", value: "b")])
        let fresh = FakeScreen("Root", [FakeScreen("Map"), FakeScreen("Book")])
        let report = try engine.restore(from: try preserve(saved), root: fresh)
        #expect(fresh.restoredChildren?.map(\.restorationIdentifier) == ["Map", "Book"])
        #expect(fresh.child("Book")?.value == "b")
        #expect(report.log == ["Root/Removed: no screen of this version has this identifier, and it has no restoration class (a newer version's, or one this version no longer makes); skipped"])
    }

    @Test func anotherRootIdentifierRestoresNothing() throws {
        let fresh = FakeScreen("NewRoot", [FakeScreen("A")])
        let report = try engine.restore(from: try preserve(FakeScreen("OldRoot", [FakeScreen("A", value: "a")])), root: fresh)
        #expect(report.restoredPaths.isEmpty)
        #expect(fresh.child("A")?.value == "")
        #expect(report.log.first?.contains("OldRoot") == true)
    }

    @Test func anotherFormatVersionIsNotRestored() throws {
        var header = testHeader
        header.formatVersion = RestorationEngine.formatVersion + 1
        let data = try preserve(FakeScreen("Root", value: "x"), header: header)
        let fresh = FakeScreen("Root")
        let error = try #require(throws: RestorationError.self) { try engine.restore(from: data, root: fresh) }
        #expect(error.kind == .incompatibleFormat(found: 2, supported: 1))
        #expect(!error.isCorruption)
        #expect(fresh.value == "")
        // `state show` still reads it.
        #expect(try engine.describe(data).header.formatVersion == 2)
    }

    @Test(arguments: [
        Data("not an archive at all".utf8),
        Data("bplist00".utf8) + Data(repeating: 0xFF, count: 40),
    ])
    func garbageIsCorruption(_ data: Data) throws {
        let error = try #require(throws: RestorationError.self) { try engine.restore(from: data, root: FakeScreen("Root")) }
        #expect(error.isCorruption)
    }

    @Test func aPlistThatIsNotARestorationArchiveIsCorruption() throws {
        let other = try KeyedArchiver.archivedData(withRootObject: "just a string")
        let error = try #require(throws: RestorationError.self) { try engine.restore(from: other, root: FakeScreen("Root")) }
        #expect(error.kind == .notARestorationArchive)
        #expect(error.isCorruption)
        let plain = try PropertyListSerializer.data(from: .dictionary(["a": .integer(1)]), format: .xml)
        #expect(throws: RestorationError.self) { try engine.restore(from: plain, root: FakeScreen("Root")) }
    }

    @Test func identifiersWithASlashAreNotSaved() throws {
        let preserved = try engine.preserve(root: FakeScreen("Root", [FakeScreen("a/b")]), header: testHeader)
        #expect(preserved.paths == ["Root"])
        #expect(preserved.log.first?.contains("\"/\"") == true)
    }
}
