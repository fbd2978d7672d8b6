import Foundation

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
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines.union(["\u{FEFF}"])) }

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
            let title = line.dropFirst("Title:".count).trimmingCharacters(in: .whitespaces)
            return title.isEmpty ? nil : displayed(title)
        }
        guard let range = line.range(of: "Project Gutenberg eBook of ", options: .caseInsensitive)
                ?? line.range(of: "Project Gutenberg EBook of ", options: .caseInsensitive) else { return nil }
        var title = String(line[range.upperBound...])
        if let by = title.range(of: ", by ") { title = String(title[..<by.lowerBound]) }
        title = title.trimmingCharacters(in: .whitespaces)
        return title.isEmpty ? nil : displayed(title)
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
