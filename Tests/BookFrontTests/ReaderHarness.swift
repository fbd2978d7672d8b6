import Defaults
import Foundation
@testable import BookFront
import Screens
import ScreensTesting
import Terminal

/// One reader in an `Application` on a headless terminal, driven a key at a time.
final class ReaderHarness: Pilot {
    let reader: ReaderScreen
    let store: PreferenceStore

    /// `books` are what the loader finds by path; any other path fails as a missing file would.
    /// `load`, when given, opens books instead of `books`; `wake` is what the reader's wake-ups do.
    init(books: [String: BookDocument] = [:], bookPath: String? = nil, store: PreferenceStore = InMemoryPreferenceStore(),
         columns: Int = 60, rows: Int = 16, dataFolder: URL = URL(fileURLWithPath: "/nonexistent-wl-data"),
         prepare: (ReaderScreen) -> Void = { _ in },
         load: ((String) throws -> BookDocument)? = nil, wake: @escaping @Sendable () -> Void = {}) {
        self.store = store
        let environment = ReaderEnvironment(store: store, dataFolderPath: dataFolder.path, bookPath: bookPath, load: load ?? { path in
            guard let book = books[path] else { throw BookLoadError(path: path, reason: "no such file") }
            return book
        }, wake: wake)
        let reader = ReaderScreen(environment: environment)
        prepare(reader)
        self.reader = reader
        super.init(reader, columns: columns, rows: rows, minimumSize: Size(columns: 20, rows: 6))
    }

    /// Waits (bounded) for the background page count, then delivers the wake-up.
    func waitForPageCount() throws {
        for _ in 0..<400 where reader.pageNumber == nil {
            usleep(5_000)
            try send(.wake)
        }
    }

    /// The page text: the rows between the title row and the progress row (the hint bar is last).
    var page: [String] { Array(lines.dropLast(2).dropFirst()).map { $0.trimmingCharacters(in: .whitespaces) } }
    var progress: String { lines[lines.count - 2] }
    var topLine: String { page.first ?? "" }
}
