import BookFront
import Foundation

/// What both EPUB fuzz targets share: a RAM folder to hand the loader a path (it reads books
/// from files, as the app does), and the oracle on its answer.
public enum BookCheck {
    /// One folder per process, in /dev/shm when there is one, so inputs never touch the disk.
    public static let folder: URL = {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let url = URL(fileURLWithPath: base).appendingPathComponent("wonderland-fuzz-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// Set FUZZ_VERBOSE=1 to see each input's outcome (to check the seeds reach a whole book).
    static let verbose = ProcessInfo.processInfo.environment["FUZZ_VERBOSE"] != nil

    /// Loads `data` as a .epub: it must give a sane book or a BookLoadError, nothing else.
    public static func loadEPUB(_ data: Data) {
        let url = folder.appendingPathComponent("book.epub")
        do { try data.write(to: url) } catch { fatalError("cannot write the input to \(url.path): \(error)") }
        do {
            let book = try BookLoader.load(path: url.path)
            check(book)
            if verbose { FileHandle.standardError.write(Data("book: \(book.title), \(book.text.count) bytes, \(book.chapters.count) chapters, notes \(book.notes)\n".utf8)) }
        } catch let error as BookLoadError {
            precondition(!error.reason.isEmpty, "a BookLoadError without a reason")
            if verbose { FileHandle.standardError.write(Data("error: \(error.reason)\n".utf8)) }
        } catch {
            fatalError("not a BookLoadError: \(error)")
        }
    }

    static func check(_ book: BookDocument) {
        let count = book.text.count
        precondition(count > 0, "an accepted book without text")
        for chapter in book.chapters {
            precondition(chapter.offset >= 0 && chapter.offset <= count, "chapter offset outside the text")
            _ = book.chapterIndex(containing: chapter.offset)
        }
        for emphasis in book.emphasis {
            precondition(emphasis.range.lowerBound >= 0 && emphasis.range.upperBound <= count, "emphasis outside the text")
        }
        _ = book.text.string(0..<min(count, 256))
    }
}
