import Foundation
import Testing
@testable import BookFront

/// A small book written for these tests: a title page, then three chapters with hard-wrapped
/// CRLF lines, names at line breaks, possessives, longer words that contain a name, and
/// non-ASCII neighbours.
private let fixtureText = [
    "The Garden Book\r\nby nobody; Rabbit and Queen are named here but this is the front matter.\r\n\r\n",
    "CHAPTER I\r\nA white rabbit ran past the gate. The White\r\nRabbit was late, said the RABBIT's friend.\r\n",
    "Nobody else was about: no rabbits, no Rabbitry, only a rabbit-hole.\r\n\r\n",
    "CHAPTER II\r\nThe Queen shouted. The Queen of Hearts shouted louder. Queenly manners!\r\n",
    "A card called Aliceño, another ÉAlice, is not Alice, but “Alice” in quotes and Alice’s shoe are.\r\n",
    "CHAPTER III\r\nThe end, with Queen\tof   Hearts spaced oddly and Alice2 not a name.\r\n",
].joined()

private func fixture(chapters: Bool = true) -> BookDocument {
    let starts = chapters ? ["CHAPTER I\r\n", "CHAPTER II\r\n", "CHAPTER III\r\n"].map { heading in
        BookChapter(title: heading, offset: fixtureText.utf8.count - fixtureText[fixtureText.range(of: heading)!.lowerBound...].utf8.count)
    } : []
    return BookDocument(id: "fixture", title: "The Garden Book", path: nil, format: .plainText, text: BookText(fixtureText), chapters: starts)
}

@Suite("Character appearances")
struct CharacterAppearancesTests {
    @Test func theFixtureChaptersStartAtTheirHeadings() {
        let document = fixture()
        #expect(document.chapters.map { document.text.string($0.offset..<($0.offset + 9)) } == ["CHAPTER I", "CHAPTER I", "CHAPTER I"])
        #expect(document.text.string(document.chapters[1].offset..<(document.chapters[1].offset + 10)) == "CHAPTER II")
    }

    @Test func wholeWordsOnlyCaseInsensitiveAndAcrossLineBreaks() {
        let document = fixture()
        // Chapter I: "white rabbit" (1), "White\r\nRabbit" (2), "RABBIT's" (3), "rabbit-hole" (4);
        // not "rabbits" or "Rabbitry". The front matter's "Rabbit" is not counted.
        #expect(CharacterAppearances.find(names: ["White Rabbit", "Rabbit"], in: document) == [0: 4])
        #expect(CharacterAppearances.find(names: ["White Rabbit"], in: document) == [0: 2])
        #expect(CharacterAppearances.find(names: ["rabbit"], in: document) == [0: 4])
    }

    @Test func overlappingNamesAndAliasesCountOnce() {
        let document = fixture()
        // Chapter II: "The Queen", "The Queen of Hearts" (the alias inside the name counts once);
        // not "Queenly". Chapter III: tabs and runs of spaces between words still match.
        #expect(CharacterAppearances.find(names: ["Queen of Hearts", "Queen"], in: document) == [1: 2, 2: 1])
        #expect(CharacterAppearances.find(names: ["Queen of Hearts"], in: document) == [1: 1, 2: 1])
    }

    @Test func letterNeighboursOutsideASCIIDecideWordsToo() {
        let document = fixture()
        // "Aliceño" and "ÉAlice" are other words; “Alice” and Alice’s are Alice; "Alice2" is not.
        #expect(CharacterAppearances.find(names: ["Alice"], in: document) == [1: 3])
    }

    @Test func noChaptersOrNoNamesFindNothing() {
        #expect(CharacterAppearances.find(names: ["Rabbit"], in: fixture(chapters: false)) == [:])
        #expect(CharacterAppearances.find(names: [], in: fixture()) == [:])
        #expect(CharacterAppearances.find(names: ["  "], in: fixture()) == [:])
        #expect(CharacterAppearances.find(names: ["Gryphon"], in: fixture()) == [:])
    }

    @Test func aMatchAtTheVeryEndOfTheTextIsCounted() {
        let text = "CHAPTER I\nthe Dodo"
        let document = BookDocument(id: "x", title: "x", path: nil, format: .plainText, text: BookText(text), chapters: [BookChapter(title: "I", offset: 0)])
        #expect(CharacterAppearances.find(names: ["Dodo"], in: document) == [0: 1])
    }

    @Test func infoTextSaysWhereOrWhyNot() {
        let character = BookCharacter(id: "dodo", name: "Dodo", aliases: ["the bird"], description: "A bird. It races.", firstChapter: 2)
        #expect(CharacterInfoText.chapterSummary(.found(mentions: [2: 12, 1: 1], chapterCount: 12)) == "Appears in chapters 2 (1 mention), 3 (12 mentions).")
        #expect(CharacterInfoText.chapterSummary(.bookNotInstalled(path: "/x")) == "Chapters: the book is not here (wonderland --book PATH).")
        #expect(CharacterInfoText.chapterSummary(.found(mentions: [:], chapterCount: 0)) == "Chapters: the book has no chapters marked.")
        #expect(CharacterInfoText.chapterSummary(.found(mentions: [:], chapterCount: 3)) == "Chapters: not mentioned by name in the book.")
        let lines = CharacterInfoText.lines(for: character, appearances: .searching, width: 30)
        #expect(lines.map(\.text) == ["Dodo", "First seen in chapter 2 · also", "called the bird", "", "A bird. It races.", "",
                                      "Chapters: searching the book…"])
        #expect(lines[0].kind == .heading)
    }
}

@Suite("Character book search")
struct CharacterBookTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-charbook-\(UUID().uuidString)")
    let catalog = CharacterCatalog(characters: [
        BookCharacter(id: "rabbit", name: "White Rabbit", aliases: ["Rabbit"], description: "d", firstChapter: 1),
        BookCharacter(id: "queen", name: "Queen of Hearts", aliases: ["Queen"], description: "d", firstChapter: 2),
    ])

    @Test func aMissingBookSaysSoAndIsLookedForAgain() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("books/alice29.txt")
        let book = CharacterBook(url: url, catalog: catalog, runsInBackground: false)
        #expect(book.status(for: "rabbit") == .bookNotInstalled(path: url.path))
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(fixtureText.utf8).write(to: url)
        let expected = CharacterAppearances.find(names: ["Queen of Hearts", "Queen"], in: try BookLoader.load(path: url.path))
        let document = try BookLoader.load(path: url.path)
        #expect(book.status(for: "queen") == .found(mentions: expected, chapterCount: document.chapters.count))
    }

    @Test func theBackgroundSearchLeavesItsResultAndWakesTheLoop() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("book.txt")
        try Data(fixtureText.utf8).write(to: url)
        let book = CharacterBook(url: url, catalog: catalog)
        var status = book.status(for: "rabbit")
        // A real thread: a bounded wait for its result, not a timing assertion.
        for _ in 0..<400 where status == .searching {
            usleep(10_000)
            status = book.status(for: "rabbit")
        }
        let document = try BookLoader.load(path: url.path)
        #expect(status == .found(mentions: CharacterAppearances.find(names: ["White Rabbit", "Rabbit"], in: document), chapterCount: document.chapters.count))
        #expect(book.status(for: "nobody") == .found(mentions: [:], chapterCount: document.chapters.count))
    }
}
