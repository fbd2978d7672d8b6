import FoundationEssentials
import Platform
import PropertyList

/// One person (or animal, or playing card) of the book, as Resources/Characters.plist lists it.
public struct BookCharacter: Hashable, Sendable {
    public var id: String
    public var name: String
    /// Other names the text uses for the character ("Rabbit" for the White Rabbit); the name
    /// and these are what the appearance search looks for.
    public var aliases: [String]
    /// Written by this project's team, not taken from the book.
    public var description: String
    /// The chapter (1-based) the character first takes part in.
    public var firstChapter: Int

    public init(id: String, name: String, aliases: [String] = [], description: String, firstChapter: Int) {
        self.id = id
        self.name = name
        self.aliases = aliases
        self.description = description
        self.firstChapter = firstChapter
    }

    /// Every name the text may use, the proper name first.
    public var searchNames: [String] { [name] + aliases }
}

/// Why the character list could not be read, naming the file and the item.
public struct CharacterCatalogError: Error, CustomStringConvertible, Equatable, Sendable {
    public var source: String
    public var message: String

    public init(source: String, message: String) {
        self.source = source
        self.message = message
    }

    public var description: String { "\(source): \(message)" }
}

/// The characters of the book, in the plist's order (the order they enter the story).
public struct CharacterCatalog: Equatable, Sendable {
    public let characters: [BookCharacter]
    private let positions: [String: Int]

    public init(characters: [BookCharacter]) {
        self.characters = characters
        positions = Dictionary(characters.enumerated().map { ($1.id, $0) }) { first, _ in first }
    }

    public func character(id: String) -> BookCharacter? { positions[id].map { characters[$0] } }

    /// Reads the plist: an array of dictionaries with id, name, aliases (optional), description
    /// and firstChapter. Any problem is an error naming the item; nothing is half-loaded.
    public static func parse(_ data: Data, source: String = "Characters.plist") throws -> CharacterCatalog {
        let root: PropertyListValue
        do { root = try PropertyListReader.value(from: data) } catch {
            throw CharacterCatalogError(source: source, message: "not a readable property list (\(error))")
        }
        guard case .array(let items) = root else {
            throw CharacterCatalogError(source: source, message: "the root must be an array of characters, found \(root.kindDescription)")
        }
        var characters: [BookCharacter] = []
        var seen: Set<String> = []
        for (index, item) in items.enumerated() {
            let character = try parseItem(item, index: index, source: source)
            guard seen.insert(character.id).inserted else {
                throw CharacterCatalogError(source: source, message: "item \(index): id \"\(character.id)\" is used twice")
            }
            characters.append(character)
        }
        guard !characters.isEmpty else { throw CharacterCatalogError(source: source, message: "no characters") }
        return CharacterCatalog(characters: characters)
    }

    private static func parseItem(_ item: PropertyListValue, index: Int, source: String) throws -> BookCharacter {
        guard case .dictionary(let fields) = item else {
            throw CharacterCatalogError(source: source, message: "item \(index): expected a dictionary, found \(item.kindDescription)")
        }
        let label = fields["id"].flatMap { if case .string(let id) = $0 { "item \(index) (\(id))" } else { nil } } ?? "item \(index)"
        func fail(_ message: String) -> CharacterCatalogError { CharacterCatalogError(source: source, message: "\(label): \(message)") }
        func text(_ key: String) throws -> String {
            guard let value = fields[key] else { throw fail("\(key) is missing") }
            guard case .string(let string) = value else { throw fail("\(key) must be a string, found \(value.kindDescription)") }
            guard !string.trimmingWhitespace().isEmpty else { throw fail("\(key) is empty") }
            return string
        }
        let id = try text("id")
        let name = try text("name")
        let description = try text("description")
        var aliases: [String] = []
        switch fields["aliases"] {
        case nil: break
        case .array(let values)?:
            for value in values {
                guard case .string(let alias) = value, !alias.trimmingSpaces().isEmpty else {
                    throw fail("aliases must be non-empty strings, found \(value.kindDescription)")
                }
                aliases.append(alias)
            }
        case let other?: throw fail("aliases must be an array of strings, found \(other.kindDescription)")
        }
        guard let chapterValue = fields["firstChapter"] else { throw fail("firstChapter is missing") }
        guard case .integer(let chapter) = chapterValue else { throw fail("firstChapter must be an integer, found \(chapterValue.kindDescription)") }
        guard chapter >= 1, chapter <= 1000 else { throw fail("firstChapter \(chapter) is not a chapter number") }
        return BookCharacter(id: id, name: name, aliases: aliases, description: description, firstChapter: Int(chapter))
    }
}
