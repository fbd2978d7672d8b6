import FoundationEssentials
import Platform
import Terminal
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the detail screen can say about where a character appears.
public enum AppearanceStatus: Equatable, Sendable {
    /// The book file is not there (nor given to `--book`).
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
/// screen gives it a little time first (`waitForSearch`), so its first frame shows the chapters.
public final class CharacterBook: @unchecked Sendable {
    private enum State {
        case idle
        /// Handed to the background, not begun: whoever claims it first runs it.
        case queued
        case working
        case done([String: [Int: Int]], chapterCount: Int)
        case failed(String)
    }

    /// The book's path: kept as one, since a launch restoring a character page reaches it before
    /// anything else needs a URL. It changes only while the book is missing and nothing has
    /// been searched, to another copy of the book `alsoLookIn` names; the search's thread
    /// reads it after the lock that starts the search.
    public private(set) var path: String
    /// Another file that is the same book, when there is one now (the book the Book tab has
    /// open, when it is the default one); asked while the book is missing.
    public var alsoLookIn: (() -> String?)?
    private let catalog: CharacterCatalog
    private let runsInBackground: Bool
    /// Guards `state`; signalled when the search ends.
    private let lock = Condition()
    private var state = State.idle
    /// Characters a first frame searched for ahead of the whole search, while it is pending.
    private var earlyResults: [String: EarlyResult] = [:]
    /// The character the background search takes first, for the screen a launch will show.
    private var searchedFirst: String?
    /// The book file the results here were found in (or, before any search, the one a
    /// remembered result was checked against).
    private var searchedBook: FileStamp?

    private struct EarlyResult {
        var mentions: [Int: Int]
        var chapterCount: Int

        var status: AppearanceStatus { .found(mentions: mentions, chapterCount: chapterCount) }
    }
    /// How long a first frame may wait for the search: long enough for the default book
    /// (a few milliseconds in a release build), short enough that a huge book, a slow disk or
    /// a debug build does not hold the launch; past it the frame says "searching" and the
    /// wake brings the chapters.
    public var firstFrameWait: TimeInterval = 0.15
    /// Runs the search off the main thread (tests may hold it back): a thread of its own, which
    /// costs a launch less than starting libdispatch's pool; without one it runs here.
    public var startInBackground: (@escaping @Sendable () -> Void) -> Void = { work in
        if !startThread(name: "wonderland-search", work) { work() }
    }

    /// `runsInBackground` false does the work on the caller's thread (headless tests).
    public init(path: String, catalog: CharacterCatalog, runsInBackground: Bool = true) {
        self.path = path
        self.catalog = catalog
        self.runsInBackground = runsInBackground
    }

    public convenience init(url: URL, catalog: CharacterCatalog, runsInBackground: Bool = true) {
        self.init(path: url.path, catalog: catalog, runsInBackground: runsInBackground)
    }

    /// Where `id` appears, starting the search on first use. A missing book is looked for again
    /// on every call, so a book fetched while the app runs is found on the next look.
    public func status(for id: String) -> AppearanceStatus {
        let (current, early) = lock.withLock { (state, earlyResults[id]) }
        switch current {
        case .done(let all, let chapterCount): return .found(mentions: all[id] ?? [:], chapterCount: chapterCount)
        case .failed(let reason): return .unreadable(reason)
        case .queued, .working:
            return early?.status ?? .searching
        case .idle:
            // A restored answer stands until the search, begun after the first frame, has its own.
            if let early { return early.status }
            guard access(path, F_OK) == 0 || takeAnotherCopy() else { return .bookNotInstalled(path: path) }
            start()
            return status(for: id)
        }
    }

    /// What `id`'s screen shows now, with the book it was found in, for the screen to save;
    /// nil while nothing is known for it.
    public func remembered(for id: String) -> RememberedAppearances? {
        guard let character = catalog.characters.first(where: { $0.id == id }) else { return nil }
        return lock.withLock { () -> RememberedAppearances? in
            let known: EarlyResult?
            switch state {
            case .done(let all, let chapterCount): known = EarlyResult(mentions: all[id] ?? [:], chapterCount: chapterCount)
            case .queued, .working, .idle: known = earlyResults[id]
            case .failed: known = nil
            }
            guard let known, let book = searchedBook else { return nil }
            return RememberedAppearances(mentions: known.mentions, chapterCount: known.chapterCount, names: character.searchNames, book: book)
        }
    }

    /// Takes what a restored screen saved as `id`'s answer until the search has its own, when
    /// the book file is still the one it was found in and the character's names are the same.
    /// Returns whether it was taken.
    @discardableResult
    public func adopt(_ remembered: RememberedAppearances, for id: String) -> Bool {
        guard remembered.isPlausible, let character = catalog.characters.first(where: { $0.id == id }),
              character.searchNames == remembered.names, FileStamp.of(path: path) == remembered.book else { return false }
        return lock.withLock { () -> Bool in
            switch state {
            case .done, .failed: return false
            case .idle, .queued, .working:
                guard earlyResults[id] == nil else { return false }
                earlyResults[id] = EarlyResult(mentions: remembered.mentions, chapterCount: remembered.chapterCount)
                if searchedBook == nil { searchedBook = remembered.book }
                lock.broadcast()
                return true
            }
        }
    }

    /// Starts the search if the book is there and nobody has yet. With `first`, that
    /// character is searched before the others and its chapters are known as soon as it is
    /// done: what a restored detail's first frame waits for.
    public func beginSearching(first: String? = nil) {
        let idle = lock.withLock { () -> Bool in
            guard case .idle = state else { return false }
            if let first { searchedFirst = first }
            return true
        }
        if idle, access(path, F_OK) == 0 || takeAnotherCopy() { start() }
    }

    /// Takes the copy of the book `alsoLookIn` names, while the book is missing and nothing
    /// has been searched; true when there is one. Called on the main thread only.
    private func takeAnotherCopy() -> Bool {
        guard let other = alsoLookIn?(), other != path, access(other, F_OK) == 0 else { return false }
        let idle = lock.withLock { () -> Bool in
            guard case .idle = state, earlyResults.isEmpty else { return false }
            path = other
            return true
        }
        return idle
    }

    /// Makes `id`'s chapters known within `timeout` seconds if it can, for a first frame. When
    /// the background has begun with this character first, its answer is waited for;
    /// otherwise only this character is searched here, on the caller's thread (books up to
    /// `firstFrameSearchLimit`), while the background goes on finding the others. A bigger
    /// book is waited for, as long. Returns false when the chapters are still unknown.
    @discardableResult
    public func waitForSearch(for id: String, upTo timeout: TimeInterval) -> Bool {
        guard case .searching = status(for: id) else { return true }
        let deadline = Deadline.after(seconds: timeout)
        let backgroundTakesItFirst = lock.withLock { () -> Bool in
            guard searchedFirst == id else { return false }
            // Its thread is made but may not have started: a thread starts in well under a
            // millisecond, so it is given a moment rather than the book read twice at once.
            let start = Deadline.after(seconds: min(Self.threadStartWait, timeout))
            while case .queued = state, lock.wait(until: start) {}
            guard case .working = state else { return false }
            return true
        }
        // Not begun yet, the background might not start before the deadline: search here.
        if !backgroundTakesItFirst, !deadline.hasPassed, isSmallEnoughToSearchNow(), let early = searchOne(id, until: deadline) {
            lock.withLock { earlyResults[id] = early }
            return true
        }
        lock.lock()
        defer { lock.unlock() }
        while isPending(state) && earlyResults[id] == nil {
            guard lock.wait(until: deadline) else { return false }
        }
        return true
    }

    /// One character's mentions, when the book reads and `deadline` has not passed once it is
    /// read; nil otherwise (the background's search then says what went wrong).
    private func searchOne(_ id: String, until deadline: Deadline) -> EarlyResult? {
        let stamp = FileStamp.of(path: path)
        guard let character = catalog.characters.first(where: { $0.id == id }),
              let document = try? BookLoader.load(path: path), !deadline.hasPassed else { return nil }
        lock.withLock { searchedBook = stamp }
        return EarlyResult(mentions: CharacterAppearances.find(names: character.searchNames, in: document),
                           chapterCount: document.chapters.count)
    }

    /// Books over this many bytes are not searched for a first frame: at the release build's
    /// 25 MB/s or so (every character, the default book) they could not finish in time, and
    /// reading them on the main thread would already hold the launch.
    static let firstFrameSearchLimit: UInt64 = 4 << 20

    private func isSmallEnoughToSearchNow() -> Bool {
        // lstat, as FileManager's attributesOfItem: a linked book counts as the link's size.
        var status = stat()
        guard lstat(path, &status) == 0 else { return false }
        return UInt64(status.st_size) <= Self.firstFrameSearchLimit
    }

    private func start() {
        lock.lock()
        guard case .idle = state else { lock.unlock(); return }
        state = .queued
        lock.unlock()
        if runsInBackground {
            startInBackground { self.runIfUnclaimed() }
        } else {
            runIfUnclaimed()
        }
    }

    private func isPending(_ state: State) -> Bool {
        switch state {
        case .queued, .working: true
        default: false
        }
    }

    /// Takes the queued search for the calling thread; false if another has it or it is done.
    private func claim() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard case .queued = state else { return false }
        state = .working
        lock.broadcast()  // a first frame may be waiting to know the search has begun
        return true
    }

    /// How long a first frame waits for the search's thread to start before searching itself.
    static let threadStartWait: TimeInterval = 0.002

    private func runIfUnclaimed() {
        guard claim(), let result = search(until: nil) else { return }
        finish(result)
    }

    /// The search's outcome, or nil when `deadline` passed before every character was done.
    private func search(until deadline: Deadline?) -> State? {
        do {
            let stamp = FileStamp.of(path: path)
            let document = try BookLoader.load(path: path)
            lock.withLock { searchedBook = stamp }
            var all: [String: [Int: Int]] = [:]
            if let first = lock.withLock({ searchedFirst }), let character = catalog.characters.first(where: { $0.id == first }) {
                let mentions = CharacterAppearances.find(names: character.searchNames, in: document)
                all[first] = mentions
                lock.withLock {
                    earlyResults[first] = EarlyResult(mentions: mentions, chapterCount: document.chapters.count)
                    lock.broadcast()
                }
            }
            for character in catalog.characters where all[character.id] == nil {
                if let deadline, deadline.hasPassed { return nil }
                all[character.id] = CharacterAppearances.find(names: character.searchNames, in: document)
            }
            return .done(all, chapterCount: document.chapters.count)
        } catch {
            return .failed("\(error)")
        }
    }

    private func finish(_ result: State) {
        lock.lock()
        state = result
        earlyResults = [:]  // the whole result answers for every character now
        lock.broadcast()
        lock.unlock()
        if runsInBackground { Wakeup.post() }
    }
}
