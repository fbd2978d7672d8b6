@testable import BookFront
import Foundation
import Testing

/// The book-index folder is a cache of `keptIndexes` files, and an index moved aside as damaged
/// is one of them: a book that keeps damaging its index cannot grow the folder past the cap.
@Suite("Book index folder: the cap")
struct BookIndexPruneTests {
    final class Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("wl-bookindex-\(UUID().uuidString)")
        var store: BookIndexStore { BookIndexStore(folder: url) }
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: url) }
        var names: Set<String> { Set((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []) }

        /// A file named `name`, last written `age` seconds before 2027-01-15.
        func write(_ name: String, age: TimeInterval) throws {
            let file = url.appendingPathComponent(name)
            try Data("index".utf8).write(to: file)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_800_000_000 - age)], ofItemAtPath: file.path)
        }
    }

    static let cap = BookIndexStore.keptIndexes

    @Test("damaged copies count within the cap and go first, oldest first")
    func damagedCountAndGoFirst() throws {
        let folder = try Folder()
        for number in 0 ..< Self.cap - 2 { try folder.write("1-\(String(number, radix: 16)).bookindex", age: TimeInterval(1000 - number)) }
        let damaged = ["2-a.bookindex.corrupt-20260101T000000Z", "2-b.bookindex.corrupt-20260201T000000Z",
                       "2-c.bookindex.corrupt-20260301T000000Z", "2-d.bookindex.corrupt-20260401T000000Z"]
        for name in damaged { try folder.write(name, age: 0) }
        folder.store.prune()
        #expect(folder.names.count == Self.cap)
        #expect(!folder.names.contains(damaged[0]) && !folder.names.contains(damaged[1]))
        #expect(folder.names.contains(damaged[2]) && folder.names.contains(damaged[3]))
        #expect(folder.names.contains("1-0.bookindex"), "no index goes while a damaged copy is there to go")
    }

    @Test("past the damaged copies, the least recently written indexes go")
    func oldestIndexesNext() throws {
        let folder = try Folder()
        for number in 0 ..< Self.cap + 3 { try folder.write("1-\(String(number, radix: 16)).bookindex", age: TimeInterval(1000 - number)) }
        try folder.write("2-a.bookindex.corrupt-20260101T000000Z", age: 5000)
        folder.store.prune()
        #expect(folder.names.count == Self.cap)
        #expect(!folder.names.contains("2-a.bookindex.corrupt-20260101T000000Z"))
        for number in 0 ..< 3 { #expect(!folder.names.contains("1-\(String(number, radix: 16)).bookindex")) }
        #expect(folder.names.contains("1-3.bookindex"))
    }

    @Test("only the store's names go: other files, a folder and what a link names are left")
    func strictNames() throws {
        let folder = try Folder()
        let outside = try Folder()
        let target = outside.url.appendingPathComponent("book.txt")
        try Data("a book".utf8).write(to: target)
        for number in 0 ..< Self.cap + 1 { try folder.write("1-\(String(number, radix: 16)).bookindex", age: TimeInterval(1000 - number)) }
        let strangers = ["notes.bookindex", "1-2-3.bookindex", "readme.txt", "1-x.bookindex.corrupt-20200101T000000Z"]
        for name in strangers { try folder.write(name, age: 100_000) }
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("a-b.bookindex"), withIntermediateDirectories: true)
        // The oldest index is a link: it goes as itself.
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("1-0.bookindex"))
        let link = folder.url.appendingPathComponent("1-0.bookindex").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target.path)
        var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, link, &times, AT_SYMLINK_NOFOLLOW) == 0)
        folder.store.prune()
        #expect(folder.names.isSuperset(of: strangers + ["a-b.bookindex"]))
        #expect(!folder.names.contains("1-0.bookindex"))
        #expect(try Data(contentsOf: target) == Data("a book".utf8))
        #expect(folder.names.filter { $0.hasPrefix("1-") && BookIndexStore.isIndexName($0) }.count == Self.cap)
    }

    @Test("store names", arguments: [("803-1a2b.bookindex", true), ("0-0.bookindex", true), ("803.bookindex", false),
                                     ("-1.bookindex", false), ("803-1a2b.bookindex.tmp", false), (".803-1.bookindex", false)])
    func indexNames(_ name: String, _ isIndex: Bool) {
        #expect(BookIndexStore.isIndexName(name) == isIndex)
    }
}
