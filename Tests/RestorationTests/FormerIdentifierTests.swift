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
}
