import Foundation
import Testing
@testable import BookFront

private let repositoryPlist = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Resources/Characters.plist")

private func plist(_ body: String) -> Data {
    Data("""
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0">
    \(body)
    </plist>
    """.utf8)
}

private func entry(id: String = "dodo", name: String = "Dodo", extra: String = "") -> String {
    "<dict><key>id</key><string>\(id)</string><key>name</key><string>\(name)</string>"
        + "<key>description</key><string>A bird.</string><key>firstChapter</key><integer>2</integer>\(extra)</dict>"
}

private func parseError(_ data: Data) -> String? {
    do {
        _ = try CharacterCatalog.parse(data)
        return nil
    } catch let error as CharacterCatalogError {
        return error.description
    } catch {
        return "unexpected \(error)"
    }
}

@Suite("Character catalog")
struct CharacterCatalogTests {
    @Test func theRealListHasAtLeastFifteenCharactersWithUniqueIDsAndOwnDescriptions() throws {
        let catalog = try CharacterCatalog.parse(Data(contentsOf: repositoryPlist))
        let ids = catalog.characters.map(\.id)
        #expect(ids.count >= 15)
        #expect(Set(ids).count == ids.count)
        for name in ["Alice", "White Rabbit", "Mouse", "Dodo", "Caterpillar", "Duchess", "Cheshire Cat", "Hatter", "March Hare",
                     "Dormouse", "Queen of Hearts", "King of Hearts", "Knave of Hearts", "Gryphon", "Mock Turtle"] {
            #expect(catalog.characters.contains { $0.name == name }, "\(name) is listed")
        }
        for character in catalog.characters {
            #expect((1...12).contains(character.firstChapter), "\(character.id): the book has 12 chapters")
            let sentences = character.description.split(separator: ".").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            #expect((2...4).contains(sentences.count), "\(character.id): 2 to 4 sentences, found \(sentences.count)")
        }
        #expect(catalog.character(id: "cheshire-cat")?.aliases == ["Cheshire Puss", "the Cat"])
        #expect(catalog.character(id: "nobody") == nil)
        // In the order they enter the story.
        #expect(catalog.characters.map(\.firstChapter) == catalog.characters.map(\.firstChapter).sorted())
    }

    @Test func theCompiledInCopyMatchesTheFile() throws {
        let onDisk = try String(contentsOf: repositoryPlist, encoding: .utf8)
        #expect(CharacterCatalog.embeddedPlist == onDisk, "Resources/Characters.plist changed: run scripts/embed-characters")
        #expect(try CharacterCatalog.embedded() == CharacterCatalog.parse(Data(onDisk.utf8)))
    }

    @Test func aValidMinimalListParses() throws {
        let catalog = try CharacterCatalog.parse(plist("<array>\(entry())\(entry(id: "lory", name: "Lory", extra: "<key>aliases</key><array><string>parrot</string></array>"))</array>"))
        #expect(catalog.characters.map(\.id) == ["dodo", "lory"])
        #expect(catalog.characters[0].aliases == [])
        #expect(catalog.characters[1].searchNames == ["Lory", "parrot"])
        #expect(catalog.characters[1].firstChapter == 2)
    }

    @Test(arguments: [
        (Data("not a plist at all".utf8), "Characters.plist: not a readable property list (unknownFormat"),
        (plist("<array><dict><key>id</key></dict></array>"), "Characters.plist: not a readable property list (malformedXML"),
        (plist("<dict/>"), "Characters.plist: the root must be an array of characters, found a dictionary"),
        (plist("<array/>"), "Characters.plist: no characters"),
        (plist("<array><string>Alice</string></array>"), "Characters.plist: item 0: expected a dictionary, found a string"),
        (plist("<array>\(entry(name: ""))</array>"), "Characters.plist: item 0 (dodo): name is empty"),
        (plist("<array><dict><key>name</key><string>X</string></dict></array>"), "Characters.plist: item 0: id is missing"),
        (plist("<array>\(entry())\(entry())</array>"), "Characters.plist: item 1: id \"dodo\" is used twice"),
        (plist("<array>\(entry(extra: "<key>aliases</key><string>Bird</string>"))</array>"),
         "Characters.plist: item 0 (dodo): aliases must be an array of strings, found a string"),
        (plist("<array>\(entry(extra: "<key>aliases</key><array><integer>1</integer></array>"))</array>"),
         "Characters.plist: item 0 (dodo): aliases must be non-empty strings, found an integer"),
    ])
    func malformedListsGiveClearErrors(_ data: Data, _ expected: String) {
        let message = parseError(data)
        #expect(message?.hasPrefix(expected) == true, "got \(message ?? "no error")")
    }

    @Test func firstChapterMustBeAPositiveInteger() {
        let text = "<array><dict><key>id</key><string>a</string><key>name</key><string>A</string><key>description</key><string>d</string>"
        #expect(parseError(plist(text + "<key>firstChapter</key><string>3</string></dict></array>"))
                == "Characters.plist: item 0 (a): firstChapter must be an integer, found a string")
        #expect(parseError(plist(text + "<key>firstChapter</key><integer>0</integer></dict></array>"))
                == "Characters.plist: item 0 (a): firstChapter 0 is not a chapter number")
        #expect(parseError(plist(text + "</dict></array>")) == "Characters.plist: item 0 (a): firstChapter is missing")
    }

    @Test func locatingTheFileLikeTheSettingsBundle() throws {
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("wl-characters-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: temporary) }
        let checkout = temporary.appendingPathComponent("repo")
        let install = temporary.appendingPathComponent("prefix")
        for file in [checkout.appendingPathComponent("Resources/Characters.plist"), install.appendingPathComponent("share/wonderland/Characters.plist")] {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try plist("<array>\(entry())</array>").write(to: file)
        }
        let debugBinary = checkout.appendingPathComponent(".build/debug/wonderland").path
        #expect(CharacterCatalog.locateFile(environment: [:], executablePath: debugBinary)?.standardizedFileURL.path
                == checkout.appendingPathComponent("Resources/Characters.plist").standardizedFileURL.path)
        #expect(try CharacterCatalog.standard(environment: [:], executablePath: debugBinary).characters.map(\.id) == ["dodo"])
        #expect(CharacterCatalog.locateFile(environment: [:], executablePath: install.appendingPathComponent("bin/wonderland").path)?.standardizedFileURL.path
                == install.appendingPathComponent("share/wonderland/Characters.plist").standardizedFileURL.path)
        // The variable wins, and a missing file there is an error, not another copy.
        let elsewhere = temporary.appendingPathComponent("elsewhere")
        #expect(throws: CharacterCatalogError.self) { try CharacterCatalog.standard(environment: ["WONDERLAND_RESOURCES": elsewhere.path], executablePath: debugBinary) }
        // A malformed file on disk says which file.
        try Data("<plist><array>".utf8).write(to: checkout.appendingPathComponent("Resources/Characters.plist"))
        do {
            _ = try CharacterCatalog.standard(environment: [:], executablePath: debugBinary)
            Issue.record("a malformed file loaded")
        } catch let error as CharacterCatalogError {
            #expect(error.source.hasSuffix("repo/Resources/Characters.plist"))
        }
        // Nothing on disk: the compiled-in copy.
        let lonely = temporary.appendingPathComponent("bin/wonderland").path
        #expect(CharacterCatalog.locateFile(environment: [:], executablePath: lonely) == nil)
        #expect(try CharacterCatalog.standard(environment: [:], executablePath: lonely) == CharacterCatalog.embedded())
    }
}
