@testable import MapFront
import Screens
import Terminal
import Testing

private func place(_ name: String, ascii: String? = nil, country: String = "", _ latitude: Double, _ longitude: Double, population: Int) -> Place {
    Place(name: name, asciiName: ascii, country: country, coordinate: GeoPoint(latitude: latitude, longitude: longitude), population: population, rank: 1)
}

private let world = [
    place("São Paulo", ascii: "Sao Paulo", country: "Brazil", -23.55, -46.63, population: 18_845_000),
    place("Zürich", ascii: "Zurich", country: "Switzerland", 47.37, 8.54, population: 1_108_000),
    place("Paris", country: "France", 48.8566, 2.3522, population: 11_000_000),
    place("Paris", country: "United States", 33.66, -95.55, population: 25_000),
    place("Parisville", country: "Nowhere", 10, 10, population: 50),
    place("Comparison Town", country: "Nowhere", 11, 11, population: 9_000_000),
    place("New York", country: "United States", 40.71, -74.01, population: 19_000_000),
    place("York", country: "United Kingdom", 53.96, -1.08, population: 150_000),
    place("Kraków", country: "Poland", 50.06, 19.94, population: 760_000),
    place("Łódź", ascii: "Lodz", country: "Poland", 51.76, 19.46, population: 690_000),
    place("Reykjavík", country: "Iceland", 64.15, -21.95, population: 166_000),
    place("Suva", country: "Fiji", -18.13, 178.44, population: 175_000),
]

@Suite("Place search: accents, case and ranking")
struct PlaceSearchTests {
    let search = PlaceSearch(places: world)

    func names(_ query: String) -> [String] { search.matches(for: query).map { $0.place.name } }

    @Test func foldingDropsAccentsAndCase() {
        #expect(PlaceSearch.fold("São Paulo") == "sao paulo")
        #expect(PlaceSearch.fold("ZÜRICH") == "zurich")
        #expect(PlaceSearch.fold("Łódź") == "lodz")
        #expect(PlaceSearch.fold("Straße") == "strasse")
        #expect(PlaceSearch.fold("Tromsø") == "tromso")
        #expect(PlaceSearch.fold("Reykjavík") == "reykjavik")
    }

    /// The scalars Foundation's decomposedStringWithCanonicalMapping gave for these names,
    /// taken from a run of the folding that used it.
    @Test func foldingDecomposesAsBefore() {
        func scalars(_ text: String) -> [UInt32] { PlaceSearch.fold(text).unicodeScalars.map(\.value) }
        #expect(scalars("Ǆemal Bijedić") == [0x1C6, 0x65, 0x6D, 0x61, 0x6C, 0x20, 0x62, 0x69, 0x6A, 0x65, 0x64, 0x69, 0x63])
        #expect(scalars("서울") == [0x1109, 0x1165, 0x110B, 0x116E, 0x11AF])
        #expect(PlaceSearch.fold("Hà Nội") == "ha noi")
        #expect(PlaceSearch.fold("Ἀθῆναι") == "αθηναι")
        #expect(PlaceSearch.fold("İstanbul") == "istanbul")
        #expect(PlaceSearch.fold("Ångström") == "angstrom")
        #expect(PlaceSearch.fold("Œuvre’s") == "oeuvre's")
    }

    @Test func aLaterOccurrenceCanStartAWord() {
        #expect(PlaceSearch.tier(of: "york", in: "new york") == .wordPrefix)
        #expect(PlaceSearch.tier(of: "ork", in: "yorkork ork") == .wordPrefix)
        #expect(PlaceSearch.tier(of: "ork", in: "yorkork") == .substring)
        #expect(PlaceSearch.tier(of: "서", in: "경서울") == .substring)
        #expect(PlaceSearch.tier(of: "zz", in: "new york") == nil)
    }

    @Test func accentsAndCaseDoNotMatterEitherWay() {
        #expect(names("sao paulo") == ["São Paulo"])
        #expect(names("SÃO") == ["São Paulo"])
        #expect(names("zurich") == ["Zürich"])
        #expect(names("Zürich") == ["Zürich"])
        #expect(names("krakow") == ["Kraków"])
        #expect(names("lodz") == ["Łódź"])
        #expect(names("  reykjavik ") == ["Reykjavík"])
    }

    @Test func exactThenPrefixThenWordThenInsideEachByPopulation() {
        let matches = search.matches(for: "paris")
        #expect(matches.map(\.place.name) == ["Paris", "Paris", "Parisville", "Comparison Town"])
        #expect(matches.map(\.place.country) == ["France", "United States", "Nowhere", "Nowhere"])
        #expect(matches.map(\.tier) == [.exact, .exact, .prefix, .substring])
        // "york": the city named York first, then New York, where it starts a word, although
        // New York is far bigger.
        #expect(search.matches(for: "york").map(\.tier) == [.exact, .wordPrefix])
        #expect(names("york") == ["York", "New York"])
        #expect(names("par") == ["Paris", "Paris", "Parisville", "Comparison Town"])
    }

    @Test func blankOrUnknownFindsNothingAndTheLimitHolds() {
        #expect(names("").isEmpty && names("   ").isEmpty)
        #expect(names("atlantis").isEmpty)
        #expect(search.matches(for: "a", limit: 3).count == 3)
        #expect(search.matches(for: "a", limit: 3).map(\.place.name) == ["São Paulo", "Paris", "Comparison Town"])
    }

    @Test func slashFindsAPlaceAndEnterCentresTheMapThere() throws {
        let map = MapHarness(places: world)
        map.show(MapViewport(center: GeoPoint(latitude: 0, longitude: 0), zoom: 2))
        try map.press(.character("/"))
        #expect(map.lines.joined().contains("Type a name: accents and case do not matter."))
        try map.type("sao")
        #expect(map.lines.contains { $0.contains("▸ São Paulo, Brazil") && $0.contains("18,845,000") })
        try map.press(.enter)
        #expect(map.viewport == MapViewport(exactly: GeoPoint(latitude: -23.55, longitude: -46.63), zoom: MapScreen.placeZoom))
        #expect(map.screen.state.selectedPlace == SelectedPlace(name: "São Paulo", coordinate: GeoPoint(latitude: -23.55, longitude: -46.63)))
        #expect(map.lines[10].contains("◆ São Paulo"))
        // Closer than the search zoom, the map keeps its zoom; ↓ picks the second match.
        try map.press(.character("+"), .character("+"), .character("+"), .character("+"))
        try map.press(.character("/"))
        try map.type("paris")
        try map.press(.down, .enter)
        #expect(map.viewport == MapViewport(exactly: GeoPoint(latitude: 33.66, longitude: -95.55), zoom: 10))
        try map.press(.escape)
        #expect(map.screen.state.selectedPlace == nil)
        #expect(!map.lines[10].contains("◆"))
    }

    @Test func escapeCancelsAndTheMapStaysPut() throws {
        let map = MapHarness(places: world)
        map.show(MapViewport(center: GeoPoint(latitude: 5, longitude: 5), zoom: 3))
        try map.press(.character("/"))
        try map.type("zur")
        try map.press(.escape)
        #expect(map.viewport == MapViewport(center: GeoPoint(latitude: 5, longitude: 5), zoom: 3))
        #expect(map.screen.state.selectedPlace == nil)
        #expect(map.app.modals.isEmpty)
    }

    @Test func typingQInTheSearchIsTextNotQuit() throws {
        let map = MapHarness(places: [place("Quito", country: "Ecuador", -0.22, -78.51, population: 2_000_000)])
        try map.press(.character("/"))
        try map.type("q")
        #expect(map.app.terminationReason == nil)
        try map.press(.enter)
        #expect(map.screen.state.selectedPlace?.name == "Quito")
    }

    @Test func placesThatFinishLoadingWhileTheFinderIsOpenAreSearched() throws {
        let map = MapHarness()
        map.drawer.status = .loading("loading place names…")
        try map.press(.character("/"))
        try map.type("zur")
        #expect(map.lines.joined().contains("No places loaded yet (loading place names…)."))
        map.drawer.finishedLoading = (.ready, world)
        map.terminal.enqueue(.wake)
        try map.app.processPendingEvents()
        #expect(map.lines.contains { $0.contains("▸ Zürich") })
        try map.press(.enter)
        #expect(map.screen.state.selectedPlace?.name == "Zürich")
    }

    @Test func withoutPlacesTheSearchSaysWhy() throws {
        let map = MapHarness()
        map.drawer.status = .loading("loading places")
        try map.press(.character("+"))
        try map.press(.character("/"))
        #expect(map.lines.joined().contains("No places loaded yet (loading places)."))
        try map.type("x")
        try map.press(.enter)
        #expect(map.app.modals.count == 1, "Enter with nothing to pick does nothing")
    }
}
