import Foundation
import Restoration
import Testing

/// A renamed screen keeps every user's saved place: an archive that names it by a former
/// identifier restores it, and the next save uses the new name.
@Suite("Former identifiers")
struct FormerIdentifierTests {
    private let engine = RestorationEngine(duplicatePolicy: .fail)

    private func renamed(_ id: String, was former: String, className: String? = nil, _ children: [FakeScreen] = []) -> FakeScreen {
        let screen = FakeScreen(id, className: className, children)
        screen.formerRestorationIdentifiers = [former]
        return screen
    }

    @Test func aChildSavedUnderItsFormerNameIsRestored() throws {
        let data = try preserve(FakeScreen("Root", [FakeScreen("CharacterNav", value: "old")]))
        let fresh = FakeScreen("Root", [renamed("Characters", was: "CharacterNav")])
        let report = try engine.restore(from: data, root: fresh)
        #expect(fresh.child("Characters")?.value == "old")
        #expect(report.restoredPaths == ["Root", "Root/CharacterNav"])
        #expect(report.log.isEmpty)
        #expect(try engine.preserve(root: fresh, header: testHeader).paths == ["Root", "Root/Characters"])
    }

    @Test func aRootSavedUnderItsFormerNameIsRestored() throws {
        let data = try preserve(FakeScreen("OldRoot", value: "kept"))
        let fresh = renamed("Root", was: "OldRoot")
        _ = try engine.restore(from: data, root: fresh)
        #expect(fresh.value == "kept")
    }

    @Test func aScreenRebuiltByItsClassMayCarryItsNewName() throws {
        let data = try preserve(FakeScreen("Root", [FakeScreen("RememberPlace", className: "Prompt", value: "draft")]))
        var registry = RestorationClassRegistry()
        registry.register("Prompt") { _, _ in self.renamed("RememberPlacePrompt", was: "RememberPlace", className: "Prompt") }
        let fresh = FakeScreen("Root")
        let report = try RestorationEngine(registry: registry, duplicatePolicy: .fail).restore(from: data, root: fresh)
        #expect(fresh.restoredChildren?.map(\.value) == ["draft"])
        #expect(report.log.isEmpty)
    }

    @Test func anotherScreensFormerNameIsNotTaken() throws {
        let data = try preserve(FakeScreen("Root", [FakeScreen("Elsewhere", value: "theirs")]))
        let fresh = FakeScreen("Root", [renamed("Characters", was: "CharacterNav")])
        _ = try engine.restore(from: data, root: fresh)
        #expect(fresh.child("Characters")?.value == "")
    }

    // MARK: saved under both names, for the release before a rename

    @Test func theReleaseBeforeARenameRestoresTheScreenByItsOldName() throws {
        let detail = FakeScreen("Detail", className: "Detail", value: "Cheshire Cat")
        let data = try preserve(FakeScreen("Root", [renamed("Characters", was: "CharacterNav", [FakeScreen("List"), detail])]))
        var registry = RestorationClassRegistry()
        registry.register("Detail") { _, _ in FakeScreen("Detail", className: "Detail") }
        // The release before knows the stack only as "CharacterNav".
        let older = FakeScreen("Root", [FakeScreen("CharacterNav", [FakeScreen("List")])])
        let report = try RestorationEngine(registry: registry, duplicatePolicy: .fail).restore(from: data, root: older)
        #expect(older.child("CharacterNav")?.restoredChildren?.map(\.value) == ["", "Cheshire Cat"])
        #expect(report.restoredPaths.contains("Root/CharacterNav/Detail"))
    }

    @Test func thisReleaseRestoresTheCurrentNameOnceAndSkipsTheOldOne() throws {
        let data = try preserve(FakeScreen("Root", [renamed("Characters", was: "CharacterNav", [FakeScreen("List", value: "row 4")])]))
        let stack = renamed("Characters", was: "CharacterNav", [FakeScreen("List")])
        let fresh = FakeScreen("Root", [stack])
        let report = try engine.restore(from: data, root: fresh)
        #expect(stack.decodeCount == 1)
        #expect(fresh.restoredChildren?.count == 1)
        #expect(stack.restoredChildren?.map(\.value) == ["row 4"])
        #expect(report.log.isEmpty)
        #expect(report.restoredPaths == ["Root", "Root/Characters", "Root/Characters/List"])
    }

    @Test func aModalIsSavedUnderBothNamesAndPresentedOnce() throws {
        let prompt = renamed("RememberPlacePrompt", was: "RememberPlace", className: "Prompt")
        prompt.value = "draft"
        let data = try engine.preserve(root: FakeScreen("Root"), modals: [prompt], header: testHeader).data
        var registry = RestorationClassRegistry()
        registry.register("Prompt") { _, _ in self.renamed("RememberPlacePrompt", was: "RememberPlace", className: "Prompt") }
        var presented: [FakeScreen] = []
        _ = try RestorationEngine(registry: registry, duplicatePolicy: .fail)
            .restore(from: data, root: FakeScreen("Root"), presentModal: { presented.append($0 as! FakeScreen) })
        #expect(presented.map(\.value) == ["draft"])

        var olderRegistry = RestorationClassRegistry()
        olderRegistry.register("Prompt") { _, _ in FakeScreen("RememberPlace", className: "Prompt") }
        var olderPresented: [FakeScreen] = []
        _ = try RestorationEngine(registry: olderRegistry, duplicatePolicy: .fail)
            .restore(from: data, root: FakeScreen("Root"), presentModal: { olderPresented.append($0 as! FakeScreen) })
        #expect(olderPresented.map(\.value) == ["draft"])
    }

    @Test func theOldNameIsNotWrittenOverASiblingThatHasIt() throws {
        let data = try preserve(FakeScreen("Root", [renamed("Characters", was: "CharacterNav"), FakeScreen("CharacterNav", value: "other")]))
        let older = FakeScreen("Root", [FakeScreen("CharacterNav")])
        _ = try engine.restore(from: data, root: older)
        #expect(older.child("CharacterNav")?.value == "other")
    }
}
