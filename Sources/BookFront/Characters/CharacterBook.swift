import Foundation
import Terminal

/// What the detail screen can say about where a character appears.
public enum AppearanceStatus: Equatable, Sendable {
    /// The book file is not there: the set-up has not fetched it.
    case bookNotInstalled(path: String)
    case searching
    case unreadable(String)
    /// Mentions per chapter index; `chapterCount` 0 means the book has no chapters marked.
    case found(mentions: [Int: Int], chapterCount: Int)
}

/// The book the Characters tab searches (the default book), loaded and searched once for every
/// character, off the main thread: the search reads the whole text, which is worth keeping
/// out of a keystroke. The worker leaves its result here under a lock and posts a wake-up; the
/// detail screens read it when the run loop delivers the wake. A launch restored onto a detail
/// screen waits for it a little (`waitForSearch`), so its first frame shows the chapters.
public final class CharacterBook: @unchecked Sendable {
    private enum State {
        case idle
        case working
        case done([String: [Int: Int]], chapterCount: Int)
        case failed(String)
    }

    public let url: URL
    private let catalog: CharacterCatalog
    private let runsInBackground: Bool
    /// Guards `state`; signalled when the search ends.
    private let lock = NSCondition()
    private var state = State.idle
    /// How long a first frame may wait for the search: long enough for the default book
    /// (tens of milliseconds), short enough that a huge book or a slow disk does not hold
    /// the launch; past it the frame says "searching" and the wake brings the chapters.
    public var firstFrameWait: TimeInterval = 0.15

    /// `runsInBackground` false does the work on the caller's thread (headless tests).
    public init(url: URL, catalog: CharacterCatalog, runsInBackground: Bool = true) {
        self.url = url
        self.catalog = catalog
        self.runsInBackground = runsInBackground
    }

    /// Where `id` appears, starting the search on first use. A missing book is looked for again
    /// on every call, so a book fetched while the app runs is found on the next look.
    public func status(for id: String) -> AppearanceStatus {
        lock.lock()
        let current = state
        lock.unlock()
        switch current {
        case .done(let all, let chapterCount): return .found(mentions: all[id] ?? [:], chapterCount: chapterCount)
        case .failed(let reason): return .unreadable(reason)
        case .working: return .searching
        case .idle:
            guard FileManager.default.fileExists(atPath: url.path) else { return .bookNotInstalled(path: url.path) }
            start()
            return status(for: id)
        }
    }

    /// Starts the search if it has not started and waits for its end, at most `timeout`
    /// seconds. Returns false if it is still running then.
    @discardableResult
    public func waitForSearch(upTo timeout: TimeInterval) -> Bool {
        _ = status(for: "")
        let deadline = Date(timeIntervalSinceNow: timeout)
        lock.lock()
        defer { lock.unlock() }
        while case .working = state {
            guard lock.wait(until: deadline) else { return false }
        }
        return true
    }

    private func start() {
        lock.lock()
        guard case .idle = state else { lock.unlock(); return }
        state = .working
        lock.unlock()
        if runsInBackground {
            DispatchQueue.global(qos: .userInitiated).async { self.search() }
        } else {
            search()
        }
    }

    private func search() {
        let result: State
        do {
            let document = try BookLoader.load(path: url.path)
            var all: [String: [Int: Int]] = [:]
            for character in catalog.characters {
                all[character.id] = CharacterAppearances.find(names: character.searchNames, in: document)
            }
            result = .done(all, chapterCount: document.chapters.count)
        } catch {
            result = .failed("\(error)")
        }
        lock.lock()
        state = result
        lock.broadcast()
        lock.unlock()
        if runsInBackground { Wakeup.post() }
    }
}
