import Foundation
import PropertyList
import PropertyListTestSupport
import Restoration
import Testing

/// A restoration archive is read under `PropertyListLimits.restorationState`: a file that
/// expands past it is damaged (moved aside by the caller), reported in words, and costs nothing.
@Suite struct RestorationLimitsTests {
    @Test func aSharedReferenceBombIsADamagedArchive() throws {
        let fresh = FakeScreen("Root")
        do {
            _ = try RestorationEngine().restore(from: CraftedBinary.sharedReferenceBomb(levels: 40), root: fresh)
            Issue.record("expected the archive to be refused")
        } catch let error as RestorationError {
            #expect(error.isCorruption)
            #expect(error.description.contains("expands to more than 1,048,576 objects"))
        }
        #expect(fresh.value.isEmpty)
    }
}
