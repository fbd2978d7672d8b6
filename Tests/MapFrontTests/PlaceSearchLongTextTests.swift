@testable import MapFront
import Screens
import Terminal
import Testing

private func place(_ name: String, ascii: String? = nil, country: String = "", population: Int) -> Place {
    Place(name: name, asciiName: ascii, country: country, coordinate: GeoPoint(latitude: 1, longitude: 2), population: population, rank: 1)
}

private let towns = [
    place("São Paulo", ascii: "Sao Paulo", country: "Brazil", population: 18_845_000),
    place("Paris", country: "France", population: 11_000_000),
    place("Parisville", country: "Nowhere", population: 50),
    place("Comparison Town", country: "Nowhere", population: 9_000_000),
    place("Llanfairpwllgwyngyll", country: "Wales", population: 3_000),
    place("Straßburg", country: "Nowhere", population: 1_000),
]

/// A query as long as a pasted page is answered by the names' length, not its own, and a
/// query that grows looks only among what it found before, with the same answers.
@Suite("Place search: long and growing queries")
struct PlaceSearchLongTextTests {
    let search = PlaceSearch(places: towns)

    @Test func aQueryLongerThanEveryNameFindsNothing() {
        let pasted = String(repeating: "Paris, the city of light. ", count: 800)  // about 20 KB
        #expect(pasted.utf8.count > 20_000)
        #expect(search.needle(of: pasted) == nil)
        #expect(search.matches(for: pasted).isEmpty)
        var found: PlaceSearch.Found?
        #expect(search.matches(for: Array(pasted), narrowing: &found).isEmpty)
        #expect(search.matches(for: "Llanfairpwllgwyngyll!").isEmpty, "one letter more than the longest name")
    }

    @Test func spacesRoundANameAreStillTrimmedWhateverTheirLength() {
        let padded = String(repeating: " ", count: 10_000) + "Paris" + String(repeating: "\t", count: 10_000)
        #expect(search.matches(for: padded).map(\.place.name) == ["Paris", "Parisville", "Comparison Town"])
    }

    @Test func foldingThatGrowsOrShrinksAQueryIsMeasuredAfterFolding() {
        #expect(search.needle(of: "STRASSBURG") == "strassburg")
        #expect(search.matches(for: "strassburg").map(\.place.name) == ["Straßburg"])
        // Marks fold away: a name with an accent on every letter is no longer than the name.
        let accented = "Llanfairpwllgwyngyll".map { String($0) + "\u{301}\u{302}" }.joined()
        #expect(search.matches(for: accented).map(\.place.name) == ["Llanfairpwllgwyngyll"])
    }

    @Test func aGrowingQueryFindsWhatASearchFromScratchFinds() {
        var found: PlaceSearch.Found?
        var typed = ""
        for character in "  paris ville" {
            typed.append(character)
            let narrowed = search.matches(for: typed, narrowing: &found)
            #expect(narrowed == search.matches(for: typed), "\(typed.debugDescription)")
        }
        // Deleting widens again: a needle that does not hold the last one searches everything.
        for _ in 0..<8 {
            typed.removeLast()
            #expect(search.matches(for: typed, narrowing: &found) == search.matches(for: typed), "\(typed.debugDescription)")
        }
    }

    @Test func twentyKilobytesTypedAndPastedIntoTheFinder() throws {
        let map = MapHarness(places: towns)
        try map.press(.character("/"))
        try map.type("pa")
        #expect(map.lines.contains { $0.contains("▸ Paris, France") })
        try map.paste(String(repeating: "ris and more ", count: 1_600))
        #expect(map.lines.contains { $0.contains("No place matches “paris and more ris and more") && $0.contains("…") },
                "\(map.numberedScreen)")
        try map.type("xyz")
        #expect(map.lines.contains { $0.contains("Name: ") && $0.contains("and more xyz") }, "the field shows its end, where the cursor is")
        // Back to a short name, everything is found again.
        try map.press(.control("u"))
        try map.type("sao")
        #expect(map.lines.contains { $0.contains("▸ São Paulo, Brazil") })
    }
}
