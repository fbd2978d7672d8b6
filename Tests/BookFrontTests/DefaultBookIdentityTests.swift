import Defaults
import Foundation
import Screens
import ScreensTesting
import Terminal
import Testing
@testable import BookFront

/// The Characters tab finds its chapters in a book opened with `--book` when that book is the
/// default one, byte for byte, and the data folder has none.
@Suite("The default book, wherever it is")
struct DefaultBookIdentityTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-default-book-\(UUID().uuidString)")

    @Test func sha256GivesTheStandardDigests() {
        #expect(SHA256.hex(of: Array("".utf8)) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(of: Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex(of: [UInt8](repeating: 0x61, count: 1_000_000)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    private func write(_ text: String, at relative: String) throws -> String {
        let url = folder.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    private static let alice = "CHAPTER I.\n\nDown the Rabbit-Hole. Alice was beginning to get very tired.\n\nCHAPTER II.\n\nThe Pool of Tears, and the White Rabbit again.\n"

    @Test func aBookGivenToTheAppIsTheDefaultOneOnlyByItsBytes() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let given = try write(Self.alice, at: "elsewhere/my alice.txt")
        let digest = SHA256.hex(of: Array(Self.alice.utf8))
        let data = folder.appendingPathComponent("data").path
        let installed = BookLibrary.defaultBookPath(dataFolderPath: data)
        #expect(BookLibrary.charactersBookPath(dataFolderPath: data, openBook: given, sha256: digest) == given)
        #expect(BookLibrary.charactersBookPath(dataFolderPath: data, openBook: given) == installed, "another text: the default's place")
        #expect(BookLibrary.charactersBookPath(dataFolderPath: data, openBook: nil, sha256: digest) == installed)
        let other = try write(Self.alice + "\n", at: "elsewhere/edited.txt")
        #expect(BookLibrary.charactersBookPath(dataFolderPath: data, openBook: other, sha256: digest) == installed, "one byte more is another book")
        // Installed where the data folder keeps it, the default book is searched.
        _ = try write(Self.alice, at: "data/books/alice29.txt")
        #expect(BookLibrary.charactersBookPath(dataFolderPath: data, openBook: given, sha256: digest) == installed)
    }

    @Test func theCharacterPageShowsChaptersFromTheBookGivenToTheApp() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let given = try write(Self.alice, at: "elsewhere/alice.txt")
        let rabbit = BookCharacter(id: "white-rabbit", name: "White Rabbit", aliases: ["Rabbit"], description: "Late.", firstChapter: 1)
        func page(sha256: String) throws -> Pilot {
            let context = CharactersContext.standard(store: InMemoryPreferenceStore(), dataFolderPath: folder.appendingPathComponent("data").path,
                                                     openBook: given, defaultBookSHA256: sha256)
            context.book.startInBackground = { $0() }
            let navigation = CharacterListScreen.makeNavigation(context: context)
            navigation.push(CharacterDetailScreen(character: rabbit, context: context))
            return Pilot(navigation, columns: 80, rows: 20)
        }
        let found = try page(sha256: SHA256.hex(of: Array(Self.alice.utf8)))
        try found.send(.wake)
        found.expectScreen(contains: "Appears in chapters 1 (1 mention), 2 (1 mention).")
        let other = try page(sha256: BookLibrary.defaultBookSHA256)
        other.expectScreen(contains: "Chapters: the book is not here (wonderland --book PATH).")
    }

    @Test func aCopyOfTheBookOpenedLaterIsTakenWhileTheBookIsMissing() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = try write(Self.alice, at: "elsewhere/opened with o.txt")
        let another = try write("CHAPTER I.\n\nSomething else entirely.\n", at: "elsewhere/other.txt")
        let rabbit = BookCharacter(id: "white-rabbit", name: "White Rabbit", aliases: ["Rabbit"], description: "Late.", firstChapter: 1)
        let context = CharactersContext.standard(store: InMemoryPreferenceStore(), dataFolderPath: folder.appendingPathComponent("data").path)
        var open: String?
        var looks = 0
        context.alsoLookIn = DefaultBookCopy(sha256: SHA256.hex(of: Array(Self.alice.utf8))) { looks += 1; return open }.find
        context.book.startInBackground = { $0() }
        let navigation = CharacterListScreen.makeNavigation(context: context)
        navigation.push(CharacterDetailScreen(character: rabbit, context: context))
        let pilot = Pilot(navigation, columns: 80, rows: 20)
        pilot.expectScreen(contains: "Chapters: the book is not here")
        open = another  // another book open: still not here
        try pilot.send(.wake)
        pilot.expectScreen(contains: "Chapters: the book is not here")
        open = copy  // the same book opened in the Book tab: its chapters
        try pilot.send(.wake)
        pilot.expectScreen(contains: "Appears in chapters 1 (1 mention), 2 (1 mention).")
        #expect(context.book.path == copy)
        // Once searched, the page keeps its book, whatever is opened next.
        open = another
        try pilot.send(.wake)
        #expect(context.book.path == copy)
        #expect(looks >= 2)
    }

    @Test func theReaderSaysWhichBookItShowsOrWillReopen() throws {
        let books = ["/tide": ReaderFixture.document(path: "/tide")]
        let given = ReaderHarness(books: books, bookPath: "/tide")
        #expect(given.reader.bookPath == "/tide")
        let none = ReaderHarness()
        #expect(none.reader.bookPath == nil)
    }
}
