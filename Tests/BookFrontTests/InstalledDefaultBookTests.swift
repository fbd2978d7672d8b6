import Foundation
import Testing
@testable import BookFront

/// An install (scripts/install, the Debian package) puts the default book among its resources;
/// the user's own copy in the data folder comes first.
@Suite("The default book an install carries")
struct InstalledDefaultBookTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wl-installed-book-\(UUID().uuidString)")

    private func write(_ text: String, at relative: String) throws -> String {
        let url = folder.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    @Test func theUsersCopyComesFirstThenTheInstallsThenTheUsersPlace() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data").path
        let resources = folder.appendingPathComponent("share").path
        let environment = ["WONDERLAND_RESOURCES": resources]
        let own = BookLibrary.defaultBookPath(dataFolderPath: data)

        #expect(BookLibrary.installedDefaultBookPath(dataFolderPath: data, environment: environment) == own, "neither: the user's place")
        let installed = try write("CHAPTER I.\n", at: "share/books/alice29.txt")
        #expect(BookLibrary.installedDefaultBookPath(dataFolderPath: data, environment: environment) == installed)
        #expect(BookLibrary.charactersBookPath(dataFolderPath: data, openBook: nil, environment: environment) == installed)
        _ = try write("CHAPTER I.\n", at: "data/books/alice29.txt")
        #expect(BookLibrary.installedDefaultBookPath(dataFolderPath: data, environment: environment) == own)
    }
}
