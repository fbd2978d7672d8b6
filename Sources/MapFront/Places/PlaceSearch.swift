@_spi(_Unicode) import Swift
import FoundationEssentials
import Platform

/// Finds populated places by name, the way a person types them: case and accents do not
/// matter ("sao paulo" finds São Paulo, "zurich" Zürich), whole-name and prefix matches come
/// before matches inside a name, and among equals the bigger place wins.
public struct PlaceSearch: Sendable {
    /// How good a match is; lower sorts first.
    public enum Tier: Int, Comparable, Sendable {
        case exact = 0, prefix, wordPrefix, substring
        public static func < (a: Tier, b: Tier) -> Bool { a.rawValue < b.rawValue }
    }

    public struct Match: Hashable, Sendable {
        public var place: Place
        public var tier: Tier
    }

    private struct Entry: Sendable {
        var place: Place
        /// The folded name and, when it differs, the folded ASCII name.
        var keys: [String]
    }

    private let entries: [Entry]
    public var count: Int { entries.count }

    /// Folds every name once, so each keystroke only compares.
    public init(places: [Place]) {
        entries = places.map { place in
            var keys = [Self.fold(place.name)]
            if let ascii = place.asciiName.map(Self.fold), !ascii.isEmpty, ascii != keys[0] { keys.append(ascii) }
            return Entry(place: place, keys: keys)
        }
    }

    /// The best `limit` matches for `query`, best first; empty for a blank query.
    public func matches(for query: String, limit: Int = 50) -> [Match] {
        let needle = Self.fold(query).trimmingSpaces()
        guard !needle.isEmpty, limit > 0 else { return [] }
        var found: [Match] = []
        for entry in entries {
            if let tier = entry.keys.compactMap({ Self.tier(of: needle, in: $0) }).min() {
                found.append(Match(place: entry.place, tier: tier))
            }
        }
        found.sort { a, b in
            if a.tier != b.tier { return a.tier < b.tier }
            if a.place.population != b.place.population { return a.place.population > b.place.population }
            return a.place.name < b.place.name  // a stable order for places of equal size
        }
        return Array(found.prefix(limit))
    }

    static func tier(of needle: String, in key: String) -> Tier? {
        if key == needle { return .exact }
        if key.hasPrefix(needle) { return .prefix }
        guard var range = key.firstRange(of: needle) else { return nil }
        // Any occurrence that starts a later word: "york" in "new york", "paulo" in "sao paulo".
        while true {
            let before = key[key.index(before: range.lowerBound)]
            if !(before.isLetter || before.isNumber) { return .wordPrefix }
            guard let later = key[key.index(after: range.lowerBound)...].firstRange(of: needle) else { return .substring }
            range = later
        }
    }

    /// Lower case, without accents, with the letters that carry no accent to strip spelled as
    /// a keyboard would ("ß" as "ss", "ø" as "o", "ł" as "l").
    public static func fold(_ text: String) -> String {
        var folded = String.UnicodeScalarView()
        // The standard library's canonical decomposition (NFD), the one Foundation's
        // decomposedStringWithCanonicalMapping gives, without loading Foundation for it.
        for scalar in text.lowercased()._nfd {
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark: continue
            default: break
            }
            if let spelled = spelledLetters[scalar] { folded.append(contentsOf: spelled.unicodeScalars) } else { folded.append(scalar) }
        }
        return String(folded)
    }

    private static let spelledLetters: [Unicode.Scalar: String] = [
        "ß": "ss", "ø": "o", "đ": "d", "ð": "d", "ł": "l", "æ": "ae", "œ": "oe", "ı": "i", "þ": "th", "ħ": "h",
        "’": "'", "‘": "'",
    ]
}
