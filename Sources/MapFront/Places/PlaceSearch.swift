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
    /// The longest folded name, in UTF-8 bytes: a needle longer than this is in no name.
    private let longestKey: Int
    public var count: Int { entries.count }

    /// What one search found, kept by the screen typing into it: when the next needle holds this
    /// one, only the places found here can match it, so a letter typed looks among those alone.
    public struct Found: Sendable {
        fileprivate let needle: String
        /// Every entry that matched, not only the best `limit`.
        fileprivate let entries: [Int]
    }

    /// Folds every name once, so each keystroke only compares.
    public init(places: [Place]) {
        entries = places.map { place in
            var keys = [Self.fold(place.name)]
            if let ascii = place.asciiName.map(Self.fold), !ascii.isEmpty, ascii != keys[0] { keys.append(ascii) }
            return Entry(place: place, keys: keys)
        }
        longestKey = entries.lazy.flatMap(\.keys).map(\.utf8.count).max() ?? 0
    }

    /// The best `limit` matches for `query`, best first; empty for a blank query.
    public func matches(for query: String, limit: Int = 50) -> [Match] {
        var found: Found?
        return matches(for: query, limit: limit, narrowing: &found)
    }

    /// The best `limit` matches for the typed `query`, best first; empty for a blank query or
    /// one longer than every name. What it costs is bounded by the names, not by the text: a
    /// 20 KB paste is folded only as far as the longest name reaches, and answers at once.
    ///
    /// - Parameters:
    ///   - query: The text as typed (a field's characters or a string).
    ///   - limit: How many matches to give.
    ///   - previous: What the last search of the same field found; when the new needle holds
    ///     the old one only those places are compared. Left with what this search found.
    public func matches<Query: BidirectionalCollection>(for query: Query, limit: Int = 50, narrowing previous: inout Found?) -> [Match]
    where Query.Element == Character {
        guard let needle = needle(of: query), limit > 0 else {
            previous = nil
            return []
        }
        let candidates: [Int]
        if let previous, needle.contains(previous.needle) { candidates = previous.entries } else { candidates = Array(entries.indices) }
        var found: [Match] = []
        var matched: [Int] = []
        for index in candidates {
            let entry = entries[index]
            if let tier = entry.keys.compactMap({ Self.tier(of: needle, in: $0) }).min() {
                found.append(Match(place: entry.place, tier: tier))
                matched.append(index)
            }
        }
        previous = Found(needle: needle, entries: matched)
        found.sort { a, b in
            if a.tier != b.tier { return a.tier < b.tier }
            if a.place.population != b.place.population { return a.place.population > b.place.population }
            return a.place.name < b.place.name  // a stable order for places of equal size
        }
        return Array(found.prefix(limit))
    }

    /// The folded, trimmed needle for `query`; nil when it is blank or longer than every name.
    /// Only as much of the query is folded as the longest name could hold (folding never
    /// shortens a letter to nothing, only a mark, so a longer fold cannot come back within it).
    func needle<Query: BidirectionalCollection>(of query: Query) -> String? where Query.Element == Character {
        let isSpace = { (character: Character) in character.unicodeScalars.allSatisfy(Self.isTrimmed) }
        guard let first = query.firstIndex(where: { !isSpace($0) }), let last = query.lastIndex(where: { !isSpace($0) }) else { return nil }
        let trimmed = query[first...last]
        let end = trimmed.index(trimmed.startIndex, offsetBy: longestKey + 1, limitedBy: trimmed.endIndex) ?? trimmed.endIndex
        var needle = Self.fold(String(trimmed[..<end])).trimmingSpaces()
        guard needle.utf8.count <= longestKey else { return nil }
        if end != trimmed.endIndex {
            // What was folded shrank to within a name: it held marks that fold away. Rare; the
            // rest is folded too.
            needle = Self.fold(String(trimmed)).trimmingSpaces()
            guard needle.utf8.count <= longestKey else { return nil }
        }
        return needle.isEmpty ? nil : needle
    }

    /// What `trimmingSpaces` takes off a query's ends.
    private static func isTrimmed(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\t" || scalar == "\u{200B}" || scalar.properties.generalCategory == .spaceSeparator
    }

    static func tier(of needle: String, in key: String) -> Tier? {
        guard needle.utf8.count <= key.utf8.count else { return nil }
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
