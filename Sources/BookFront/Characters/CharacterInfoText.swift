import Terminal

/// The reading half of a character's detail as lines of text for a given width: who they are,
/// and where the book mentions them. Pure, so it is tested without a screen.
public enum CharacterInfoText {
    public struct Line: Equatable, Sendable {
        public enum Kind: Equatable, Sendable { case heading, body, note }
        public var text: String
        public var kind: Kind
        public init(_ text: String, _ kind: Kind = .body) {
            self.text = text
            self.kind = kind
        }
    }

    public static func lines(for character: BookCharacter, appearances: AppearanceStatus, width: Int) -> [Line] {
        let width = max(10, width)
        var lines = [Line(character.name, .heading)]
        var facts = "First seen in chapter \(character.firstChapter)"
        if !character.aliases.isEmpty { facts += " · also called " + character.aliases.joined(separator: ", ") }
        lines += DisplayWidth.wrap(facts, to: width).map { Line($0, .note) }
        lines.append(Line(""))
        lines += DisplayWidth.wrap(character.description, to: width).map { Line($0) }
        lines.append(Line(""))
        lines += DisplayWidth.wrap(chapterSummary(appearances), to: width).map { Line($0, .note) }
        return lines
    }

    /// One sentence on where the character appears, or why that is not known.
    public static func chapterSummary(_ appearances: AppearanceStatus) -> String {
        switch appearances {
        case .bookNotInstalled:
            return "Chapters: the book is not here (wonderland --book PATH)."
        case .searching:
            return "Chapters: searching the book…"
        case .unreadable(let reason):
            return "Chapters: the book could not be read (\(reason))."
        case .found(_, let chapterCount) where chapterCount == 0:
            return "Chapters: the book has no chapters marked."
        case .found(let mentions, _) where mentions.isEmpty:
            return "Chapters: not mentioned by name in the book."
        case .found(let mentions, _):
            let listed = mentions.keys.sorted().map { "\($0 + 1) (\(mentions[$0]!) \(mentions[$0]! == 1 ? "mention" : "mentions"))" }.joined(separator: ", ")
            return "Appears in chapters \(listed)."
        }
    }
}
