import Defaults
import Foundation
@testable import BookFront
import PropertyList
import Restoration
import Testing

private let book = BookDocument(id: "tide-9", title: "The Tide Clock", path: "/books/tide.txt", format: .plainText,
                                text: BookText(ReaderFixture.longString(copies: 6)), chapters: [])
private let books = ["/books/tide.txt": book]

/// Which copy of the reading place wins: the restoration archive, the defaults, or a place
/// another device or instance saved.
@Suite("Reader place precedence")
struct ReaderPlaceTests {
    func archive(_ harness: ReaderHarness) throws -> Data {
        let header = RestorationHeader(appVersion: "test", timestamp: Date(), terminalColumns: 60, terminalRows: 16)
        return try RestorationEngine(duplicatePolicy: .fail).preserve(root: harness.reader, header: header).data
    }

    func relaunch(from data: Data, store: PreferenceStore) throws -> ReaderHarness {
        var failure: Error?
        let harness = ReaderHarness(books: books, store: store) { reader in
            do { _ = try RestorationEngine(duplicatePolicy: .fail).restore(from: data, root: reader) } catch { failure = error }
        }
        if let failure { throw failure }
        return harness
    }

    func positions(_ harness: ReaderHarness) -> ReadingPositions { ReadingPositions(store: harness.store) }

    @Test func aRelaunchKeepsTheNewerPlaceInTheDefaultsOverAnOlderArchivedOne() throws {
        let store = InMemoryPreferenceStore()
        let first = ReaderHarness(books: books, bookPath: "/books/tide.txt", store: store)
        try first.press(.character(" "))
        let archived = try archive(first)
        let older = first.reader.anchor
        // Another device read on; the mirror put its place, stamped later, in the defaults.
        let newer = ReadingPlace(offset: older + 2000, stamp: EditStamp(time: first.reader.anchorStamp.time + 30, device: "other"))
        store.simulateExternalChange([ReadingPositions.storeKey: .dictionary([book.id: newer.propertyList])])
        let writesBefore = store.writes.count

        let second = try relaunch(from: archived, store: store)
        #expect(second.reader.anchor == newer.offset)
        #expect(positions(second).place(forBook: book.id) == newer, "the newer place is not rewritten with a new stamp")
        #expect(store.writes.count == writesBefore)
    }

    @Test func aRelaunchTakesANewerArchivedPlaceWithItsOwnStamp() throws {
        let store = InMemoryPreferenceStore()
        let first = ReaderHarness(books: books, bookPath: "/books/tide.txt", store: store)
        for _ in 0..<3 { try first.press(.character(" ")) }
        let place = ReadingPlace(offset: first.reader.anchor, stamp: first.reader.anchorStamp)
        let archived = try archive(first)
        // The defaults lost the last page turns (an older copy, as after a crash).
        store.simulateExternalChange([ReadingPositions.storeKey: .dictionary([book.id: .integer(0)])])

        let second = try relaunch(from: archived, store: store)
        #expect(second.reader.anchor == place.offset)
        #expect(positions(second).place(forBook: book.id) == place)
    }

    @Test func anArchiveWithoutAStampStillRestoresWhenTheDefaultsHaveNoNewerPlace() throws {
        let store = InMemoryPreferenceStore()
        let first = ReaderHarness(books: books, bookPath: "/books/tide.txt", store: store)
        for _ in 0..<2 { try first.press(.character(" ")) }
        let offset = first.reader.anchor
        first.reader.anchorStamp = .zero  // what an archive from before stamps holds
        let archived = try archive(first)
        store.simulateExternalChange([ReadingPositions.storeKey: .dictionary([book.id: .integer(Int64(offset))])])
        let second = try relaunch(from: archived, store: store)
        #expect(second.reader.anchor == offset)
    }

    @Test func followingANewerPlaceSavesItAtOnceAndTheArchiveCarriesItsStamp() throws {
        let store = InMemoryPreferenceStore()
        let reader = ReaderHarness(books: books, bookPath: "/books/tide.txt", store: store)
        try reader.press(.character(" "))
        let newer = ReadingPlace(offset: 3000, stamp: EditStamp(time: reader.reader.anchorStamp.time + 5, device: "other"))
        let savesBefore = store.saves.count
        store.simulateExternalChange([ReadingPositions.storeKey: .dictionary([book.id: newer.propertyList])])
        #expect(reader.reader.anchor == 3000)
        #expect(reader.reader.message == "Moved to where you were reading elsewhere.")
        #expect(store.saves.count == savesBefore + 1)

        let relaunched = try relaunch(from: try archive(reader), store: InMemoryPreferenceStore())
        #expect(relaunched.reader.anchor == 3000)
        #expect(relaunched.reader.anchorStamp == newer.stamp)
    }

    @Test func pageTurnsAreSavedCoalescedNotAtOnce() throws {
        let store = InMemoryPreferenceStore()
        let reader = ReaderHarness(books: books, bookPath: "/books/tide.txt", store: store)
        for _ in 0..<3 { try reader.press(.character(" ")) }
        #expect(ReadingPositions(store: store).place(forBook: book.id) == ReadingPlace(offset: reader.reader.anchor, stamp: reader.reader.anchorStamp))
        #expect(store.saves.isEmpty, "a page turn costs no fsync")
        #expect(reader.reader.message == nil)
    }

    @Test func anOlderPlaceFromElsewhereIsOverruledAndTheReaderStays() throws {
        let store = InMemoryPreferenceStore()
        let reader = ReaderHarness(books: books, bookPath: "/books/tide.txt", store: store)
        for _ in 0..<2 { try reader.press(.character(" ")) }
        let mine = ReadingPlace(offset: reader.reader.anchor, stamp: reader.reader.anchorStamp)
        let older = ReadingPlace(offset: 10, stamp: EditStamp(time: mine.stamp.time - 100, device: "other"))
        store.simulateExternalChange([ReadingPositions.storeKey: .dictionary([book.id: older.propertyList])])
        #expect(reader.reader.anchor == mine.offset)
        #expect(ReadingPositions(store: store).place(forBook: book.id) == mine)
    }
}
