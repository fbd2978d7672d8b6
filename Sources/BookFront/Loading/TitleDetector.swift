import FoundationEssentials
import Platform
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain-text book's title, from its first lines: a Project Gutenberg header ("Title: …",
/// "The Project Gutenberg eBook of …, by …") or a short first line standing alone (Alice's
/// "ALICE'S ADVENTURES IN WONDERLAND", shown as "Alice's Adventures in Wonderland").
enum TitleDetector {
    static let headSize = 16 * 1024

    static func title(of text: BookText, before firstChapter: Int?) -> String? {
        let limit = min(text.count, headSize, firstChapter ?? Int.max)
        let head = text.string(0..<limit)
        // "\r\n" is one Character in Swift, so split on any line break, not on "\n".
        let lines = head.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .map { $0.trimming { $0.isWhitespace || $0 == "\u{FEFF}" } }

        for line in lines {
            if let title = gutenbergTitle(line) { return title }
        }
        guard let index = lines.firstIndex(where: { !$0.isEmpty }) else { return nil }
        let line = lines[index]
        let followedByBlank = index + 1 >= lines.count || lines[index + 1].isEmpty
        guard followedByBlank, looksLikeTitle(line) else { return nil }
        return displayed(line)
    }

    private static func gutenbergTitle(_ line: String) -> String? {
        if line.hasPrefix("Title:") {
            let title = line.dropFirst("Title:".count).trimmingSpaces()
            return title.isEmpty ? nil : displayed(title)
        }
        guard let range = rangeIgnoringCase(of: "Project Gutenberg eBook of ", in: line) else { return nil }
        var title = String(line[range.upperBound...])
        if let by = title.firstRange(of: ", by ") { title = String(title[..<by.lowerBound]) }
        title = title.trimmingSpaces()
        return title.isEmpty ? nil : displayed(title)
    }

    /// The first place `needle` stands in `line`, letters compared by their lower case.
    static func rangeIgnoringCase(of needle: String, in line: String) -> Range<String.Index>? {
        let wanted = needle.map { $0.lowercased() }
        var start = line.startIndex
        while start < line.endIndex {
            var index = start, matched = 0
            while matched < wanted.count, index < line.endIndex, line[index].lowercased() == wanted[matched] {
                index = line.index(after: index)
                matched += 1
            }
            if matched == wanted.count { return start..<index }
            start = line.index(after: start)
        }
        return nil
    }

    private static func looksLikeTitle(_ line: String) -> Bool {
        guard line.count >= 2, line.count <= 80, line.contains(where: \.isLetter) else { return false }
        guard line.split(separator: " ").count <= 12 else { return false }
        guard let last = line.last, !".,;:".contains(last) else { return false }
        return line.withCString { pointer in
            HeadingPattern.match(UnsafeRawBufferPointer(start: pointer, count: strlen(pointer))) == nil
        }
    }

    /// Shouted titles are shown in title case; anything already mixed-case is kept as written.
    static func displayed(_ title: String) -> String {
        let letters = title.filter(\.isLetter)
        guard !letters.isEmpty, letters == letters.uppercased() else { return title }
        return titleCased(title)
    }

    private static let smallWords: Set<String> = [
        "a", "an", "and", "as", "at", "but", "by", "for", "from", "in", "into", "nor", "of", "on", "or", "the", "to", "with",
    ]

    static func titleCased(_ title: String) -> String {
        let words = title.split(separator: " ", omittingEmptySubsequences: false)
        return words.enumerated().map { index, word in
            let lower = word.lowercased()
            if index > 0, index < words.count - 1, smallWords.contains(lower) { return lower }
            if word.count > 1, word.allSatisfy({ "IVX".contains($0) }) { return String(word) }  // "PART II"
            // Capitalize each hyphenated part; letters after an apostrophe stay small ("Alice's").
            return lower.split(separator: "-", omittingEmptySubsequences: false).map { part in
                guard let first = part.first else { return "" }
                return first.uppercased() + part.dropFirst()
            }.joined(separator: "-")
        }.joined(separator: " ")
    }
}
