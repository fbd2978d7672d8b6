import Defaults
import Foundation
import PropertyList
import Screens
import ScreensTesting
import Terminal
import Testing
@testable import BookFront

/// The Characters navigation alone on a headless terminal, with three characters.
private final class FavouritesPilot: Pilot {
    let navigation: NavigationStack
    let context: CharactersContext

    init(store: InMemoryPreferenceStore = InMemoryPreferenceStore()) {
        let catalog = CharacterCatalog(characters: [
            BookCharacter(id: "alice", name: "Alice", aliases: [], description: "Curious.", firstChapter: 1),
            BookCharacter(id: "rabbit", name: "White Rabbit", aliases: [], description: "Late.", firstChapter: 1),
            BookCharacter(id: "queen", name: "Queen of Hearts", aliases: [], description: "Shouts.", firstChapter: 8),
        ])
        let book = FileManager.default.temporaryDirectory.appendingPathComponent("wl-favourites-no-book.txt")
        context = CharactersContext(catalog: .success(catalog), store: store, bookURL: book, searchesInBackground: false)
        navigation = CharacterListScreen.makeNavigation(context: context)
        super.init(navigation, columns: 80, rows: 12)
    }

    var favourites: CharacterFavouritesScreen? { navigation.topScreen as? CharacterFavouritesScreen }
}

@Suite("Favourite characters")
struct CharacterFavouritesTests {
    @Test func fStarsTheSelectedCharacterAndTheRowSaysSo() throws {
        let pilot = FavouritesPilot()
        try pilot.press("down", "f")
        pilot.expectRow(2, equals: "▸ White Rabbit  ch. 1 · favourite")
        #expect(pilot.context.favourites.ids == ["rabbit"])
        try pilot.press("f")
        pilot.expectRow(2, equals: "▸ White Rabbit  ch. 1")
        #expect(pilot.context.favourites.ids.isEmpty)
    }

    @Test func theBarOffersTheFavouritesAndTheHelpBothKeys() throws {
        let pilot = FavouritesPilot()
        #expect(pilot.hintBar.contains("F Favourites"))
        #expect(!pilot.hintBar.contains("f Star"), "the bar keeps its room for the tab keys")
        try pilot.press("?")
        pilot.expectScreen(contains: "Star: add to or take off your favourites")
        pilot.expectScreen(contains: "Favourites: the characters you starred")
    }

    @Test func capitalFShowsOnlyTheStarredOnesAndEnterOpensOne() throws {
        let pilot = FavouritesPilot()
        try pilot.press("down", "down", "f", "up", "up", "f", "F")
        pilot.expectRow(0, contains: "Characters › Favourites")
        pilot.expectRow(1, equals: "▸ Alice  ch. 1")
        pilot.expectRow(2, equals: "  Queen of Hearts  ch. 8")
        pilot.expectScreen(doesNotContain: "White Rabbit")
        try pilot.press("enter")
        #expect(pilot.navigation.topScreen is CharacterDetailScreen)
        try pilot.press("escape")
        #expect(pilot.favourites != nil, "back from the detail lands on the favourites")
    }

    @Test func fOnTheFavouritesUnstarsAndTheListSaysSoWhenGoingBack() throws {
        let pilot = FavouritesPilot()
        try pilot.press("f", "F", "f")
        pilot.expectScreen(contains: "No favourites yet. Press f on a character in the list to star it.")
        try pilot.press("escape")
        pilot.expectRow(1, equals: "▸ Alice  ch. 1")
    }

    @Test func whileTheFilterIsTypedFIsALetter() throws {
        let pilot = FavouritesPilot()
        try pilot.press("/")
        try pilot.type("f")
        #expect(pilot.context.favourites.ids.isEmpty)
        #expect(pilot.favourites == nil)
    }

    /// Two instances on one defaults file, as two stores on one file.
    @Test func favouritesStarredInTwoInstancesAreBothKeptAndTheLastWordOnOneWins() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-favourites-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("defaults.plist")
        func instance() -> CharacterFavourites {
            CharacterFavourites(store: DefaultsStore(fileURL: file, options: .init(watchesForChanges: false)))
        }
        func onDisk() throws -> Set<String> {
            guard case .dictionary(let values) = try PropertyListReader.value(from: Data(contentsOf: file)),
                  case .dictionary(let favourites)? = values[CharacterFavourites.storeKey] else { return [] }
            return Set(favourites.keys)
        }
        let first = instance(), second = instance()
        try first.set(true, for: "alice")
        try second.set(true, for: "rabbit")
        #expect(try onDisk() == ["alice", "rabbit"], "on disk when set returns, and both kept")

        try first.set(true, for: "queen")
        try second.set(true, for: "queen")
        try first.set(false, for: "queen")
        #expect(try onDisk() == ["alice", "rabbit"], "the last save on one character wins")
    }
}
